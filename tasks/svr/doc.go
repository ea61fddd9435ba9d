// Package svr is the paper's real-data task: tuning d = p + 3 hyperparameters of an
// epsilon-support-vector regressor with an ARD-RBF kernel on the UCI CT-slice data
// (appendix "Hyperparameter tuning of an SVM").
//
// It holds three pieces:
//
//   - SolveDual and the SMO solver behind SVR.Fit: the standard epsilon-SVR dual
//     (0 <= alpha, alpha* <= C, sum(alpha - alpha*) = 0) solved by sequential minimal
//     optimisation with second-order working-set selection (Fan, Chen and Lin 2005), the
//     bias from the KKT conditions, and a stopping tolerance Tol (default 1e-3) on the
//     maximal KKT violation. The full training kernel matrix is cached when it fits
//     (n_train = 1000 does); otherwise rows are computed on demand. No shrinking.
//   - SVR: the regressor with the kernel k(x, x') = exp(-gamma sum_j (x_j - x'_j)^2 / l_j^2),
//     built on features pre-scaled by 1/l_j with one matrix product per kernel matrix and
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
// The building blocks: the training kernel is one product (n x p, upper triangle) plus
// n^2/2 exponentials, SMO costs O(n) per step with the whole matrix cached, and prediction
// is one product per block of 128 validation rows against the support vectors, whose
// exponentials are summed with the dual coefficients. The products run on internal/gemm
// (AVX2/AVX-512 micro-kernels) in both builds and the exponentials four at a time
// (fastexp.ExpNonPositiveSlice); the prediction product and its exponentials are the main
// cost, then SMO. BenchmarkLosses times one evaluation at n_train = 1000, p = 100,
// n_val = 9000 on the stand-in; testdata/compare_libsvm.py runs scikit-learn's SVR
// (libsvm) on the same problem. Measured on a shared 2-core AMD EPYC (Zen 5) under heavy
// load, single-threaded (-cpu 1, one OpenBLAS thread), process CPU time per evaluation,
// median over 12 interleaved rounds of the per-round ratio (range in brackets), at every
// length-scale 1, epsilon 0.1, gamma 0.1 (about 510 support vectors):
//
//	                             C = 1                      C = 3
//	scikit-learn 1.2.1 (libsvm)  376 ms                     370 ms
//	pure Go                       49 ms  0.13x [0.11, 0.15]  43 ms  0.12x [0.10, 0.13]
//	-tags openblas                53 ms  0.13x [0.10, 0.15]  44 ms  0.12x [0.10, 0.15]
//
// (before internal/gemm: 0.46x pure Go, 0.20-0.22x openblas), with validation MSEs equal to
// libsvm's within 3.1e-7 (1.2e-5 relative).
//
// The openblas build tag (cgo; links -lopenblas -llapacke) switches gonum to
// OpenBLAS in every binary that links package algo: the experiment runner, and this
// package's tests and benchmark. This package's kernel products do not go through it
// (products.go).
package svr
