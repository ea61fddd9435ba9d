//go:build openblas

package gpreg

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	"dpgibo/internal/gemm"
)

// The openblas build runs every product on OpenBLAS through blas64: one Dsyrk for the
// training Gram matrix, one Dgemm for validation against training, gonum's blocked Dpotrf
// (whose level-3 updates run on OpenBLAS; faster than LAPACKE's row-major Dpotrf, which
// transposes the matrix twice) and one Dgemv for the predictive means. The
// gemm.Workspace arguments are unused here.

// gramUpper writes the upper triangle of variance*exp(-|x_a - x_b|^2/2) + noiseVar*[a == b]
// into dst (n x n, n rows of x); norms is scratch of length n.
func gramUpper(_ *gemm.Workspace, dst blas64.Symmetric, x blas64.General, variance, noiseVar float64, norms []float64) {
	n := x.Rows
	norms = norms[:n]
	rowSqNorms(norms, x)
	dst.Uplo = blas.Upper
	blas64.Syrk(blas.NoTrans, -2, x, 0, dst)
	forRows(n, n*n/2, func(a int) {
		row := dst.Data[a*dst.Stride : a*dst.Stride+n]
		row[a] = variance + noiseVar
		na := norms[a]
		args := row[a+1:]
		for b := range args {
			args[b] = -0.5 * max(0, args[b]+na+norms[a+1+b])
		}
		expScaled(args, variance)
	})
}

// crossKernel writes variance*exp(-|a_r - b_c|^2/2) into dst (a.Rows x b.Rows); norms is
// scratch of length a.Rows + b.Rows.
func crossKernel(dst, a, b blas64.General, variance float64, norms []float64) {
	na, nb := norms[:a.Rows], norms[a.Rows:a.Rows+b.Rows]
	rowSqNorms(na, a)
	rowSqNorms(nb, b)
	blas64.Gemm(blas.NoTrans, blas.Trans, -2, a, b, 0, dst)
	forRows(a.Rows, a.Rows*b.Rows, func(r int) {
		row := dst.Data[r*dst.Stride : r*dst.Stride+b.Rows]
		nr := na[r]
		for c := range row {
			row[c] = -0.5 * max(0, row[c]+nr+nb[c])
		}
		expScaled(row, variance)
	})
}

// choleskyUpper overwrites the upper triangle of a with U, A = U^T U, by gonum's Dpotrf.
func choleskyUpper(_ *gemm.Workspace, n int, a []float64, lda int) bool {
	return (lapackgonum.Implementation{}).Dpotrf(blas.Upper, n, a, lda)
}

// predictiveMeans writes k(x_r, X_train) alpha for every validation row x_r of val into
// mean, through the full cross kernel matrix in cross.
func predictiveMeans(_ *gemm.Workspace, mean []float64, cross, val, train blas64.General, variance float64, norms, alpha []float64) {
	crossKernel(cross, val, train, variance, norms)
	blas64.Gemv(blas.NoTrans, 1, cross,
		blas64.Vector{N: len(alpha), Inc: 1, Data: alpha}, 0,
		blas64.Vector{N: len(mean), Inc: 1, Data: mean})
}
