package bo

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"dpgibo/internal/boxmap"
)

// The dimension-scaled prior of ucb-scaled's surrogate (after Hvarfner, Hellsten and Nardi,
// "Vanilla Bayesian Optimization Performs Great in High Dimensions", ICML 2024), on inputs in
// the unit cube and standardised outputs, with no output scale (signal variance 1):
//
//   - each length-scale l_j is log-normal, log l_j ~ N(sqrt(2) + log(d)/2, 3), and at least
//     ardMinLengthscale;
//   - the noise variance is log-normal, log s^2 ~ N(-4, 1), and at least ardMinNoiseVar
//     (and at least the release variance of a private run).
//
// The hyperparameters maximise the log posterior (marginal likelihood plus log prior) by
// L-BFGS, as UCB's maximise the likelihood.
const (
	ardLengthscaleLogVar = 3
	ardMinLengthscale    = 0.025
	// ardMaxLengthscale and ardMaxNoiseVar close the boxes the fit searches (the prior puts
	// almost no mass beyond them: l = 1e3 lies 5 prior standard deviations above the mean
	// at d = 1000; s^2 = 10 lies 6.3 above).
	ardMaxLengthscale = 1e3
	ardNoiseLogMean   = -4
	ardNoiseLogVar    = 1
	ardMinNoiseVar    = 1e-4
	ardMaxNoiseVar    = 10
)

// ardLengthscaleLogMean is the prior mean of log l_j in dimension d: sqrt(2) + log(d)/2.
func ardLengthscaleLogMean(d int) float64 { return math.Sqrt2 + math.Log(float64(d))/2 }

// ardLengthscaleMode is the mode of the prior of l_j, exp(mean - variance) of the
// log-normal: exp(sqrt(2) - 3) sqrt(d).
func ardLengthscaleMode(d int) float64 {
	return math.Exp(ardLengthscaleLogMean(d) - ardLengthscaleLogVar)
}

// ardPosterior evaluates the log posterior of an ARD RBF GP (signal variance 1) with
// Gaussian noise for fixed inputs X and outputs y. Its buffers are reused between calls.
type ardPosterior struct {
	X     *mat.Dense
	y     *mat.VecDense
	K     *mat.SymDense
	Kinv  *mat.SymDense
	alpha *mat.VecDense
	chol  mat.Cholesky
}

func newARDPosterior(X *mat.Dense, y []float64) *ardPosterior {
	m, _ := X.Dims()
	return &ardPosterior{X: X, y: mat.NewVecDense(m, y), K: mat.NewSymDense(m, nil), Kinv: mat.NewSymDense(m, nil), alpha: mat.NewVecDense(m, nil)}
}

// logPost returns the log posterior at p = (log l_1, ..., log l_d, log s^2), up to a
// constant, and, when grad is non-nil, writes its gradient with respect to p:
//
//	d/dp log p(y | X) = tr((alpha alpha^T - K^{-1}) dK/dp)/2
//
// with dK/dlog l_j = K .* (x_ij - x_kj)^2/l_j^2 off the diagonal and dK/dlog s^2 = s^2 I,
// plus the log prior's -(p_k - mean_k)/var_k.
func (w *ardPosterior) logPost(p []float64, grad []float64) (float64, error) {
	m, d := w.X.Dims()
	inv := make([]float64, d)
	for j := range inv {
		l := math.Exp(p[j])
		inv[j] = 1 / (l * l)
	}
	noise := math.Exp(p[d])
	kr := w.K.RawSymmetric()
	for i := 0; i < m; i++ {
		xi := w.X.RawRowView(i)
		kr.Data[i*kr.Stride+i] = 1 + noise
		for k := i + 1; k < m; k++ {
			xk := w.X.RawRowView(k)
			r2 := 0.0
			for j, v := range xi {
				dv := v - xk[j]
				r2 += dv * dv * inv[j]
			}
			kr.Data[i*kr.Stride+k] = math.Exp(-0.5 * r2)
		}
	}
	if !w.chol.Factorize(w.K) {
		return math.NaN(), errNotPD
	}
	if err := w.chol.SolveVecTo(w.alpha, w.y); err != nil {
		return math.NaN(), fmt.Errorf("GP solve: %w", err)
	}
	lp := -0.5*mat.Dot(w.y, w.alpha) - 0.5*w.chol.LogDet()
	lMean := ardLengthscaleLogMean(d)
	for j := 0; j < d; j++ {
		lp -= (p[j] - lMean) * (p[j] - lMean) / (2 * ardLengthscaleLogVar)
	}
	lp -= (p[d] - ardNoiseLogMean) * (p[d] - ardNoiseLogMean) / (2 * ardNoiseLogVar)
	if grad == nil {
		return lp, nil
	}
	if err := w.chol.InverseTo(w.Kinv); err != nil {
		return math.NaN(), fmt.Errorf("GP inverse for the posterior gradient: %w", err)
	}
	ir := w.Kinv.RawSymmetric()
	a := w.alpha.RawVector().Data
	clear(grad)
	for i := 0; i < m; i++ {
		xi := w.X.RawRowView(i)
		grad[d] += (a[i]*a[i] - ir.Data[i*ir.Stride+i]) * noise
		for k := i + 1; k < m; k++ {
			c := 2 * (a[i]*a[k] - ir.Data[i*ir.Stride+k]) * kr.Data[i*kr.Stride+k]
			xk := w.X.RawRowView(k)
			for j, v := range xi {
				dv := v - xk[j]
				grad[j] += c * dv * dv * inv[j]
			}
		}
	}
	for k := range grad {
		grad[k] *= 0.5
	}
	for j := 0; j < d; j++ {
		grad[j] -= (p[j] - lMean) / ardLengthscaleLogVar
	}
	grad[d] -= (p[d] - ardNoiseLogMean) / ardNoiseLogVar
	return lp, nil
}

// ardFit are the MAP hyperparameters: the length-scales and the noise variance.
type ardFit struct {
	Lengthscales []float64
	NoiseVar     float64
}

// logParams returns (log l_1, ..., log l_d, log s^2).
func (f ardFit) logParams() []float64 {
	p := make([]float64, len(f.Lengthscales)+1)
	for j, l := range f.Lengthscales {
		p[j] = math.Log(l)
	}
	p[len(p)-1] = math.Log(f.NoiseVar)
	return p
}

// ardPriorMode is the fit at the prior's modes (the log-normals' modes, the noise's raised
// to noiseFloor), the first start of every fit.
func ardPriorMode(d int, noiseFloor float64) ardFit {
	f := ardFit{Lengthscales: make([]float64, d), NoiseVar: math.Max(math.Max(ardMinNoiseVar, noiseFloor), math.Exp(ardNoiseLogMean-ardNoiseLogVar))}
	for j := range f.Lengthscales {
		f.Lengthscales[j] = ardLengthscaleMode(d)
	}
	return f
}

// fitARD maximises the log posterior over the boxes (length-scales ardMinLengthscale to
// ardMaxLengthscale, noise variance max(ardMinNoiseVar, noiseFloor) to ardMaxNoiseVar) by
// L-BFGS on the sigmoid reparameterisation of each log-hyperparameter, from each start, and
// returns the best fit found.
func fitARD(w *ardPosterior, noiseFloor float64, starts []ardFit, maxEvals int) (ardFit, error) {
	_, d := w.X.Dims()
	lo, width := make([]float64, d+1), make([]float64, d+1)
	for j := 0; j < d; j++ {
		lo[j], width[j] = math.Log(ardMinLengthscale), math.Log(ardMaxLengthscale)-math.Log(ardMinLengthscale)
	}
	noiseLo := math.Log(math.Max(ardMinNoiseVar, noiseFloor))
	lo[d], width[d] = noiseLo, math.Max(math.Log(ardMaxNoiseVar)-noiseLo, 0)
	p, dpdz, g := make([]float64, d+1), make([]float64, d+1), make([]float64, d+1)
	fromZ := func(z []float64) {
		for k := range p {
			p[k], dpdz[k] = boxmap.Map(lo[k], width[k], z[k])
		}
	}
	bestLP := math.Inf(-1)
	var best []float64
	var lastErr error
	for _, start := range starts {
		var evalErr error
		f := func(z, grad []float64) float64 {
			fromZ(z)
			var gp []float64
			if grad != nil {
				gp = g
			}
			lp, err := w.logPost(p, gp)
			if err != nil {
				evalErr = err
				clear(grad)
				return math.Inf(1)
			}
			for k := range grad {
				grad[k] = -g[k] * dpdz[k]
			}
			return -lp
		}
		status := func() (optimize.Status, error) {
			if evalErr != nil {
				return optimize.Failure, evalErr
			}
			return optimize.NotTerminated, nil
		}
		z0 := make([]float64, d+1)
		for k, v := range start.logParams() {
			z0[k] = boxmap.Unmap(lo[k], width[k], v, logitEps)
		}
		settings := &optimize.Settings{FuncEvaluations: maxEvals, GradientThreshold: 1e-4, Converger: &optimize.FunctionConverge{Absolute: 1e-4, Iterations: 3}}
		res, err := boxmap.LBFGS(f, status, z0, settings)
		if res == nil || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
			if err == nil {
				err = errors.New("no finite posterior")
			}
			lastErr = err
			continue
		}
		if lp := -res.F; lp > bestLP {
			bestLP = lp
			fromZ(res.X)
			best = append(best[:0], p...)
		}
	}
	if best == nil {
		return ardFit{}, fmt.Errorf("fitting the ARD GP: %w", lastErr)
	}
	out := ardFit{Lengthscales: make([]float64, d), NoiseVar: math.Exp(best[d])}
	for j := range out.Lengthscales {
		out.Lengthscales[j] = math.Exp(best[j])
	}
	return out, nil
}
