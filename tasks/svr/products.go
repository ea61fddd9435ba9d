package svr

import (
	"gonum.org/v1/gonum/blas/blas64"

	"dpgibo/internal/gemm"
)

// Both builds run the kernel products on package gemm: each matrix of exponents starts as
// the terms that do not depend on the pair's inner product and one product adds 2 gamma u.s
// to it with a single rounding per block of the inner dimension. In the openblas build too:
// for these shapes (a 128 x 100 block against ~500 support vectors) gemm's AVX2/AVX-512
// micro-kernels took about half the time of OpenBLAS 0.3.21's Dgemm on the benchmark
// machine, and the losses no longer depend on the build. (Only the on-demand kernel rows of
// training sets too large for the cache, rowCache, still use blas64.)

// gramArgs writes the exponents -gamma |u_i - u_j|^2 of the training kernel matrix into the
// upper triangle of dst (n x n, row-major) for the pre-scaled rows u with squared norms
// norms.
func gramArgs(ws *gemm.Workspace, dst, u, norms []float64, n, p int, gamma float64) {
	for i := 0; i < n; i++ {
		row := dst[i*n : (i+1)*n]
		ci := -gamma * norms[i]
		for j := i; j < n; j++ {
			row[j] = ci - gamma*norms[j]
		}
	}
	x := gemm.Matrix{Rows: n, Cols: p, Stride: p, Data: u}
	ws.MulNT(2*gamma, x, x, gemm.Matrix{Rows: n, Cols: n, Stride: n, Data: dst}, gemm.Upper)
}

// crossArgs writes the exponents c_u + a_s + 2 gamma u.s of the kernel values between the
// rows u of a (c_u = -gamma |u|^2 from their squared norms) and the support vectors s
// (a_s = svArg) into c.
func crossArgs(ws *gemm.Workspace, c, a, svs blas64.General, gamma float64, norms, svArg []float64) {
	for r := 0; r < a.Rows; r++ {
		row := c.Data[r*c.Stride : r*c.Stride+c.Cols]
		cu := -gamma * norms[r]
		for k, s := range svArg {
			row[k] = cu + s
		}
	}
	ws.MulNT(2*gamma, gemm.Matrix{Rows: a.Rows, Cols: a.Cols, Stride: a.Stride, Data: a.Data},
		gemm.Matrix{Rows: svs.Rows, Cols: svs.Cols, Stride: svs.Stride, Data: svs.Data},
		gemm.Matrix{Rows: c.Rows, Cols: c.Cols, Stride: c.Stride, Data: c.Data}, gemm.Full)
}
