package score

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// CMAES is the covariance matrix adaptation evolution strategy, (mu/mu_w, lambda)-CMA-ES
// with active (negative) recombination weights, with every setting at the default of
// Hansen's tutorial ("The CMA Evolution Strategy: A Tutorial", arXiv 1604.00772, table 1):
// population lambda = 4 + floor(3 ln d), parents mu = floor(lambda/2), weights
// ln((lambda+1)/2) - ln i with the negative ones scaled as the tutorial's equation (53),
// learning rates c_sigma, d_sigma, c_c, c_1, c_mu of its table 1 (alpha_cov = 2, c_m = 1).
//
// On a box: the search starts at the box's centre with step size sigma0 = min_j (hi_j -
// lo_j) / 6; a sample outside the box is redrawn, up to 100 times, and then clamped to the
// box, and the update uses the point actually evaluated. When a generation's stopping test
// fires (cmaStop: best and worst losses flat within 1e-12 over the last 10 + ceil(30 d /
// lambda) generations, every coordinate's step below 1e-12 sigma0, sigma times the largest
// axis above 1e4 sigma0, or the covariance's condition number above 1e14) the search
// restarts as IPOP-CMA-ES does: population doubled, mean drawn uniformly from the box.
//
// Each sample is one evaluation; a generation is updated once all its samples are
// evaluated, so a budget that ends mid-generation leaves the last generation unused. The
// released theta is the best point by mean loss seen so far. It is the project's own
// implementation (goptuna's is kept as "goptuna-cmaes", package goptuna's CMAES, which does the same
// with a few departures from the tutorial, and costs O(d^3) per sample where this costs
// O(d^2): one eigendecomposition per generation).
//
// Randomness comes from the run's rng only. It is NOT differentially private; its ledger
// is accounting.NonPrivateLedger(). It reports after every evaluation (Iter = Evals, Batch = 1).
type CMAES struct {
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var cmaesInfo = baselines.Info{Name: "cmaes", Legend: "CMA-ES", Colour: color.RGBA{R: 0xbc, G: 0xbd, B: 0x22, A: 0xff}}

// Info implements baselines.Method.
func (CMAES) Info() baselines.Info { return cmaesInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (CMAES) Sweeps(param string) bool { return param == "noise" }

// cmaMaxResample is how many times a sample outside the box is redrawn before it is clamped.
const cmaMaxResample = 100

// cmaParams are the strategy parameters of table 1 of the tutorial for d and lambda.
type cmaParams struct {
	lambda, mu                  int
	weights                     []float64 // lambda recombination weights, the first mu positive
	muEff                       float64
	cSigma, dSigma, cc, c1, cmu float64
	expectedNorm                float64 // E||N(0, I)||
	historyLength               int     // generations of the flat-loss stopping test
	weightSum                   float64 // sum of all weights
}

// newCMAParams returns the tutorial's default parameters for dimension d and population lambda.
func newCMAParams(d, lambda int) cmaParams {
	p := cmaParams{lambda: lambda, mu: lambda / 2}
	raw := make([]float64, lambda)
	var posSum, posSq, negSum, negSq float64
	for i := range raw {
		raw[i] = math.Log(float64(lambda+1)/2) - math.Log(float64(i+1))
		if i < p.mu {
			posSum += raw[i]
			posSq += raw[i] * raw[i]
		} else {
			negSum += raw[i]
			negSq += raw[i] * raw[i]
		}
	}
	p.muEff = posSum * posSum / posSq
	muEffNeg := 0.0
	if negSq > 0 {
		muEffNeg = negSum * negSum / negSq
	}
	df := float64(d)
	const alphaCov = 2.0
	p.c1 = alphaCov / ((df+1.3)*(df+1.3) + p.muEff)
	p.cmu = math.Min(1-p.c1, alphaCov*(p.muEff-2+1/p.muEff)/((df+2)*(df+2)+alphaCov*p.muEff/2))
	p.cSigma = (p.muEff + 2) / (df + p.muEff + 5)
	p.dSigma = 1 + 2*math.Max(0, math.Sqrt((p.muEff-1)/(df+1))-1) + p.cSigma
	p.cc = (4 + p.muEff/df) / (df + 4 + 2*p.muEff/df)
	alphaNeg := math.Min(1+p.c1/p.cmu, 1+2*muEffNeg/(p.muEff+2))
	alphaNeg = math.Min(alphaNeg, (1-p.c1-p.cmu)/(df*p.cmu))
	p.weights = make([]float64, lambda)
	for i, w := range raw {
		if w >= 0 {
			p.weights[i] = w / posSum
		} else {
			p.weights[i] = alphaNeg * w / -negSum
		}
		p.weightSum += p.weights[i]
	}
	p.expectedNorm = math.Sqrt(df) * (1 - 1/(4*df) + 1/(21*df*df))
	p.historyLength = 10 + int(math.Ceil(30*df/float64(lambda)))
	return p
}

// cmaState is one CMA-ES search (one restart).
type cmaState struct {
	cmaParams
	d          int
	mean       []float64
	sigma      float64
	sigma0     float64
	cov        *mat.SymDense // C
	axes       *mat.Dense    // B: eigenvectors of C in columns
	axisLen    []float64     // D: square roots of C's eigenvalues
	pSigma, pc []float64
	gen        int
	history    []float64 // best and worst loss of recent generations
	eig        mat.EigenSym
	// buffers
	z, y, tmp []float64
}

func newCMAState(mean []float64, sigma0 float64, lambda int) *cmaState {
	d := len(mean)
	s := &cmaState{cmaParams: newCMAParams(d, lambda), d: d, mean: slices.Clone(mean), sigma: sigma0, sigma0: sigma0,
		cov: mat.NewSymDense(d, nil), axes: mat.NewDense(d, d, nil), axisLen: make([]float64, d),
		pSigma: make([]float64, d), pc: make([]float64, d), z: make([]float64, d), y: make([]float64, d), tmp: make([]float64, d)}
	for j := range d {
		s.cov.SetSym(j, j, 1)
		s.axes.Set(j, j, 1)
		s.axisLen[j] = 1
	}
	return s
}

// sample draws x = mean + sigma B D z, z ~ N(0, I), redrawn while outside [lo, hi] (up to
// cmaMaxResample times), then clamped to the box.
func (s *cmaState) sample(rng *rand.Rand, lo, hi []float64) []float64 {
	x := make([]float64, s.d)
	zv, yv := mat.NewVecDense(s.d, s.z), mat.NewVecDense(s.d, s.y)
	for range cmaMaxResample + 1 {
		for j := range s.z {
			s.z[j] = rng.NormFloat64() * s.axisLen[j]
		}
		yv.MulVec(s.axes, zv)
		inside := true
		for j := range x {
			x[j] = s.mean[j] + s.sigma*s.y[j]
			inside = inside && lo[j] <= x[j] && x[j] <= hi[j]
		}
		if inside {
			return x
		}
	}
	search.ClampBox(x, lo, hi)
	return x
}

// cmaSolution is one evaluated sample.
type cmaSolution struct {
	x    []float64
	loss float64
}

// tell updates mean, evolution paths, step size and covariance from a full generation
// (tutorial, equations (39)-(47) with the active weights of (46)), then re-factors C.
func (s *cmaState) tell(gen []cmaSolution) error {
	slices.SortStableFunc(gen, func(a, b cmaSolution) int { return cmp.Compare(a.loss, b.loss) })
	d := s.d
	ys := make([][]float64, len(gen)) // (x - mean) / sigma
	for i, sol := range gen {
		ys[i] = make([]float64, d)
		for j := range d {
			ys[i][j] = (sol.x[j] - s.mean[j]) / s.sigma
		}
	}
	// Recombination: the weighted mean step of the mu best.
	yw := make([]float64, d)
	for i := range s.mu {
		floats.AddScaled(yw, s.weights[i], ys[i])
	}
	floats.AddScaled(s.mean, s.sigma, yw) // c_m = 1
	// Step-size path, with C^(-1/2) yw.
	invSqrtYw := s.invSqrtC(yw)
	a := math.Sqrt(s.cSigma * (2 - s.cSigma) * s.muEff)
	for j := range d {
		s.pSigma[j] = (1-s.cSigma)*s.pSigma[j] + a*invSqrtYw[j]
	}
	normPSigma := floats.Norm(s.pSigma, 2)
	// Covariance path, with the stall indicator h_sigma.
	hSigma := 0.0
	if normPSigma/math.Sqrt(1-math.Pow(1-s.cSigma, 2*float64(s.gen+1))) < (1.4+2/float64(d+1))*s.expectedNorm {
		hSigma = 1
	}
	b := hSigma * math.Sqrt(s.cc*(2-s.cc)*s.muEff)
	for j := range d {
		s.pc[j] = (1-s.cc)*s.pc[j] + b*yw[j]
	}
	// Covariance: decay, rank-one and rank-mu (active) updates.
	deltaH := (1 - hSigma) * s.cc * (2 - s.cc)
	s.cov.ScaleSym(1+s.c1*deltaH-s.c1-s.cmu*s.weightSum, s.cov)
	s.cov.SymRankOne(s.cov, s.c1, mat.NewVecDense(d, s.pc))
	for i, y := range ys {
		w := s.weights[i]
		if w < 0 {
			n := floats.Norm(s.invSqrtC(y), 2)
			w *= float64(d) / (n * n)
		}
		if w != 0 {
			s.cov.SymRankOne(s.cov, s.cmu*w, mat.NewVecDense(d, y))
		}
	}
	// Step size.
	s.sigma *= math.Exp(s.cSigma / s.dSigma * (normPSigma/s.expectedNorm - 1))
	s.gen++
	s.history = append(s.history, gen[0].loss, gen[len(gen)-1].loss)
	if len(s.history) > 2*s.historyLength {
		s.history = s.history[2:]
	}
	return s.factor()
}

// invSqrtC returns C^(-1/2) v = B D^(-1) B^T v (a new slice).
func (s *cmaState) invSqrtC(v []float64) []float64 {
	t := mat.NewVecDense(s.d, s.tmp)
	t.MulVec(s.axes.T(), mat.NewVecDense(s.d, v))
	for j := range s.tmp {
		s.tmp[j] /= s.axisLen[j]
	}
	out := mat.NewVecDense(s.d, nil)
	out.MulVec(s.axes, t)
	return out.RawVector().Data
}

// factor re-computes B and D from C.
func (s *cmaState) factor() error {
	if !s.eig.Factorize(s.cov, true) {
		return fmt.Errorf("eigendecomposition of the covariance failed at generation %d", s.gen)
	}
	s.eig.VectorsTo(s.axes)
	s.eig.Values(s.axisLen)
	for j, v := range s.axisLen {
		s.axisLen[j] = math.Sqrt(math.Max(v, 0))
	}
	return nil
}

// stop is the restart test: flat losses over the history window, a step size collapsed
// below 1e-12 sigma0 in every coordinate, a step size grown above 1e4 sigma0 along the
// longest axis, or a condition number of C above 1e14.
func (s *cmaState) stop() bool {
	if s.gen > s.historyLength && floats.Max(s.history)-floats.Min(s.history) < 1e-12 {
		return true
	}
	tol := 1e-12 * s.sigma0
	small := true
	for j := range s.d {
		if s.sigma*math.Sqrt(s.cov.At(j, j)) > tol || s.sigma*math.Abs(s.pc[j]) > tol {
			small = false
			break
		}
	}
	maxLen, minLen := floats.Max(s.axisLen), floats.Min(s.axisLen)
	return small || s.sigma*maxLen > 1e4*s.sigma0 || minLen <= 0 || (maxLen/minLen)*(maxLen/minLen) > 1e14
}

// Run implements baselines.Method.
func (m CMAES) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "cmaes"
	p, err := search.NewSearch("score", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	mean0, sigma0 := p.CMAStart()
	s := newCMAState(mean0, sigma0, 4+int(math.Floor(3*math.Log(float64(p.Dim())))))
	for p.Remaining() > 0 {
		gen := make([]cmaSolution, 0, s.lambda)
		for len(gen) < s.lambda && p.Remaining() > 0 {
			theta := s.sample(rng, p.Lo, p.Hi)
			// observe rejects NaN/Inf losses before they reach the update.
			score, err := p.Observe(ctx, theta, baselines.Mean, m.OnScore, cb)
			if err != nil {
				return baselines.Result{}, err
			}
			gen = append(gen, cmaSolution{theta, score})
		}
		if len(gen) < s.lambda {
			break // budget spent mid-generation
		}
		if err := s.tell(gen); err != nil {
			return baselines.Result{}, fmt.Errorf("score: %s: %w", name, err)
		}
		if s.stop() {
			s = newCMAState(p.Uniform(rng), sigma0, 2*s.lambda)
		}
	}
	return baselines.Result{Theta: p.Released(), Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}
