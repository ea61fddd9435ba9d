package bo

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"dpgibo/algo"
	"dpgibo/internal/boxmap"
)

// Bounds on the hyperparameters of the GP surrogate of "ucb" and "dp-ucb", in the units the
// surrogate works in: inputs scaled to the unit cube [0, 1]^d, outputs standardised to mean
// 0 and standard deviation 1. dp-ucb raises the lower noise bound to its release variance
// (see UCB).
const (
	ucbMinLengthscale = 0.01 // smallest RBF length-scale (unit-cube units)
	ucbMaxLengthscale = 10   // largest RBF length-scale
	ucbMinSignalVar   = 0.05 // smallest RBF signal variance (standardised units)
	ucbMaxSignalVar   = 20   // largest RBF signal variance
	ucbMinNoiseVar    = 1e-6 // smallest observation noise variance (standardised units)
	ucbMaxNoiseVar    = 1    // largest observation noise variance (raised to the lower bound if that is above it)
)

// gpHyper are the GP surrogate's hyperparameters.
type gpHyper struct {
	Lengthscale, SignalVar, NoiseVar float64
}

// logParams returns (log Lengthscale, log SignalVar, log NoiseVar).
func (h gpHyper) logParams() [3]float64 {
	return [3]float64{math.Log(h.Lengthscale), math.Log(h.SignalVar), math.Log(h.NoiseVar)}
}

// hyperFromLog is the inverse of logParams.
func hyperFromLog(p [3]float64) gpHyper {
	return gpHyper{Lengthscale: math.Exp(p[0]), SignalVar: math.Exp(p[1]), NoiseVar: math.Exp(p[2])}
}

// hyperBox is the box of the log-hyperparameters (log Lengthscale, log SignalVar,
// log NoiseVar): Lo[k] <= p[k] <= Hi[k]. Lo[k] == Hi[k] fixes p[k].
type hyperBox struct{ Lo, Hi [3]float64 }

// ucbHyperBox returns the bounds of the constants above with the noise variance floored at
// noiseFloor (standardised units).
func ucbHyperBox(noiseFloor float64) hyperBox {
	noiseLo := math.Max(ucbMinNoiseVar, noiseFloor)
	noiseHi := math.Max(ucbMaxNoiseVar, noiseLo)
	return hyperBox{
		Lo: [3]float64{math.Log(ucbMinLengthscale), math.Log(ucbMinSignalVar), math.Log(noiseLo)},
		Hi: [3]float64{math.Log(ucbMaxLengthscale), math.Log(ucbMaxSignalVar), math.Log(noiseHi)},
	}
}

// logitEps clamps the inverse of the sigmoid map to [1e-9, 1-1e-9], so that points on the
// boundary map to finite z.
const logitEps = 1e-9

// fromZ maps unconstrained z to the box: p = Lo + (Hi-Lo)*sigmoid(z), and writes dp/dz
// into dpdz. gonum has no bounded L-BFGS; this smooth reparameterisation keeps every
// iterate inside the box without clamping inside the optimiser.
func (b hyperBox) fromZ(z []float64, dpdz *[3]float64) [3]float64 {
	var p [3]float64
	for k := range p {
		var dk float64
		p[k], dk = boxmap.Map(b.Lo[k], b.Hi[k]-b.Lo[k], z[k])
		if dpdz != nil {
			dpdz[k] = dk
		}
	}
	return p
}

// toZ is the inverse of fromZ for p inside the box (clamped to it otherwise).
func (b hyperBox) toZ(p [3]float64) []float64 {
	z := make([]float64, 3)
	for k := range z {
		z[k] = boxmap.Unmap(b.Lo[k], b.Hi[k]-b.Lo[k], p[k], logitEps)
	}
	return z
}

// marginal evaluates the log marginal likelihood of a zero-mean GP with kernel
// algo.RBF{Lengthscale, SignalVar} and Gaussian noise NoiseVar, for fixed inputs X and
// outputs y. Its buffers are reused between calls.
type marginal struct {
	X     *mat.Dense
	y     *mat.VecDense
	K     *mat.SymDense // k(X, X) + NoiseVar I
	Kinv  *mat.SymDense // K^{-1}, formed for the gradient only
	alpha *mat.VecDense // K^{-1} y
	chol  mat.Cholesky
}

func newMarginal(X *mat.Dense, y []float64) *marginal {
	m, _ := X.Dims()
	return &marginal{
		X: X, y: mat.NewVecDense(m, y),
		K: mat.NewSymDense(m, nil), Kinv: mat.NewSymDense(m, nil), alpha: mat.NewVecDense(m, nil),
	}
}

// errNotPD is returned when k(X, X) + NoiseVar I is not numerically positive definite.
var errNotPD = errors.New("GP covariance is not positive definite")

// logLik returns log p(y | X, h) = -y^T K^{-1} y/2 - log det K/2 - m log(2 pi)/2 with
// K = k(X, X) + h.NoiseVar I, and, when grad is non-nil, writes its gradient with respect
// to (log Lengthscale, log SignalVar, log NoiseVar) into grad:
//
//	d/dp log p = tr((alpha alpha^T - K^{-1}) dK/dp)/2      (Rasmussen and Williams, eq. 5.9)
//
// with dK/dlog l = k(X,X) .* |x_i-x_j|^2/l^2, dK/dlog s2 = k(X,X), dK/dlog n2 = n2 I. The
// gradient needs K^{-1} itself (not a solve), which is formed once from the Cholesky factor.
func (w *marginal) logLik(h gpHyper, grad []float64) (float64, error) {
	m := w.y.Len()
	k := algo.RBF{Lengthscale: h.Lengthscale, Variance: h.SignalVar}
	k.Gram(w.K, w.X, h.NoiseVar)
	if !w.chol.Factorize(w.K) {
		return math.NaN(), errNotPD
	}
	w.alpha.CopyVec(w.y)
	w.solveInPlace(w.alpha.RawVector())
	ll := -0.5*mat.Dot(w.y, w.alpha) - 0.5*w.chol.LogDet() - 0.5*float64(m)*math.Log(2*math.Pi)
	if grad == nil {
		return ll, nil
	}
	if err := w.chol.InverseTo(w.Kinv); err != nil {
		return math.NaN(), fmt.Errorf("GP inverse for the likelihood gradient: %w", err)
	}
	kr, ir := w.K.RawSymmetric(), w.Kinv.RawSymmetric()
	a := w.alpha.RawVector().Data
	var gl, gs, gn float64
	for i := 0; i < m; i++ {
		// Diagonal: k(x_i, x_i) = SignalVar, distance 0.
		c := a[i]*a[i] - ir.Data[i*ir.Stride+i]
		gs += c * h.SignalVar
		gn += c * h.NoiseVar
		for j := i + 1; j < m; j++ {
			kij := kr.Data[i*kr.Stride+j]
			c := 2 * (a[i]*a[j] - ir.Data[i*ir.Stride+j]) // both triangles
			gs += c * kij
			if kij > 0 {
				// |x_i-x_j|^2/l^2 recovered from k_ij = s2 exp(-r^2/(2 l^2)).
				gl += c * kij * (-2 * math.Log(kij/h.SignalVar))
			}
		}
	}
	grad[0], grad[1], grad[2] = 0.5*gl, 0.5*gs, 0.5*gn
	return ll, nil
}

// fitHyper maximises the log marginal likelihood over the box b by L-BFGS on the
// unconstrained z of hyperBox.fromZ, from each start (given as log-hyperparameters), and
// returns the best hyperparameters found. A start whose run ends in a line-search failure
// keeps the best point that run reached; the fit fails only when every start fails to give
// a finite likelihood.
func fitHyper(w *marginal, b hyperBox, starts [][3]float64, maxEvals int) (gpHyper, error) {
	bestLL := math.Inf(-1)
	var best [3]float64
	var lastErr error
	for _, start := range starts {
		var evalErr error
		var cacheZ []float64
		var cacheF float64
		cacheG := make([]float64, 3)
		eval := func(z []float64) {
			if cacheZ != nil && equal(cacheZ, z) {
				return
			}
			cacheZ = append(cacheZ[:0], z...)
			var dpdz [3]float64
			p := b.fromZ(z, &dpdz)
			var g [3]float64
			ll, err := w.logLik(hyperFromLog(p), g[:])
			if err != nil {
				evalErr = err
				cacheF = math.Inf(1)
				for k := range cacheG {
					cacheG[k] = 0
				}
				return
			}
			cacheF = -ll
			for k := range cacheG {
				cacheG[k] = -g[k] * dpdz[k]
			}
		}
		f := func(z, grad []float64) float64 {
			eval(z)
			if grad != nil {
				copy(grad, cacheG)
			}
			return cacheF
		}
		status := func() (optimize.Status, error) {
			if evalErr != nil {
				return optimize.Failure, evalErr
			}
			return optimize.NotTerminated, nil
		}
		// Converged when three major iterations in a row improve the log likelihood by less
		// than 1e-4 nats: hyperparameters that close are equivalent for the surrogate, and
		// the rule stops L-BFGS from chasing a bound through the saturating sigmoid.
		settings := &optimize.Settings{FuncEvaluations: maxEvals, GradientThreshold: 1e-4, Converger: &optimize.FunctionConverge{Absolute: 1e-4, Iterations: 3}}
		res, err := boxmap.LBFGS(f, status, b.toZ(start), settings)
		if res == nil || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
			if err == nil {
				err = errors.New("no finite likelihood")
			}
			lastErr = err
			continue
		}
		if ll := -res.F; ll > bestLL {
			bestLL = ll
			best = b.fromZ(res.X, nil)
		}
	}
	if math.IsInf(bestLL, -1) {
		return gpHyper{}, fmt.Errorf("fitting GP hyperparameters: %w", lastErr)
	}
	return hyperFromLog(best), nil
}

// upper is the Cholesky factor U of K = U^T U from the last logLik, in place.
func (w *marginal) upper() blas64.Triangular {
	return w.chol.RawU().(*mat.TriDense).RawTriangular()
}

// solveInPlace overwrites x with K^{-1} x by two triangular solves on the factor of the last
// logLik (U^T y = x, then U z = y). mat.Cholesky's solves go through LAPACK's row-major
// interface, which copies K at every call; this does not.
func (w *marginal) solveInPlace(x blas64.Vector) {
	u := w.upper()
	blas64.Trsv(blas.Trans, u, x)
	blas64.Trsv(blas.NoTrans, u, x)
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
