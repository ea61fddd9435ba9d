package bo

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/internal/boxmap"
)

// UCBConfig configures the GP-UCB loop of "ucb" and "dp-ucb". The zero value means the
// defaults given in the comments.
type UCBConfig struct {
	// Delta is the confidence parameter delta of the beta_t schedule (default 0.1).
	Delta float64
	// BetaScale multiplies beta_t (default 1: the schedule as stated in UCB's doc).
	BetaScale float64
	// RefitGrowth, when positive, schedules the refits of the GP hyperparameters by maximum
	// marginal likelihood geometrically: they are refitted when the observations number at
	// least 1+RefitGrowth times those of the last fit, and kept in between (only the data
	// change). Zero (the default) refits at every model update. The fit is cubic in the
	// observations, so a geometric schedule keeps its total cost within a constant of one
	// fit on all of them; 0.2 cut the own time of a GP regression run at d = 10 about
	// fourfold, but its study did not show it non-inferior for dp-ucb (docs/peers.md),
	// so it is not the default. It must not be negative.
	RefitGrowth float64
	// FitEvals caps likelihood evaluations per L-BFGS run of the hyperparameter fit
	// (default 200).
	FitEvals int
	// RawSamples is the number of uniform points at which the acquisition is evaluated to
	// choose L-BFGS starts (default 256).
	RawSamples int
	// Starts is the number of L-BFGS runs on the acquisition: the best observed point and
	// the Starts-1 best raw samples (default 5).
	Starts int
	// StartEvals caps acquisition evaluations per L-BFGS run (default 100).
	StartEvals int
	// ard fits the surrogate of ucb-scaled and dp-ucb-scaled: one length-scale per
	// dimension under the dimension-scaled prior, by MAP (ard.go).
	ard bool
}

// resolved returns c with defaults applied, or an error for invalid values.
func (c UCBConfig) resolved() (UCBConfig, error) {
	c.Delta = cmp.Or(c.Delta, 0.1)
	c.BetaScale = cmp.Or(c.BetaScale, 1)
	c.FitEvals = cmp.Or(c.FitEvals, 200)
	c.RawSamples = cmp.Or(c.RawSamples, 256)
	c.Starts = cmp.Or(c.Starts, 5)
	c.StartEvals = cmp.Or(c.StartEvals, 100)
	switch {
	case !(c.Delta > 0 && c.Delta < 1):
		return c, fmt.Errorf("UCBConfig.Delta must lie in (0, 1), got %v", c.Delta)
	case !(c.BetaScale > 0) || math.IsInf(c.BetaScale, 0):
		return c, fmt.Errorf("UCBConfig.BetaScale must be positive and finite, got %v", c.BetaScale)
	case !(c.RefitGrowth >= 0) || math.IsInf(c.RefitGrowth, 0):
		return c, fmt.Errorf("UCBConfig.RefitGrowth must be non-negative and finite, got %v", c.RefitGrowth)
	case c.FitEvals < 0 || c.RawSamples < 0 || c.Starts < 0 || c.StartEvals < 0:
		return c, fmt.Errorf("UCBConfig counts must not be negative (0 means the default), got %+v", c)
	}
	return c, nil
}

// beta is the exploration weight beta_t of GP-UCB when choosing the t-th observation in
// dimension d:
//
//	beta_t = 2 log(d t^2 pi^2 / (6 delta))
//
// the schedule of Srinivas et al. (2010), Theorem 1, with the size of the finite domain
// replaced by d (a common practical choice for continuous domains), times
// UCBConfig.BetaScale. The acquisition is the lower confidence bound
// mu(x) - sqrt(beta_t) sigma(x) of the standardised loss.
func beta(d, t int, delta float64) float64 {
	tt := float64(t)
	return 2 * math.Log(float64(d)*tt*tt*math.Pi*math.Pi/(6*delta))
}

// UCB is GP-UCB (Srinivas et al. 2010), the paper's global Bayesian-optimisation baseline,
// minimising the mean validation loss through its lower confidence bound:
//
//   - inputs are scaled to the unit cube, observed scores standardised (mean 0, standard
//     deviation 1; a standard deviation of 0 is treated as 1);
//   - the surrogate is a zero-mean GP with algo.RBF kernel and Gaussian noise; its
//     length-scale, signal variance and noise variance maximise the log marginal
//     likelihood within the bounds (length-scale 0.01 to 10 in unit-cube units, signal
//     variance 0.05 to 20 and noise variance 1e-6 to 1 in standardised units), by L-BFGS
//     on the reparameterisation x = lo + (hi-lo)*sigmoid(z) of each log-hyperparameter,
//     started from the previous fit (and, at the first and every tenth model update, also
//     from the geometric mid-point of the bounds); the model is updated after every
//     evaluation and the hyperparameters refitted at every update (or as
//     UCBConfig.RefitGrowth schedules);
//   - the first min(d+1, budget) points are uniform in the box; every later point
//     minimises mu(x) - sqrt(beta_t) sigma(x) (beta_t = 2 log(d t^2 pi^2 / (6 delta))
//     times UCBConfig.BetaScale, t = index of the observation being chosen) by L-BFGS in
//     the unit cube through x = sigmoid(z), started from the best observed point and the
//     best UCBConfig.RawSamples uniform points;
//   - it releases the best observed point (smallest mean loss so far).
//
// It is NOT differentially private, as in the paper; its ledger is accounting.NonPrivateLedger().
// dp-ucb is its private counterpart. It reports after every evaluation (Iter = Evals,
// Batch = 1).
type UCB struct {
	Config UCBConfig
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var ucbInfo = baselines.Info{Name: "ucb", Legend: "UCB-BO", Colour: color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, Revision: 3}

// Info implements baselines.Method. Revision 3: solves on the Cholesky factor (revision 2,
// which also refitted the hyperparameters on a geometric schedule, was not admitted by its
// study: docs/peers.md).
func (UCB) Info() baselines.Info { return ucbInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (UCB) Sweeps(param string) bool { return param == "noise" }

// Check returns an error naming an invalid field of Config.
func (m UCB) Check() error {
	_, err := m.Config.resolved()
	return err
}

// DesignSeconds implements baselines.CostHinter: the GP refitted on every observation costs
// about 4e-7 budget^3 seconds (least squares on the committed GP regression timings of
// revision 3).
func (UCB) DesignSeconds(_, budget int) float64 { return ucbDesignSeconds(budget) }

// DesignSeconds implements baselines.CostHinter: UCB's.
func (DPUCB) DesignSeconds(_, budget int) float64 { return ucbDesignSeconds(budget) }

func ucbDesignSeconds(budget int) float64 {
	b := float64(budget)
	return 4e-7 * b * b * b
}

// Run implements baselines.Method.
func (m UCB) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	p, err := search.NewSearch("bo", "ucb", obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	theta, err := runGPUCB(ctx, p, rng, cb, m.Config, m.OnScore, baselines.Mean, 0, false)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}

// runGPUCB is the GP-UCB loop shared by ucb and dp-ucb. Each observation's score is
// GaussianRelease(score(losses), noiseStd, rng). With releaseByPosterior the released
// theta is the observed point of smallest GP posterior mean (dp-ucb); otherwise the
// observed point of smallest score (ucb).
func runGPUCB(ctx context.Context, p *search.Problem, rng *rand.Rand, cb algo.Callback, config UCBConfig, onScore func([]float64, float64),
	score func([]float64) float64, noiseStd float64, releaseByPosterior bool) ([]float64, error) {
	cfg, err := config.resolved()
	if err != nil {
		return nil, fmt.Errorf("bo: %s: %w", p.Method, err)
	}
	s := newUCBState(p.Dim(), cfg, noiseStd*noiseStd)
	nInit := min(p.Dim()+1, p.Budget)

	var released []float64
	observe := func(theta []float64) error {
		losses, err := p.Evaluate(ctx, theta)
		if err != nil {
			return err
		}
		y := baselines.GaussianRelease(score(losses), noiseStd, rng)
		if onScore != nil {
			onScore(p.Expand(theta), y)
		}
		s.add(p.ToUnit(theta), theta, y)
		// A model is needed now to release by posterior mean, or to choose the next point.
		needModel := s.count() >= 2 && (releaseByPosterior || (s.count() >= nInit && p.Remaining() > 0))
		if needModel {
			if err := s.update(); err != nil {
				return fmt.Errorf("bo: %s: %w", p.Method, err)
			}
		}
		if releaseByPosterior && s.count() >= 2 {
			released = s.thetas[s.argminPosteriorMean()]
		} else {
			released = s.thetas[s.argminScore()]
		}
		return p.Report(cb, released)
	}

	for range nInit {
		if err := observe(p.Uniform(rng)); err != nil {
			return nil, err
		}
	}
	for p.Remaining() > 0 {
		u, err := s.nextPoint(rng)
		if err != nil {
			return nil, fmt.Errorf("bo: %s: %w", p.Method, err)
		}
		if err := observe(p.FromUnit(u)); err != nil {
			return nil, err
		}
	}
	return p.Expand(released), nil
}

// ucbState holds GP-UCB's observations and its fitted surrogate.
type ucbState struct {
	d          int
	cfg        UCBConfig
	noiseFloor float64 // release variance in original units (0 for ucb)

	units  [][]float64 // observed points in the unit cube
	thetas [][]float64 // the same points in the box
	scores []float64   // observed scores (original units)

	// The surrogate, valid after update().
	X       *mat.Dense // m x d unit-cube inputs
	ystd    []float64  // standardised scores
	sdY     float64    // standard deviation used to standardise (1 if the scores are constant)
	hyp     gpHyper    // current hyperparameters (standardised units)
	fitted  bool       // hyp holds a previous maximum-likelihood fit
	updates int        // model updates so far
	fitN    int        // observations at the last fit
	midAt   int        // the update of the last fit started from the bounds' mid-point
	kernel  algo.RBF
	lik     *marginal // holds the Cholesky factor and alpha at hyp
	beta    float64   // beta_t for the next point
	// scale, for the ARD surrogate (cfg.ard), is 1/l_j per dimension: X holds the unit-cube
	// inputs times scale, on which the kernel is isotropic with length-scale 1, and every
	// point the acquisition is asked about is scaled the same way. nil otherwise.
	scale []float64
	ard   ardFit
}

func newUCBState(d int, cfg UCBConfig, noiseFloor float64) *ucbState {
	return &ucbState{d: d, cfg: cfg, noiseFloor: noiseFloor}
}

func (s *ucbState) count() int { return len(s.scores) }

func (s *ucbState) add(u, theta []float64, y float64) {
	s.units = append(s.units, u)
	s.thetas = append(s.thetas, theta)
	s.scores = append(s.scores, y)
}

// argminScore is the index of the smallest observed score (earliest on ties).
func (s *ucbState) argminScore() int {
	best := 0
	for i, v := range s.scores {
		if v < s.scores[best] {
			best = i
		}
	}
	return best
}

// argminPosteriorMean is the index of the observed point with the smallest posterior mean
// of the current model: mu(X) = k(X,X) alpha = y - NoiseVar*alpha (standardised units).
func (s *ucbState) argminPosteriorMean() int {
	a := s.lik.alpha.RawVector().Data
	best, bestMean := 0, math.Inf(1)
	for i, y := range s.ystd {
		if m := y - s.hyp.NoiseVar*a[i]; m < bestMean {
			best, bestMean = i, m
		}
	}
	return best
}

// update rebuilds the surrogate on all observations: standardises the scores, refits the
// hyperparameters when due (see UCBConfig.RefitGrowth) and factorises the covariance.
func (s *ucbState) update() error {
	m := s.count()
	s.X = mat.NewDense(m, s.d, nil)
	for i, u := range s.units {
		s.X.SetRow(i, u)
	}
	meanY := 0.0
	for _, y := range s.scores {
		meanY += y
	}
	meanY /= float64(m)
	varY := 0.0
	for _, y := range s.scores {
		varY += (y - meanY) * (y - meanY)
	}
	sdY := math.Sqrt(varY / float64(m))
	if !(sdY > 0) {
		sdY = 1
	}
	s.sdY = sdY
	s.ystd = make([]float64, m)
	for i, y := range s.scores {
		s.ystd[i] = (y - meanY) / sdY
	}
	if s.cfg.ard {
		if err := s.updateARD(m); err != nil {
			return err
		}
	} else if err := s.updateIsotropic(m); err != nil {
		return err
	}
	s.updates++
	if _, err := s.lik.logLik(s.hyp, nil); err != nil {
		return fmt.Errorf("GP at fitted hyperparameters %+v: %w", s.hyp, err)
	}
	s.kernel = algo.RBF{Lengthscale: s.hyp.Lengthscale, Variance: s.hyp.SignalVar}
	s.beta = s.cfg.BetaScale * beta(s.d, m+1, s.cfg.Delta)
	return nil
}

// updateIsotropic refits UCB's isotropic hyperparameters by maximum likelihood when due.
func (s *ucbState) updateIsotropic(m int) error {
	box := ucbHyperBox(s.noiseFloor / (s.sdY * s.sdY))
	s.lik = newMarginal(s.X, s.ystd)
	if s.refitDue(m) {
		mid := [3]float64{}
		for k := range mid {
			mid[k] = 0.5 * (box.Lo[k] + box.Hi[k])
		}
		// Warm start from the previous fit; the mid-point of the bounds as well at the first
		// fit and at the first fit ten or more updates after the last such start (with a
		// refit at every update: every tenth update), to leave a poor local optimum.
		var starts [][3]float64
		if s.fitted {
			starts = append(starts, s.hyp.logParams())
		}
		if !s.fitted || s.updates-s.midAt >= 10 {
			starts = append(starts, mid)
			s.midAt = s.updates
		}
		h, err := fitHyper(s.lik, box, starts, s.cfg.FitEvals)
		if err != nil {
			return err
		}
		s.hyp, s.fitted, s.fitN = h, true, m
	} else {
		// Keep the previous fit but respect a possibly raised noise floor.
		s.hyp.NoiseVar = math.Min(math.Exp(box.Hi[2]), math.Max(math.Exp(box.Lo[2]), s.hyp.NoiseVar))
	}
	return nil
}

// updateARD refits the ARD surrogate by MAP under the dimension-scaled prior when due
// (from the previous fit, and from the prior's modes at the first fit and every tenth
// update, as updateIsotropic starts from the bounds' mid-point), then scales the inputs by
// 1/l_j so that the isotropic machinery (length-scale 1, signal variance 1) is the ARD GP.
func (s *ucbState) updateARD(m int) error {
	floor := s.noiseFloor / (s.sdY * s.sdY)
	if s.refitDue(m) {
		var starts []ardFit
		if s.fitted {
			starts = append(starts, s.ard)
		}
		if !s.fitted || s.updates-s.midAt >= 10 {
			starts = append(starts, ardPriorMode(s.d, floor))
			s.midAt = s.updates
		}
		f, err := fitARD(newARDPosterior(s.X, s.ystd), floor, starts, s.cfg.FitEvals)
		if err != nil {
			return err
		}
		s.ard, s.fitted, s.fitN = f, true, m
	}
	noise := math.Min(math.Max(s.ard.NoiseVar, math.Max(ardMinNoiseVar, floor)), math.Max(ardMaxNoiseVar, floor))
	s.scale = make([]float64, s.d)
	for j, l := range s.ard.Lengthscales {
		s.scale[j] = 1 / l
	}
	scaled := mat.NewDense(m, s.d, nil)
	for i := range m {
		row, src := scaled.RawRowView(i), s.X.RawRowView(i)
		for j := range row {
			row[j] = src[j] * s.scale[j]
		}
	}
	s.X = scaled
	s.hyp = gpHyper{Lengthscale: 1, SignalVar: 1, NoiseVar: noise}
	s.lik = newMarginal(s.X, s.ystd)
	return nil
}

// refitDue reports whether the update with m observations refits the hyperparameters: at
// every update, or with UCBConfig.RefitGrowth at the first and then geometrically.
func (s *ucbState) refitDue(m int) bool {
	if !s.fitted || s.cfg.RefitGrowth == 0 {
		return true
	}
	return m > s.fitN && float64(m) >= (1+s.cfg.RefitGrowth)*float64(s.fitN)
}

// acquisition evaluates the lower confidence bound a(u) = mu(u) - sqrt(beta) sigma(u) of
// the standardised loss at u in the unit cube and, if grad is non-nil, its gradient with
// respect to u. Buffers are reused.
//
// L-BFGS asks for the value and then the gradient at the same point; the kernel row, the
// solve and the predictive moments of the last point are kept (memo), so the gradient
// costs no second solve. The values are those a fresh computation gives, bit for bit.
type acquisition struct {
	s     *ucbState
	u     *mat.Dense    // 1 x d
	kvec  *mat.Dense    // 1 x m: k(u, X)
	v     *mat.VecDense // K^{-1} k(u, X)
	z     []float64     // the ARD-scaled query (scaled)
	coef  []float64
	sqrtB float64
	memo  acquisitionMemo
}

// acquisitionMemo holds the predictive moments at the last point evaluated (a.u, a.kvec
// and a.v hold its kernel row and solve).
type acquisitionMemo struct {
	valid        bool
	mu, variance float64
	clamped      bool
}

func newAcquisition(s *ucbState) *acquisition {
	m := s.count()
	return &acquisition{
		s: s, u: mat.NewDense(1, s.d, nil), kvec: mat.NewDense(1, m, nil), v: mat.NewVecDense(m, nil),
		coef: make([]float64, m), sqrtB: math.Sqrt(s.beta),
	}
}

// minVar floors the posterior variance (relative to the signal variance) so that sigma and
// its gradient stay finite at observed points.
const minVar = 1e-12

// moments computes the posterior mean and (floored) variance at u into a.memo, with the
// kernel row in a.kvec and K^{-1} k in a.v, unless u is the point they already hold.
func (a *acquisition) moments(u []float64) error {
	z := a.scaled(u)
	if a.memo.valid && slices.Equal(a.u.RawRowView(0), z) {
		return nil
	}
	a.memo.valid = false
	s := a.s
	copy(a.u.RawRowView(0), z)
	s.kernel.Cross(a.kvec, a.u, s.X)
	k := a.kvec.RawRowView(0)
	alpha := s.lik.alpha.RawVector().Data
	mu := 0.0
	for i, ki := range k {
		mu += ki * alpha[i]
	}
	v := a.v.RawVector()
	copy(v.Data, k)
	s.lik.solveInPlace(v)
	variance := s.hyp.SignalVar - blas64.Dot(blas64.Vector{N: len(k), Inc: 1, Data: k}, v)
	floor := minVar * s.hyp.SignalVar
	clamped := variance < floor
	if clamped {
		variance = floor
	}
	a.memo = acquisitionMemo{valid: true, mu: mu, variance: variance, clamped: clamped}
	return nil
}

// scaled is u in the surrogate's inputs: u itself, or times the ARD scale (in a buffer
// reused by the next call).
func (a *acquisition) scaled(u []float64) []float64 {
	if a.s.scale == nil {
		return u
	}
	if a.z == nil {
		a.z = make([]float64, len(u))
	}
	for j, v := range u {
		a.z[j] = v * a.s.scale[j]
	}
	return a.z
}

func (a *acquisition) at(u, grad []float64) (float64, error) {
	if err := a.moments(u); err != nil {
		return math.NaN(), err
	}
	s := a.s
	u = a.u.RawRowView(0) // the surrogate's input: u, or u scaled
	k := a.kvec.RawRowView(0)
	alpha := s.lik.alpha.RawVector().Data
	mu, variance, clamped := a.memo.mu, a.memo.variance, a.memo.clamped
	sigma := math.Sqrt(variance)
	if grad == nil {
		return mu - a.sqrtB*sigma, nil
	}
	// grad k(u, x_i) = (x_i - u)/l^2 k_i, so for coefficients c:
	// sum_i c_i grad k_i = (X^T (c.*k) - u sum(c.*k))/l^2.
	// d mu = alpha, d var = -2 K^{-1}k; d sigma = d var/(2 sigma).
	vd := a.v.RawVector().Data
	il2 := 1 / (s.hyp.Lengthscale * s.hyp.Lengthscale)
	sumC := 0.0
	for i, ki := range k {
		c := alpha[i]
		if !clamped {
			c += a.sqrtB * vd[i] / sigma // -sqrt(beta) * (-2 v_i)/(2 sigma)
		}
		a.coef[i] = c * ki
		sumC += a.coef[i]
	}
	for j := range grad {
		grad[j] = -u[j] * sumC
	}
	m := len(k)
	for i := 0; i < m; i++ {
		row := s.X.RawRowView(i)
		ci := a.coef[i]
		for j := range grad {
			grad[j] += ci * row[j]
		}
	}
	for j := range grad {
		grad[j] *= il2
		if s.scale != nil {
			grad[j] *= s.scale[j] // d/du_j = d/dz_j dz_j/du_j
		}
	}
	return mu - a.sqrtB*sigma, nil
}

// batch returns the acquisition at every row of U (no gradients), with one kernel product
// and one triangular solve for all rows: with K = U^T U, k^T K^{-1} k = |U^{-T} k|^2.
func (a *acquisition) batch(U *mat.Dense) []float64 {
	s := a.s
	r, _ := U.Dims()
	m := s.count()
	if s.scale != nil {
		scaled := mat.NewDense(r, s.d, nil)
		for i := range r {
			for j, v := range U.RawRowView(i) {
				scaled.Set(i, j, v*s.scale[j])
			}
		}
		U = scaled
	}
	Ks := mat.NewDense(r, m, nil)
	s.kernel.Cross(Ks, U, s.X)
	var mu mat.VecDense
	mu.MulVec(Ks, s.lik.alpha)
	// Rows of Ks U^{-1} are (U^{-T} k_i)^T.
	W := Ks.RawMatrix()
	blas64.Trsm(blas.Right, blas.NoTrans, 1, s.lik.upper(), W)
	out := make([]float64, r)
	floor := minVar * s.hyp.SignalVar
	for i := range out {
		w := W.Data[i*W.Stride : i*W.Stride+m]
		kv := 0.0
		for _, wk := range w {
			kv += wk * wk
		}
		variance := math.Max(floor, s.hyp.SignalVar-kv)
		out[i] = mu.AtVec(i) - a.sqrtB*math.Sqrt(variance)
	}
	return out
}

// nextPoint minimises the acquisition over the unit cube: it scores cfg.RawSamples uniform
// points, then runs L-BFGS through u = sigmoid(z) from the best observed point and the
// cfg.Starts-1 best raw points, and returns the best point found.
func (s *ucbState) nextPoint(rng *rand.Rand) ([]float64, error) {
	if s.lik == nil {
		return nil, fmt.Errorf("GP-UCB: no surrogate")
	}
	acq := newAcquisition(s)
	type cand struct {
		u []float64
		a float64
	}
	raw := make([]cand, s.cfg.RawSamples)
	var values []float64
	if len(raw) > 0 {
		U := mat.NewDense(len(raw), s.d, nil)
		for r := range raw {
			u := U.RawRowView(r)
			for j := range u {
				u[j] = rng.Float64()
			}
		}
		values = acq.batch(U)
		for r := range raw {
			raw[r] = cand{append([]float64(nil), U.RawRowView(r)...), values[r]}
		}
	}
	sort.SliceStable(raw, func(i, j int) bool { return raw[i].a < raw[j].a })
	starts := [][]float64{s.units[s.argminScore()]}
	for i := 0; i < len(raw) && len(starts) < s.cfg.Starts; i++ {
		starts = append(starts, raw[i].u)
	}

	best := cand{a: math.Inf(1)}
	if len(raw) > 0 {
		best = raw[0]
	}
	gradU := make([]float64, s.d)
	u := make([]float64, s.d)
	var evalErr error
	toU := func(z []float64) {
		for j := range u {
			u[j] = boxmap.Sigmoid(z[j])
		}
	}
	f := func(z, grad []float64) float64 {
		toU(z)
		if grad == nil {
			v, err := acq.at(u, nil)
			if err != nil {
				evalErr = err
			}
			return v
		}
		if _, err := acq.at(u, gradU); err != nil {
			evalErr = err
		}
		for j := range grad {
			grad[j] = gradU[j] * u[j] * (1 - u[j])
		}
		return 0
	}
	status := func() (optimize.Status, error) {
		if evalErr != nil {
			return optimize.Failure, evalErr
		}
		return optimize.NotTerminated, nil
	}
	for _, start := range starts {
		z0 := make([]float64, s.d)
		for j, v := range start {
			z0[j] = boxmap.Logit(v, logitEps)
		}
		settings := &optimize.Settings{FuncEvaluations: s.cfg.StartEvals, GradientThreshold: 1e-6, Converger: &optimize.FunctionConverge{Absolute: 1e-8, Relative: 1e-10, Iterations: 5}}
		res, _ := boxmap.LBFGS(f, status, z0, settings)
		if evalErr != nil {
			return nil, evalErr
		}
		// A run that stops on a line-search failure still returns the best point it reached.
		if res != nil && res.F < best.a {
			uu := make([]float64, s.d)
			for j := range uu {
				uu[j] = boxmap.Sigmoid(res.X[j])
			}
			best = cand{uu, res.F}
		}
	}
	if best.u == nil {
		// No raw samples and no finite L-BFGS result: fall back to the best observed point.
		return append([]float64(nil), s.units[s.argminScore()]...), nil
	}
	return best.u, nil
}
