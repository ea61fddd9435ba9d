// Package blasinfo selects and names the BLAS and LAPACK implementation of a build: pure
// gonum by default; with the build tag openblas (cgo; links -lopenblas -llapacke), importing
// this package switches gonum's blas64 and lapack64 to OpenBLAS through gonum/netlib. The
// runner, the benchmarks and the tests import it; the library (package algo) does not, so a
// program that wants OpenBLAS imports gonum/netlib itself (docs/library.md).
package blasinfo
