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
//     built on features pre-scaled by 1/l_j with one BLAS product per kernel matrix and
//     buffers reused across fits; predictions use only the support vectors.
//   - Task: the tuning task (tasks.Task, name "svr") with theta = (log l_1..log l_p,
//     log epsilon, log C, log gamma) on n_train = 1000 training and n_val = 9000 validation
//     rows and p = 100 features drawn by seed. It runs on the real file when the lookup
//     (Config.Path, $DPGIBO_CTSLICE, data/ctslice/) finds it, and otherwise on the
//     generated stand-in, labelled "ctslice-synthetic" (Task.DataLabel, Task.Warning).
//
// Build with -tags openblas (and CGO_LDFLAGS="-lopenblas -llapacke") to run the BLAS
// products on OpenBLAS through package algo.
package svr
