package selection

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// The private selections with a random number of trials (dp-select-geometric,
// dp-select-negbin, dp-select-poisson, dp-hypo) share one loop: draw the number of trials
// K before looking at the data, run K trials (a candidate, its clipped mean loss plus
// noise), release only the candidate of smallest noisy score. Their privacy does not grow
// like a composition of K releases; it is a theorem about the best of K.
//
// Budget matching. K's distribution has its mean E[K] at the evaluation budget the method
// is given (the figure's T(d+1)), so that on average it evaluates what the others do. Its
// tail is handled per method:
//
//   - at CurrencyEpsDelta (the primary currency), K is capped at the smallest n whose tail
//     mass P(K > n) is at most SelectConfig.TailShare * delta / (1 + e^eps): the capped
//     selection differs from the uncapped one only on that event, whose probability does
//     not depend on the data, so it is (eps, delta_0 + P(K > n)(1 + e^eps))-DP where the
//     uncapped one is (eps, delta_0)-DP. The cap's share of delta is TailShare (0.1); the
//     rest, delta_0, goes to the conversion of the RDP bound (dp-select-negbin,
//     dp-select-poisson, dp-hypo) or is unused (dp-select-geometric, pure DP);
//   - at CurrencyGDP only dp-select-geometric runs, uncapped: pure 3 eps_0-DP implies mu-GDP
//     and a cap's delta would not. The others are Renyi-DP, which implies no mu-GDP, and
//     refuse CurrencyGDP.
//
// A capped selection is therefore (eps, delta)-DP, never mu-GDP: its ledger's Mu is NaN.

// Currency says at which privacy level a private comparator runs when it is given
// DP-GIBO's mu: private methods accounted otherwise than by mu-GDP (pure DP, Renyi
// DP) are compared with DP-GIBO at one declared level (docs/library.md, "Private
// comparators").
type Currency int

const (
	// CurrencyEpsDelta (the zero value, the primary currency) runs the method at the
	// (epsilon, delta) that mu-GDP gives at delta = accounting.DefaultDelta, epsilon from the exact
	// conversion (accounting.EpsilonForDelta: 4.38 at mu = 1). It is the currency most favourable
	// to the comparators.
	CurrencyEpsDelta Currency = iota
	// CurrencyGDP (the secondary currency) runs the method at the same mu-GDP, where its
	// guarantee implies one: a pure epsilon-DP method at the largest epsilon that is mu-GDP
	// (accounting.PureWithinGDP: 0.807 at mu = 1).
	CurrencyGDP
)

func (c Currency) String() string {
	switch c {
	case CurrencyEpsDelta:
		return "eps-delta"
	case CurrencyGDP:
		return "gdp"
	}
	return fmt.Sprintf("Currency(%d)", int(c))
}

// PureEpsilon is the epsilon at which a pure epsilon-DP method runs for DP-GIBO's mu in
// currency c; +Inf for mu = +Inf (no privacy).
func PureEpsilon(mu float64, c Currency) (float64, error) {
	if math.IsInf(mu, 1) {
		return mu, nil
	}
	switch c {
	case CurrencyEpsDelta:
		return accounting.EpsilonForDelta(mu, accounting.DefaultDelta)
	case CurrencyGDP:
		return accounting.PureWithinGDP(mu)
	}
	return 0, fmt.Errorf("unknown currency %v", c)
}

// SelectConfig configures the private selections with a random number of trials. Each
// zero field takes the value declared before any run (docs/library.md, "Private
// comparators"), given in the comment.
type SelectConfig struct {
	// NegBinShape is eta of dp-select-negbin's truncated negative binomial (default 2).
	NegBinShape float64
	// HyPOShape is eta of dp-hypo's truncated negative binomial (default 1, the geometric
	// distribution of Wang et al.'s experiments).
	HyPOShape float64
	// DensityUpper and DensityLower are DP-HyPO's C and c: every sampling density pi_j is
	// projected so that c <= pi_j/pi_0 <= C (defaults 1.25 and 0.8, c = 1/C, Wang et al.'s
	// federated-learning setting; docs/library.md, "Private comparators", says why not their
	// MNIST and CIFAR-10 one, 2 and 0.75). They must satisfy 0 < c <= 1 <= C.
	DensityUpper, DensityLower float64
	// UCBWeight and Temperature are DP-HyPO's tau and beta: the density before projection
	// is proportional to exp(-beta (m(x) - tau s(x))), m and s the GP's posterior mean and
	// standard deviation of the standardised released scores (defaults 0.1 and 1).
	UCBWeight, Temperature float64
	// Candidates is the number of points of DP-HyPO's discretised box, drawn uniformly
	// before the run (default 1024).
	Candidates int
	// Window is the number of most recent released scores DP-HyPO's GP conditions on
	// (default 200).
	Window int
	// TailShare is the share of delta spent on the cap of the number of trials at
	// CurrencyEpsDelta (default 0.1). It must lie in (0, 1).
	TailShare float64
}

// Declared values of SelectConfig's zero fields.
const (
	DefaultNegBinShape  = 2
	DefaultHyPOShape    = 1
	DefaultDensityUpper = 1.25
	DefaultDensityLower = 0.8
	defaultUCBWeight    = 0.1
	defaultTemperature  = 1
	defaultCandidates   = 1024
	defaultWindow       = 200
	DefaultTailShare    = 0.1
)

// Resolved returns c with the declared values in its zero fields, or an error naming the
// first invalid field.
func (c SelectConfig) Resolved() (SelectConfig, error) {
	c.NegBinShape = cmp.Or(c.NegBinShape, DefaultNegBinShape)
	c.HyPOShape = cmp.Or(c.HyPOShape, DefaultHyPOShape)
	c.DensityUpper = cmp.Or(c.DensityUpper, DefaultDensityUpper)
	c.DensityLower = cmp.Or(c.DensityLower, DefaultDensityLower)
	c.UCBWeight = cmp.Or(c.UCBWeight, defaultUCBWeight)
	c.Temperature = cmp.Or(c.Temperature, defaultTemperature)
	c.Candidates = cmp.Or(c.Candidates, defaultCandidates)
	c.Window = cmp.Or(c.Window, defaultWindow)
	c.TailShare = cmp.Or(c.TailShare, DefaultTailShare)
	finitePos := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	switch {
	case !finitePos(c.NegBinShape):
		return c, fmt.Errorf("SelectConfig.NegBinShape must be positive and finite, got %v", c.NegBinShape)
	case !finitePos(c.HyPOShape):
		return c, fmt.Errorf("SelectConfig.HyPOShape must be positive and finite, got %v", c.HyPOShape)
	case !(c.DensityLower > 0 && c.DensityLower <= 1):
		return c, fmt.Errorf("SelectConfig.DensityLower (DP-HyPO's c) must lie in (0, 1], got %v", c.DensityLower)
	case !(c.DensityUpper >= 1) || math.IsInf(c.DensityUpper, 0):
		return c, fmt.Errorf("SelectConfig.DensityUpper (DP-HyPO's C) must be finite and >= 1, got %v", c.DensityUpper)
	case !finitePos(c.UCBWeight):
		return c, fmt.Errorf("SelectConfig.UCBWeight (DP-HyPO's tau) must be positive and finite, got %v", c.UCBWeight)
	case !finitePos(c.Temperature):
		return c, fmt.Errorf("SelectConfig.Temperature (DP-HyPO's beta) must be positive and finite, got %v", c.Temperature)
	case c.Candidates < 2:
		return c, fmt.Errorf("SelectConfig.Candidates must be at least 2, got %d", c.Candidates)
	case c.Window < 2:
		return c, fmt.Errorf("SelectConfig.Window must be at least 2, got %d", c.Window)
	case !(c.TailShare > 0 && c.TailShare < 1):
		return c, fmt.Errorf("SelectConfig.TailShare must lie in (0, 1), got %v", c.TailShare)
	}
	return c, nil
}

// SelectionPlan is what a private selection fixes before it looks at the data: the
// distribution of its number of trials, the cap, the noise of each trial and the
// guarantee they give.
type SelectionPlan struct {
	Trials accounting.Trials
	// Limit is the cap on the number of trials (0: uncapped, dp-select-geometric at
	// CurrencyGDP).
	Limit int
	// NoiseMultiplier is the noise of each trial's score over its sensitivity Lmax/n: the
	// Laplace scale (dp-select-geometric) or the Gaussian standard deviation (the others);
	// 0 at mu = +Inf.
	NoiseMultiplier float64
	// Epsilon and Delta are the selection's guarantee (Delta 0: pure DP); Accounting is
	// accounting.PureDP or accounting.RDP.
	Epsilon, Delta float64
	Accounting     string
}

// capTrials returns the cap of t at the share tailShare of delta for a release at eps, and
// the delta the cap adds: P(K > cap) (1 + e^eps).
func capTrials(t accounting.Trials, eps, delta, tailShare float64) (int, float64, error) {
	limit, err := t.Cap(tailShare * delta / (1 + math.Exp(eps)))
	if err != nil {
		return 0, 0, err
	}
	return limit, t.Tail(limit) * (1 + math.Exp(eps)), nil
}

// rdpSelectionPlan is the plan of a selection with Gaussian trials accounted by
// accounting.SelectionRDP at DP-GIBO's mu in the primary currency: eps =
// accounting.EpsilonForDelta(mu, 1e-5), the RDP bound converted at delta_0 = (1 - tailShare)
// 1e-5, the cap at the rest, and the smallest noise multiplier that meets eps.
func rdpSelectionPlan(method string, mu float64, c Currency, t accounting.Trials, densityRatio, tailShare float64) (SelectionPlan, error) {
	if c != CurrencyEpsDelta {
		return SelectionPlan{}, fmt.Errorf("selection: %s: is Renyi-DP, which implies no mu-GDP: run it at CurrencyEpsDelta, not %v", method, c)
	}
	if math.IsInf(mu, 1) {
		return SelectionPlan{Trials: t, Limit: noCap(t)}, nil
	}
	eps, err := accounting.EpsilonForDelta(mu, accounting.DefaultDelta)
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpPlanAt(method, eps, accounting.DefaultDelta, t, densityRatio, tailShare)
}

// rdpPlanAt is the plan of a selection with Gaussian trials accounted by
// accounting.SelectionRDP at (eps, delta)-DP: the RDP bound converted at delta_0 =
// (1 - tailShare) delta, the cap at the rest, and the smallest noise multiplier that meets
// eps.
func rdpPlanAt(method string, eps, delta float64, t accounting.Trials, densityRatio, tailShare float64) (SelectionPlan, error) {
	limit, tailDelta, err := capTrials(t, eps, delta, tailShare)
	if err != nil {
		return SelectionPlan{}, err
	}
	convDelta := (1 - tailShare) * delta
	z, err := accounting.SmallestNoise(func(z float64) (float64, error) {
		curve, err := accounting.SelectionRDP(accounting.GaussianTrial(z), t, densityRatio)
		if err != nil {
			return 0, err
		}
		e, _, err := accounting.RDPToEpsDelta(curve, convDelta)
		return e, err
	}, eps)
	if err != nil {
		return SelectionPlan{}, fmt.Errorf("selection: %s: %w", method, err)
	}
	return SelectionPlan{Trials: t, Limit: limit, NoiseMultiplier: z, Epsilon: eps, Delta: convDelta + tailDelta, Accounting: accounting.RDP}, nil
}

// noCap is the cap of a run at mu = +Inf (no privacy, no delta to spend): the end of the
// tabulated distribution, whose tail beyond it is below 1e-25.
func noCap(t accounting.Trials) int {
	limit, _ := t.Cap(1e-25)
	return limit
}

// Ledger returns the plan's ledger: non-private at mu = +Inf (NoiseMultiplier 0), pure
// (accounting.NewPureLedger) without a cap's delta, (eps, delta) otherwise.
func (s SelectionPlan) Ledger() (accounting.Ledger, error) {
	switch {
	case s.NoiseMultiplier == 0:
		return accounting.NonPrivateLedger(), nil
	case s.Delta == 0:
		return accounting.NewPureLedger("selection", s.Epsilon)
	}
	return accounting.NewApproxLedger("selection", s.Accounting, s.Epsilon, s.Delta)
}

// GeometricPlan is dp-select-geometric's plan for a budget at DP-GIBO's mu in currency c
// (its SelectConfig's TailShare in tailShare; 0 takes the default).
func GeometricPlan(mu float64, c Currency, budget int, tailShare float64) (SelectionPlan, error) {
	cfg, err := SelectConfig{TailShare: tailShare}.Resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 2 {
		return SelectionPlan{}, fmt.Errorf("selection: dp-select-geometric: budget must be at least 2 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.TruncatedNegBin(1, float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	eps, err := PureEpsilon(mu, c)
	if err != nil {
		return SelectionPlan{}, err
	}
	plan := SelectionPlan{Trials: t, Epsilon: eps, Accounting: accounting.PureDP}
	switch {
	case math.IsInf(eps, 1):
		plan.Limit = noCap(t)
		return plan, nil
	case eps == 0:
		return SelectionPlan{}, fmt.Errorf("selection: dp-select-geometric: epsilon 0 (mu %v) leaves no budget for a trial", mu)
	}
	plan.NoiseMultiplier = 3 / eps // Laplace scale over Delta: 1/eps_0
	if c == CurrencyEpsDelta {
		if plan.Limit, plan.Delta, err = capTrials(t, eps, accounting.DefaultDelta, cfg.TailShare); err != nil {
			return SelectionPlan{}, err
		}
	}
	return plan, nil
}

// NegBinPlan is dp-select-negbin's plan for a budget at DP-GIBO's mu (primary currency)
// with cfg (zero fields: the declared values).
func NegBinPlan(mu float64, budget int, cfg SelectConfig) (SelectionPlan, error) {
	cfg, err := cfg.Resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 2 {
		return SelectionPlan{}, fmt.Errorf("selection: dp-select-negbin: budget must be at least 2 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.TruncatedNegBin(cfg.NegBinShape, float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpSelectionPlan("dp-select-negbin", mu, CurrencyEpsDelta, t, 1, cfg.TailShare)
}

// poissonPlan is dp-select-poisson's plan for a budget at DP-GIBO's mu (primary currency),
// with the share tailShare of delta on the cap (0: the default).
func poissonPlan(mu float64, budget int, tailShare float64) (SelectionPlan, error) {
	cfg, err := SelectConfig{TailShare: tailShare}.Resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 1 {
		return SelectionPlan{}, fmt.Errorf("selection: dp-select-poisson: budget must be at least 1 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.Poisson(float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpSelectionPlan("dp-select-poisson", mu, CurrencyEpsDelta, t, 1, cfg.TailShare)
}

// HyPOPlan is dp-hypo's plan for a budget at DP-GIBO's mu (primary currency) with cfg
// (zero fields: the declared values).
func HyPOPlan(mu float64, budget int, cfg SelectConfig) (SelectionPlan, error) {
	cfg, err := cfg.Resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 2 {
		return SelectionPlan{}, fmt.Errorf("selection: dp-hypo: budget must be at least 2 (the mean number of rounds), got %d", budget)
	}
	t, err := accounting.TruncatedNegBin(cfg.HyPOShape, float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpSelectionPlan("dp-hypo", mu, CurrencyEpsDelta, t, cfg.DensityUpper/cfg.DensityLower, cfg.TailShare)
}

// FittedGeometricPlan and FittedNegBinPlan are the plans of dp-select-geometric and
// dp-select-negbin at the target t
// whose cap fits the budget: the largest whole mean number of trials whose cap, at the
// declared share of delta (DefaultTailShare), is at most budget, so that no run evaluates
// more than budget. Each trial's noise is set for t at that mean (the geometric's Laplace
// scale 3/epsilon does not depend on it). A budget that not even a mean of 2 trials fits
// is an error.
//
// The answer depends on public inputs only and is kept (fittedPlans): its search tabulates
// dozens of trial distributions, and Tune called again at the same target and budget would
// redo them.
func FittedGeometricPlan(t accounting.EpsDelta, budget int) (SelectionPlan, error) {
	return fittedPlan(fittedGeometric, t, budget)
}

// FittedNegBinPlan is dp-select-negbin's plan fitted to the budget (FittedGeometricPlan).
func FittedNegBinPlan(t accounting.EpsDelta, budget int) (SelectionPlan, error) {
	return fittedPlan(fittedNegBin, t, budget)
}

// fitted names the selection whose plan fittedPlan fits: its String is the method's name.
type fitted string

const (
	fittedGeometric fitted = "dp-select-geometric"
	fittedNegBin    fitted = "dp-select-negbin"
)

// fittedPlan is FittedGeometricPlan's and FittedNegBinPlan's search, its answers kept.
func fittedPlan(m fitted, t accounting.EpsDelta, budget int) (SelectionPlan, error) {
	key := fittedPlanKey{m, t, budget}
	fittedPlans.Lock()
	a, ok := fittedPlans.answers[key]
	fittedPlans.Unlock()
	if ok {
		return a.plan, a.err
	}
	plan, err := searchFittedPlan(m, t, budget)
	fittedPlans.Lock()
	if len(fittedPlans.answers) >= fittedPlansKept {
		clear(fittedPlans.answers)
	}
	fittedPlans.answers[key] = fittedPlanAnswer{plan, err}
	fittedPlans.Unlock()
	return plan, err
}

// fittedPlans keeps fittedPlan's answers, at most fittedPlansKept of them (all are dropped
// when it is full). A plan's trial distribution is only read once built, so the kept plan is
// shared.
var fittedPlans = struct {
	sync.Mutex
	answers map[fittedPlanKey]fittedPlanAnswer
}{answers: map[fittedPlanKey]fittedPlanAnswer{}}

const fittedPlansKept = 64

type fittedPlanKey struct {
	method fitted
	target accounting.EpsDelta
	budget int
}

type fittedPlanAnswer struct {
	plan SelectionPlan
	err  error
}

// searchFittedPlan is fittedPlan's search, run once per target and budget.
func searchFittedPlan(m fitted, t accounting.EpsDelta, budget int) (SelectionPlan, error) {
	eta := 1.0
	if m == fittedNegBin {
		eta = DefaultNegBinShape
	}
	capOf := func(mean int) (accounting.Trials, int, float64, error) {
		tr, err := accounting.TruncatedNegBin(eta, float64(mean))
		if err != nil {
			return tr, 0, 0, err
		}
		limit, tail, err := capTrials(tr, t.Epsilon, t.Delta, DefaultTailShare)
		return tr, limit, tail, err
	}
	_, limit, _, err := capOf(2)
	if err != nil {
		return SelectionPlan{}, fmt.Errorf("selection: %v: %w", m, err)
	}
	if limit > budget {
		return SelectionPlan{}, fmt.Errorf("selection: %v is not offered: even a mean of 2 trials needs a cap of %d evaluations at (%v, %v)-DP, above the budget %d (Config.Evals)", m, limit, t.Epsilon, t.Delta, budget)
	}
	lo, hi := 2, budget // the cap of lo fits; the answer lies in [lo, hi]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, l, _, err := capOf(mid); err == nil && l <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	tr, limit, tail, err := capOf(lo)
	if err != nil {
		return SelectionPlan{}, fmt.Errorf("selection: %v: %w", m, err)
	}
	var plan SelectionPlan
	if m == fittedGeometric {
		plan = SelectionPlan{Trials: tr, Limit: limit, NoiseMultiplier: 3 / t.Epsilon, Epsilon: t.Epsilon, Delta: tail, Accounting: accounting.PureDP}
	} else if plan, err = rdpPlanAt(string(m), t.Epsilon, t.Delta, tr, 1, DefaultTailShare); err != nil {
		return SelectionPlan{}, err
	}
	if plan.Epsilon > t.Epsilon || plan.Delta > t.Delta || plan.Limit > budget {
		return SelectionPlan{}, fmt.Errorf("selection: %v: the plan (%v, %v)-DP with cap %d misses the (%v, %v)-DP and budget %d asked", m, plan.Epsilon, plan.Delta, plan.Limit, t.Epsilon, t.Delta, budget)
	}
	return plan, nil
}

// Selection is the loop every private selection with a random number of trials shares
// (the comment at the top of this file): it draws K from Plan before looking at the data
// (by inversion with one uniform from rng, at most Plan.Limit; exactly geometric when
// Plan.Limit is 0), runs K trials, each proposing a candidate (Propose; nil draws it
// uniformly from the box) and scoring it by its clipped mean loss plus noise (Laplace of
// scale Plan.NoiseMultiplier Lmax/n for a pure-DP plan, Gaussian of that standard
// deviation otherwise), and releases the candidate of smallest noisy score (the earlier on
// ties), reported once, after the last trial, with the plan's mean number of trials as its
// evaluations. K = 0 (Poisson) releases a point drawn
// uniformly from the box without evaluating anything. The released Result's Evals is the
// plan's mean number of trials; K itself is NonPrivateTrials.
type Selection struct {
	// Name is the method's name, which every error starts with.
	Name string
	Plan SelectionPlan
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	// Propose, when non-nil, returns each trial's candidate, a point of p's box (the
	// objective's, without the coordinates it fixes).
	Propose func(p *search.Problem) []float64
	// Observe, when non-nil, receives every trial's candidate and noisy score after the
	// trial (an adaptive selection builds its next proposal from them); its error stops the
	// run.
	Observe func(theta []float64, score float64) error
	// OnScore, when non-nil, receives every trial's candidate (in the objective's box) and
	// noisy score. These are not releases of the selection: its theorem covers the winner
	// only. It is a hook for audits and tests.
	OnScore func(theta []float64, score float64)
}

// Run runs the selection on obj (the plan's mean number of trials is the budget it was
// made for); cb sees one report, after the last trial.
func (s Selection) Run(ctx context.Context, obj algo.Objective, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	k := 0
	if s.Plan.Limit > 0 {
		k = s.Plan.Trials.Draw(rng.Float64(), s.Plan.Limit)
	} else {
		// Uncapped: K = ceil(log(1-u)/log(1-gamma)) >= 1, the geometric distribution exactly.
		u := rng.Float64()
		k = max(1, int(math.Ceil(math.Log1p(-u)/math.Log1p(-s.Plan.Trials.Gamma))))
	}
	p, err := search.NewSearch("selection", s.Name, obj, max(k, 1))
	if err != nil {
		return baselines.Result{}, err
	}
	bound, err := baselines.LossBoundOf("selection: "+s.Name, s.LossBound, obj)
	if err != nil {
		return baselines.Result{}, err
	}
	p.LossBound = bound
	noise := func() float64 {
		if s.Plan.Accounting == accounting.PureDP {
			return laplace(s.Plan.NoiseMultiplier, rng)
		}
		if s.Plan.NoiseMultiplier == 0 {
			return 0
		}
		return s.Plan.NoiseMultiplier * rng.NormFloat64()
	}
	if k == 0 {
		p.Best = p.Uniform(rng)
	}
	bestScore := math.Inf(1)
	for range k {
		var theta []float64
		if s.Propose != nil {
			theta = s.Propose(p)
		} else {
			theta = p.Uniform(rng)
		}
		losses, err := p.Evaluate(ctx, theta)
		if err != nil {
			return baselines.Result{}, err
		}
		score := baselines.ClippedMean(losses, bound) + noise()*bound/float64(p.Users)
		if s.OnScore != nil {
			s.OnScore(p.Expand(theta), score)
		}
		if s.Observe != nil {
			if err := s.Observe(theta, score); err != nil {
				return baselines.Result{}, fmt.Errorf("selection: %s: %w", s.Name, err)
			}
		}
		if p.Best == nil || score < bestScore {
			p.Best, bestScore = theta, score
		}
	}
	// The report gives the plan's mean number of trials, not K.
	mean := int(math.Round(s.Plan.Trials.Mean()))
	if cb != nil {
		if err := cb(algo.Iteration{Iter: 1, Evals: mean, Batch: 1, Trace: math.NaN(), Theta: p.Released()}); err != nil {
			return baselines.Result{}, fmt.Errorf("selection: %s: callback: %w", s.Name, err)
		}
	}
	ledger, err := s.Plan.Ledger()
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: p.Released(), Evals: mean, Ledger: ledger, NonPrivateTrials: k}, nil
}

// Geometric is Liu and Talwar's private selection with a geometric number of trials
// (registry name "dp-select-geometric"; Liu and Talwar 2019, arXiv 1811.07971): each trial
// draws a candidate uniformly from the box and scores it by its clipped mean loss plus
// Laplace noise of scale Delta/eps_0 (Delta = Lmax/n, so each trial is eps_0-DP); after
// each trial the selection stops with probability gamma = 1/budget, so that the number of
// trials K is geometric with mean the budget; it releases the candidate of smallest noisy
// score. With eps_0-DP trials the release is 3 eps_0-DP (Liu and Talwar, Theorem 3.2;
// Papernot and Steinke 2022, Corollary 3 with eta = 1), so eps_0 = eps/3 for the target
// eps (GeometricPlan).
type Geometric struct {
	// Mu is DP-GIBO's mu that the selection's epsilon is read from in Currency.
	Mu       float64
	Currency Currency
	// LossBound is Lmax (0: the objective's).
	LossBound float64
	// TailShare is SelectConfig's (0: DefaultTailShare).
	TailShare float64
	// OnScore is Selection's.
	OnScore func(theta []float64, score float64)
}

// Plan is the selection's plan for budget.
func (m Geometric) Plan(budget int) (SelectionPlan, error) {
	return GeometricPlan(m.Mu, m.Currency, budget, m.TailShare)
}

// NegBin is Papernot and Steinke's private selection with a truncated negative binomial
// number of trials (registry name "dp-select-negbin"; Papernot and Steinke 2022, arXiv
// 2110.03620): K is drawn from their distribution D_{eta, gamma} (Definition 1) with eta =
// SelectConfig.NegBinShape (declared 2) and gamma set so that E[K] is the budget; each of
// the K trials draws a candidate uniformly from the box and releases its clipped mean loss
// plus Gaussian noise of standard deviation z Lmax/n; the release is the candidate of
// smallest noisy score. Its Renyi DP is their Theorem 2 (accounting.SelectionRDP with
// C/c = 1), converted to (eps, delta)-DP by accounting.RDPToEpsDelta; z is the smallest
// noise multiplier at which that meets eps = accounting.EpsilonForDelta(mu, 1e-5) with 0.9e-5 of
// delta, and K is capped where the tail spends the remaining 1e-6 (see SelectionPlan). It
// runs at CurrencyEpsDelta only.
type NegBin struct {
	Mu        float64
	LossBound float64
	Select    SelectConfig
	OnScore   func(theta []float64, score float64)
}

// Plan is the selection's plan for budget.
func (m NegBin) Plan(budget int) (SelectionPlan, error) { return NegBinPlan(m.Mu, budget, m.Select) }

// Poisson is Papernot and Steinke's private selection with a Poisson number of trials
// (registry name "dp-select-poisson"; their Theorem 6 with the Gaussian trial's exact
// (epsHat, deltaHat)): NegBin's trials and release with K ~ Poisson(budget); K = 0 releases
// a point drawn uniformly from the box. It runs at CurrencyEpsDelta only.
type Poisson struct {
	Mu        float64
	LossBound float64
	TailShare float64
	OnScore   func(theta []float64, score float64)
}

// Plan is the selection's plan for budget.
func (m Poisson) Plan(budget int) (SelectionPlan, error) {
	return poissonPlan(m.Mu, budget, m.TailShare)
}

// laplace draws from the Laplace distribution of scale b as b times the difference of two
// standard exponentials (two rng.ExpFloat64 draws); b = 0 returns 0 and draws nothing.
func laplace(b float64, rng *rand.Rand) float64 {
	if b == 0 {
		return 0
	}
	return b * (rng.ExpFloat64() - rng.ExpFloat64())
}
