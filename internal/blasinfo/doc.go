// Package blasinfo selects and names the BLAS and LAPACK implementation of a build: pure
// gonum by default; with the build tag openblas (cgo; links -lopenblas -llapacke), importing
// this package switches gonum's blas64 and lapack64 to OpenBLAS through gonum/netlib. Package
// algo imports it, so any program built with the tag runs on OpenBLAS.
//
// It also keeps runs repeatable across CPUs: SelfCheck finds kernels whose results depend
// on memory alignment (OpenBLAS's generic fallback kernels), ReplaceFallbackCore lets the
// project's own commands and test binaries re-execute themselves with a kernel set that
// does not (library code never calls it), and PinsApply tells tests whether the committed
// bit-for-bit pins were recorded with this build's kernels.
package blasinfo
