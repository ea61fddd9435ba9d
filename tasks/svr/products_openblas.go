//go:build openblas

package svr

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"dpgibo/internal/gemm"
)

// The openblas build runs the kernel products on OpenBLAS through blas64: one Dsyrk for the
// training kernel matrix and one Dgemm per prediction block. The gemm.Workspace arguments
// are unused here.

// gramArgs writes the exponents -gamma |u_i - u_j|^2 of the training kernel matrix into the
// upper triangle of dst (n x n, row-major) for the pre-scaled rows u with squared norms
// norms.
func gramArgs(_ *gemm.Workspace, dst, u, norms []float64, n, p int, gamma float64) {
	a := blas64.General{Rows: n, Cols: p, Stride: p, Data: u}
	c := blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: dst}
	blas64.Syrk(blas.NoTrans, 2*gamma, a, 0, c)
	for i := 0; i < n; i++ {
		row := dst[i*n : (i+1)*n]
		ci := -gamma * norms[i]
		for j := i + 1; j < n; j++ {
			row[j] = ci - gamma*norms[j] + row[j]
		}
	}
}

// crossArgs writes the exponents c_u + a_s + 2 gamma u.s of the kernel values between the
// rows u of a (c_u = -gamma |u|^2 from their squared norms) and the support vectors s
// (a_s = svArg) into c.
func crossArgs(_ *gemm.Workspace, c, a, svs blas64.General, gamma float64, norms, svArg []float64) {
	blas64.Gemm(blas.NoTrans, blas.Trans, 2*gamma, a, svs, 0, c)
	for r := 0; r < a.Rows; r++ {
		row := c.Data[r*c.Stride : r*c.Stride+c.Cols]
		cu := -gamma * norms[r]
		for k, g := range row {
			row[k] = cu + svArg[k] + g
		}
	}
}
