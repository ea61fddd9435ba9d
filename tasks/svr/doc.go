// Package svr is the paper's real-data task: tuning d = p + 3 hyperparameters of an
// epsilon-support-vector regressor with an ARD-RBF kernel on the UCI CT-slice data
// (appendix "Hyperparameter tuning of an SVM").
//
// It holds three pieces:
//
//   - The SMO solver behind SVR.Fit: the standard epsilon-SVR dual
//     (0 <= alpha, alpha* <= C, sum(alpha - alpha*) = 0) solved by sequential minimal
//     optimisation with second-order working-set selection (Fan, Chen and Lin 2005), the
//     bias from the KKT conditions, and a stopping tolerance Tol (default 1e-3) on the
//     maximal KKT violation. The full training kernel matrix is cached when it fits
//     (n_train = 1000 does); otherwise rows are computed on demand. No shrinking.
//   - SVR: the regressor with the kernel k(x, x') = exp(-gamma sum_j (x_j - x'_j)^2 / l_j^2),
//     built on features pre-scaled by 1/l_j with one BLAS product per kernel matrix and
//     buffers reused across fits; predictions use only the support vectors.
//   - Task: the tuning task (tasks.Task, name "svr") with theta = (log l_1..log l_p,
//     log epsilon, log C, log gamma) on n_train = 1000 training and n_val = 9000 validation
//     rows and p = 100 features drawn by seed. It runs on the real file when the lookup
//     (Config.Path, $DPGIBO_CTSLICE, data/ctslice/) finds it, and otherwise on the
//     generated stand-in, labelled "ctslice-synthetic" (Task.DataLabel, Task.Warning).
//
// # Units
//
// Features are used as the file has them (values in [0, 1], -0.25 outside the image; no
// standardisation, the features share one scale already). The target is standardised with
// the training rows' mean and standard deviation, so epsilon, the per-user losses, the
// validation MSE of every figure and LossBound are in (squared) standardised target units;
// Task.TargetScale converts back to the reference's units.
//
// # Speed
//
// The building blocks: the training kernel is one Syrk (n x p) plus n^2/2 exponentials,
// SMO costs O(n) per step with the whole matrix cached, and prediction is one Gemm per block
// of 128 validation rows against the support vectors, the kernel values summed with the
// dual coefficients. The exponential is table-driven (relative error below 1e-15) and is,
// with the Gemm, the main cost. Built with GOEXPERIMENT=simd on an AVX-512 CPU, the
// exponentials and SMO's three loops over the points run eight values at a time, with the
// scalar code's operations in its order, so every result is bit for bit the same.
//
// Config.PredictPrecision chooses the precision of the prediction's cross products:
// float32 by default (one Sgemm, about half the time of that product; the squared norms,
// exponentials and sums stay in float64, and a kernel value moves by about 1e-7
// relative), or float64. The precision study (docs/library.md) showed float32
// non-inferior on every svr figure before it became the default.
// BenchmarkLosses times one evaluation at n_train = 1000, p = 100, n_val = 9000 on the
// stand-in; testdata/compare_libsvm.py times scikit-learn's SVR (libsvm) on the same
// problem. docs/library.md gives the measured times and ratios.
//
// The openblas build tag (cgo; links -lopenblas -llapacke) switches gonum to
// OpenBLAS in every binary that links package algo: the experiment runner, and this
// package's tests and benchmark.
package svr
