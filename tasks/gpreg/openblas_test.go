//go:build openblas

package gpreg

// With the openblas build tag, package internal/blasinfo switches blas64 and lapack64 to OpenBLAS when it
// is linked in; importing it here makes this package's tests and benchmarks run on the same
// BLAS as the experiments.
import _ "dpgibo/internal/blasinfo"
