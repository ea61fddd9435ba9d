package algo

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"dpgibo/internal/fastexp"
)

// RBF is the squared-exponential kernel
//
//	k(a, b) = Variance * exp(-|a-b|^2 / (2 Lengthscale^2)).
//
// It is stationary and isotropic, as Assumption 3.2 of the paper asks.
type RBF struct{ Lengthscale, Variance float64 }

// At returns k(a, b).
func (k RBF) At(a, b []float64) float64 {
	s := 0.0
	for j, aj := range a {
		t := aj - b[j]
		s += t * t
	}
	return k.fromSqDist(s)
}

func (k RBF) fromSqDist(sq float64) float64 {
	return k.Variance * fastexp.ExpNonPositive(-sq/(2*k.Lengthscale*k.Lengthscale))
}

// GradAt writes into dst the gradient of k(a, b) with respect to a:
// -(a-b)/Lengthscale^2 * k(a, b). It is also the covariance between grad f(a) and f(b).
func (k RBF) GradAt(dst, a, b []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(a))
	}
	kv := k.At(a, b)
	il2 := 1 / (k.Lengthscale * k.Lengthscale)
	for j := range a {
		dst[j] = -(a[j] - b[j]) * il2 * kv
	}
	return dst
}

// GradCov returns the diagonal entry of grad k(theta, theta) grad^T, the prior covariance of
// each coordinate of grad f: Variance/Lengthscale^2 (the matrix is this times I).
func (k RBF) GradCov() float64 { return k.Variance / (k.Lengthscale * k.Lengthscale) }

// rows returns a row-major blas64.General view of m (copying when m is not a *mat.Dense).
func rows(m mat.Matrix) blas64.General {
	if d, ok := m.(*mat.Dense); ok {
		return d.RawMatrix()
	}
	return mat.DenseCopyOf(m).RawMatrix()
}

// sqNorms writes the squared Euclidean norm of each row of x into dst.
func sqNorms(dst []float64, x blas64.General) {
	for i := 0; i < x.Rows; i++ {
		row := x.Data[i*x.Stride : i*x.Stride+x.Cols]
		dst[i] = blas64.Dot(blas64.Vector{N: len(row), Inc: 1, Data: row}, blas64.Vector{N: len(row), Inc: 1, Data: row})
	}
}

// Cross writes k(A, B) (rows of A against rows of B) into dst, which must be
// A.Rows x B.Rows. The squared distances come from one matrix product -2 A B^T plus the row
// norms, so the cost is one general matrix product.
func (k RBF) Cross(dst *mat.Dense, A, B mat.Matrix) {
	a, b := rows(A), rows(B)
	r, c := dst.Dims()
	if r != a.Rows || c != b.Rows || a.Cols != b.Cols {
		panic("algo: RBF.Cross dimension mismatch")
	}
	k.crossRaw(dst.RawMatrix(), a, b, nil)
}

// Gram writes k(X, X) + noiseVar*I into dst (n x n for n rows of X), using one symmetric
// rank-k update for the inner products.
func (k RBF) Gram(dst *mat.SymDense, X mat.Matrix, noiseVar float64) {
	x := rows(X)
	if dst.SymmetricDim() != x.Rows {
		panic("algo: RBF.Gram dimension mismatch")
	}
	k.gramRaw(dst.RawSymmetric(), x, noiseVar, nil)
}

// crossRaw writes k(a, b) into dst (a.Rows x b.Rows) with one Dgemm; norms is scratch of
// length a.Rows+b.Rows (allocated when too short).
func (k RBF) crossRaw(dst, a, b blas64.General, norms []float64) {
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	norms = grow(norms, a.Rows+b.Rows)
	na, nb := norms[:a.Rows], norms[a.Rows:]
	sqNorms(na, a)
	sqNorms(nb, b)
	blas64.Gemm(blas.NoTrans, blas.Trans, -2, a, b, 0, dst)
	for i := 0; i < a.Rows; i++ {
		row := dst.Data[i*dst.Stride : i*dst.Stride+b.Rows]
		for j := range row {
			row[j] = k.fromSqDist(math.Max(0, row[j]+na[i]+nb[j]))
		}
	}
}

// gramRaw writes the upper triangle of k(x, x) + noiseVar*I into dst (Uplo Upper) with one
// Dsyrk; norms is scratch of length x.Rows.
func (k RBF) gramRaw(dst blas64.Symmetric, x blas64.General, noiseVar float64, norms []float64) {
	n := x.Rows
	if n == 0 {
		return
	}
	norms = grow(norms, n)
	sqNorms(norms, x)
	dst.Uplo = blas.Upper
	blas64.Syrk(blas.NoTrans, -2, x, 0, dst)
	for i := 0; i < n; i++ {
		row := dst.Data[i*dst.Stride : i*dst.Stride+n]
		row[i] = k.Variance + noiseVar
		for j := i + 1; j < n; j++ {
			row[j] = k.fromSqDist(math.Max(0, row[j]+norms[i]+norms[j]))
		}
	}
}

// gradCross writes J^T, the m x d matrix whose row r is grad_theta k(theta, D_r), into dst,
// and returns it. kvec receives k(theta, D_r).
func (k RBF) gradCross(dst []float64, theta []float64, D blas64.General, kvec []float64) {
	il2 := 1 / (k.Lengthscale * k.Lengthscale)
	d := len(theta)
	for r := 0; r < D.Rows; r++ {
		row := D.Data[r*D.Stride : r*D.Stride+d]
		kv := k.At(theta, row)
		if kvec != nil {
			kvec[r] = kv
		}
		out := dst[r*d : r*d+d]
		for j := range out {
			out[j] = -(theta[j] - row[j]) * il2 * kv
		}
	}
}
