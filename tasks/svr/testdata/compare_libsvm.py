"""Times scikit-learn's SVR (libsvm) on the problem of BenchmarkLosses.

Usage (from the repository root):

    SVR_BENCH_DUMP=/tmp/svrbench go test ./tasks/svr -run TestDumpBenchmarkProblem
    python3 tasks/svr/testdata/compare_libsvm.py /tmp/svrbench [repeats]

For each benchmark point it fits SVR(kernel="rbf", gamma, C, epsilon, tol=1e-3) on the
training features divided by the length-scales (scikit-learn's isotropic RBF on x/l is the
ARD kernel of package svr), predicts the validation rows, and prints the validation MSE next
to the Go one, with the best wall and CPU time of the repeats (scaling, fit and predict).
"""
import sys
import time

import numpy as np
from sklearn.svm import SVR

root = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
train = np.loadtxt(f"{root}/train.csv", delimiter=",")
val = np.loadtxt(f"{root}/val.csv", delimiter=",")
points = np.atleast_2d(np.loadtxt(f"{root}/hyper.csv", delimiter=","))
x_train, y_train = train[:, :-1], train[:, -1]
x_val, y_val = val[:, :-1], val[:, -1]
p = x_train.shape[1]
for point in points:
    lengthscales = point[:p]
    epsilon, c, gamma, go_mse = point[p:]
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        model = SVR(kernel="rbf", gamma=gamma, C=c, epsilon=epsilon, tol=1e-3)
        model.fit(x_train / lengthscales, y_train)
        pred = model.predict(x_val / lengthscales)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    mse = float(np.mean((y_val - pred) ** 2))
    print(f"C={c:g} epsilon={epsilon:g} gamma={gamma:g}: libsvm MSE {mse:.6f}, Go MSE {go_mse:.6f} "
          f"(relative difference {abs(mse - go_mse) / mse:.1e}), {len(model.support_)} SVs, "
          f"best wall {best_wall * 1000:.0f} ms, best CPU {best_cpu * 1000:.0f} ms")
