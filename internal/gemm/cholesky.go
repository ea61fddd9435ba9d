package gemm

import (
	"gonum.org/v1/gonum/blas"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// CholeskyBlock is the block size of CholeskyUpper.
const CholeskyBlock = 64

// CholeskyUpper overwrites the upper triangle of the n x n symmetric matrix a (row-major,
// stride lda; the strict lower triangle is neither read nor written) with U such that
// A = U^T U, and reports whether A is positive definite (on false, a holds a partial
// factorisation). It is the right-looking blocked algorithm of LAPACK's dpotrf: each
// diagonal block of CholeskyBlock rows is factorised by gonum's Dpotf2, the block row to
// its right is solved by gonum's Dtrsm, and the trailing matrix is updated by
// MulTN(-1, ..., Upper), which holds almost all of the n^3/3 multiply-adds.
func (w *Workspace) CholeskyUpper(n int, a []float64, lda int) bool {
	if n == 0 {
		return true
	}
	if lda < n || len(a) < (n-1)*lda+n {
		panic("gemm: CholeskyUpper: matrix too short")
	}
	for j0 := 0; j0 < n; j0 += CholeskyBlock {
		jb := min(CholeskyBlock, n-j0)
		if !(lapackgonum.Implementation{}).Dpotf2(blas.Upper, jb, a[j0*lda+j0:], lda) {
			return false
		}
		rest := n - j0 - jb
		if rest == 0 {
			break
		}
		panel := a[j0*lda+j0+jb:]
		(blasgonum.Implementation{}).Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, jb, rest, 1, a[j0*lda+j0:], lda, panel, lda)
		a12 := Matrix{Rows: jb, Cols: rest, Stride: lda, Data: panel}
		a22 := Matrix{Rows: rest, Cols: rest, Stride: lda, Data: a[(j0+jb)*lda+j0+jb:]}
		w.MulTN(-1, a12, a12, a22, Upper)
	}
	return true
}
