// Package gemm computes the dense matrix products behind the tasks' kernel matrices and
// Cholesky factorisations in the pure-Go build: C += alpha op(A) op(B)^T on row-major
// float64 matrices, blocked for the caches and computed 4 x 8 entries at a time by a
// register-blocked micro-kernel, in AVX2/FMA assembly on amd64 processors that have it and
// in Go elsewhere. gonum's pure-Go Dgemm and Dsyrk build every product from SSE2 dot
// products or axpys; on the machine of the project's benchmarks the micro-kernel does the
// same work three to four times faster, which is what a 1000 x 1000 Cholesky factorisation
// needs to stay within reach of an OpenBLAS-backed numpy.
//
// Every entry is accumulated with fused multiply-adds in a fixed order (the inner index in
// blocks of KC, each block summed in order, then added to C as alpha*sum + C), and the Go
// micro-kernel uses math.FMA in the same order as the assembly, so results are bit for bit
// the same on every platform and do not depend on how the work is split.
//
// The openblas build does not use this package: gonum's BLAS calls go to OpenBLAS there.
package gemm
