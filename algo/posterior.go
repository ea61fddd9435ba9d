package algo

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// GradientMean returns the n x d matrix whose row i is the GP posterior-mean gradient at
// theta for user i (Algorithm 1, line 7), with zero prior mean:
//
//	g_i = grad k(theta, D) (k(D,D) + noiseVar I)^{-1} y_i.
//
// D is m x d (one design point per row), Y is n x m (user i's observations at D in row i).
// All users are handled at once: one Cholesky of k(D,D)+noiseVar I, then
// G = Y W with W = (k(D,D)+noiseVar I)^{-1} J^T, where J^T row r = grad_theta k(theta, D_r).
// It panics on mismatched dimensions or a kernel matrix that is not positive definite.
func GradientMean(k RBF, noiseVar float64, D, Y mat.Matrix, theta []float64) *mat.Dense {
	m, d := D.Dims()
	n, my := Y.Dims()
	if my != m || len(theta) != d {
		panic(fmt.Sprintf("algo: GradientMean: D is %dx%d, Y is %dx%d, theta has %d values", m, d, n, my, len(theta)))
	}
	G := mat.NewDense(n, d, nil)
	if m == 0 {
		return G
	}
	W := gradientWeights(k, noiseVar, D, theta)
	G.Mul(Y, W)
	return G
}

// gradientWeights returns W = (k(D,D)+noiseVar I)^{-1} J^T (m x d) by one Cholesky.
func gradientWeights(k RBF, noiseVar float64, D mat.Matrix, theta []float64) *mat.Dense {
	m, d := D.Dims()
	K := mat.NewSymDense(m, nil)
	k.Gram(K, D, noiseVar)
	var chol mat.Cholesky
	if !chol.Factorize(K) {
		panic(errNotPD)
	}
	Jt := mat.NewDense(m, d, nil)
	k.gradCross(Jt.RawMatrix().Data, theta, rows(D), nil)
	W := mat.NewDense(m, d, nil)
	if err := chol.SolveTo(W, Jt); err != nil {
		panic(fmt.Errorf("algo: gradient weights: %w", err))
	}
	return W
}

// GradientTrace is the acquisition value alpha(empty; D, theta): the trace of the posterior
// covariance of grad f(theta) given noisy observations (noise variance noiseVar) at the
// rows of D,
//
//	tr(grad k(theta,theta) grad^T - grad k(theta,D) (k(D,D)+noiseVar I)^{-1} k(D,theta) grad^T).
//
// For an empty D (nil is allowed) it is d*Variance/Lengthscale^2.
func GradientTrace(k RBF, noiseVar float64, D mat.Matrix, theta []float64) float64 {
	m, d := dims(D, len(theta))
	if len(theta) != d {
		panic(fmt.Sprintf("algo: GradientTrace: D has %d columns, theta has %d values", d, len(theta)))
	}
	s := newGradState(k, noiseVar, d)
	copy(s.theta, theta)
	if m > 0 {
		if err := s.reset(rows(D)); err != nil {
			panic(err)
		}
	}
	s.setTheta(theta)
	return s.base
}

// Acquisition returns alpha(Z; D, theta) of section 3.1: the trace of the posterior
// gradient covariance at theta after noisy observations at the rows of D and of the
// candidate set Z. It factorises D once and evaluates Z by a block (Schur-complement)
// update. When grad is non-nil (the shape of Z) it receives d alpha / d Z. The error reports
// a kernel matrix that is not positive definite.
func Acquisition(k RBF, noiseVar float64, D, Z mat.Matrix, theta []float64, grad *mat.Dense) (float64, error) {
	b, dz := Z.Dims()
	m, d := dims(D, dz)
	if dz != d || len(theta) != d {
		return 0, fmt.Errorf("algo: Acquisition: D has %d columns, Z %d, theta %d values", d, dz, len(theta))
	}
	s := newGradState(k, noiseVar, d)
	copy(s.theta, theta)
	if m > 0 {
		if err := s.reset(rows(D)); err != nil {
			return 0, err
		}
	}
	s.setTheta(theta)
	z := mat.DenseCopyOf(Z).RawMatrix()
	zdata := packRows(z)
	var g []float64
	if grad != nil {
		if r, c := grad.Dims(); r != b || c != d {
			return 0, fmt.Errorf("algo: Acquisition: grad is %dx%d, want %dx%d", r, c, b, d)
		}
		g = make([]float64, b*d)
	}
	alpha, ok := s.block(zdata, b, g)
	if !ok {
		return 0, errNotPD
	}
	if grad != nil {
		grad.Copy(mat.NewDense(b, d, g))
	}
	return alpha, nil
}

// packRows returns the rows of g as one contiguous row-major slice.
func packRows(g blas64.General) []float64 {
	if g.Stride == g.Cols {
		return g.Data[:g.Rows*g.Cols]
	}
	out := make([]float64, g.Rows*g.Cols)
	for r := 0; r < g.Rows; r++ {
		copy(out[r*g.Cols:(r+1)*g.Cols], g.Data[r*g.Stride:r*g.Stride+g.Cols])
	}
	return out
}

// dims returns the dimensions of D, treating a nil D as an empty m = 0 design with d columns.
func dims(D mat.Matrix, d int) (int, int) {
	if D == nil {
		return 0, d
	}
	return D.Dims()
}
