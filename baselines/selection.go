package baselines

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
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
	// projected so that c <= pi_j/pi_0 <= C (defaults 2 and 0.75, Wang et al.'s MNIST and
	// CIFAR-10 setting, Appendix E). They must satisfy 0 < c <= 1 <= C.
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
	DefaultUCBWeight    = 0.1
	DefaultTemperature  = 1
	DefaultCandidates   = 1024
	DefaultWindow       = 200
	DefaultTailShare    = 0.1
)

// resolved returns c with the declared values in its zero fields, or an error naming the
// first invalid field.
func (c SelectConfig) resolved() (SelectConfig, error) {
	c.NegBinShape = cmp.Or(c.NegBinShape, DefaultNegBinShape)
	c.HyPOShape = cmp.Or(c.HyPOShape, DefaultHyPOShape)
	c.DensityUpper = cmp.Or(c.DensityUpper, DefaultDensityUpper)
	c.DensityLower = cmp.Or(c.DensityLower, DefaultDensityLower)
	c.UCBWeight = cmp.Or(c.UCBWeight, DefaultUCBWeight)
	c.Temperature = cmp.Or(c.Temperature, DefaultTemperature)
	c.Candidates = cmp.Or(c.Candidates, DefaultCandidates)
	c.Window = cmp.Or(c.Window, DefaultWindow)
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
	// algo.PureDP or algo.RDP.
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
// algo.EpsilonForDelta(mu, 1e-5), the RDP bound converted at delta_0 = (1 - tailShare)
// 1e-5, the cap at the rest, and the smallest noise multiplier that meets eps.
func rdpSelectionPlan(method string, mu float64, c Currency, t accounting.Trials, densityRatio, tailShare float64) (SelectionPlan, error) {
	if c != CurrencyEpsDelta {
		return SelectionPlan{}, fmt.Errorf("baselines: %s: is Renyi-DP, which implies no mu-GDP: run it at CurrencyEpsDelta, not %v", method, c)
	}
	if math.IsInf(mu, 1) {
		return SelectionPlan{Trials: t, Limit: noCap(t)}, nil
	}
	eps, err := algo.EpsilonForDelta(mu, algo.DefaultDelta)
	if err != nil {
		return SelectionPlan{}, err
	}
	limit, tailDelta, err := capTrials(t, eps, algo.DefaultDelta, tailShare)
	if err != nil {
		return SelectionPlan{}, err
	}
	convDelta := (1 - tailShare) * algo.DefaultDelta
	z, err := accounting.SmallestNoise(func(z float64) (float64, error) {
		curve, err := accounting.SelectionRDP(accounting.GaussianTrial(z), t, densityRatio)
		if err != nil {
			return 0, err
		}
		e, _, err := accounting.RDPToEpsDelta(curve, convDelta)
		return e, err
	}, eps)
	if err != nil {
		return SelectionPlan{}, fmt.Errorf("baselines: %s: %w", method, err)
	}
	return SelectionPlan{Trials: t, Limit: limit, NoiseMultiplier: z, Epsilon: eps, Delta: convDelta + tailDelta, Accounting: algo.RDP}, nil
}

// noCap is the cap of a run at mu = +Inf (no privacy, no delta to spend): the end of the
// tabulated distribution, whose tail beyond it is below 1e-25.
func noCap(t accounting.Trials) int {
	limit, _ := t.Cap(1e-25)
	return limit
}

// ledger returns the plan's ledger: non-private at mu = +Inf (NoiseMultiplier 0), pure
// (algo.NewPureLedger) without a cap's delta, (eps, delta) otherwise.
func (s SelectionPlan) ledger() (algo.Ledger, error) {
	switch {
	case s.NoiseMultiplier == 0:
		return algo.NonPrivateLedger(), nil
	case s.Delta == 0:
		return algo.NewPureLedger("selection", s.Epsilon)
	}
	return algo.NewApproxLedger("selection", s.Accounting, s.Epsilon, s.Delta)
}

// selectionRun runs a plan: K trials, each proposing a candidate (propose), scoring it by
// its clipped mean loss plus noise(rng) and handing both to observe (when non-nil); the
// released theta is the candidate of smallest noisy score (the earlier on ties), reported
// once, after the last trial; an error of observe stops the run. K = 0 (Poisson) releases a point drawn uniformly from the box
// without evaluating anything. opt.OnScore receives every noisy score.
func selectionRun(ctx context.Context, method string, opt Options, obj algo.Objective, k int, rng *rand.Rand, cb algo.Callback,
	propose func(p *problem) []float64, noise func() float64, observe func(theta []float64, score float64) error) (algo.Result, error) {
	p, bound, err := privateProblem(method, opt, obj, max(k, 1))
	if err != nil {
		return algo.Result{}, err
	}
	if k == 0 {
		p.best = p.uniform(rng)
	}
	bestScore := math.Inf(1)
	for range k {
		theta := propose(p)
		losses, err := p.evaluate(ctx, theta)
		if err != nil {
			return algo.Result{}, err
		}
		score := ClippedMean(losses, bound) + noise()*bound/float64(p.users)
		if opt.OnScore != nil {
			opt.OnScore(p.expand(theta), score)
		}
		if observe != nil {
			if err := observe(theta, score); err != nil {
				return algo.Result{}, fmt.Errorf("baselines: %s: %w", method, err)
			}
		}
		if p.best == nil || score < bestScore {
			p.best, bestScore = theta, score
		}
	}
	if err := p.report(cb, p.best); err != nil {
		return algo.Result{}, err
	}
	return algo.Result{Theta: p.released(), Evals: p.evals, Iters: k}, nil
}

// drawTrials draws K for plan: by inversion of its distribution with one uniform from rng,
// at most plan.Limit.
func drawTrials(plan SelectionPlan, rng *rand.Rand) int {
	return plan.Trials.Draw(rng.Float64(), plan.Limit)
}

// gaussianNoise returns a draw of z N(0, 1) from rng, or nothing drawn for z = 0.
func gaussianNoise(z float64, rng *rand.Rand) func() float64 {
	return func() float64 { return GaussianRelease(0, z, rng) }
}

// PlanFor is the plan of the selection with a random number of trials registered as name,
// for budget, with opt's Mu, Currency and Select; ok is false for any other method.
func PlanFor(name string, opt Options, budget int) (plan SelectionPlan, ok bool, err error) {
	switch name {
	case "dp-select-geometric":
		plan, err = GeometricPlan(opt.Mu, opt.Currency, budget, opt.Select.TailShare)
	case "dp-select-negbin":
		plan, err = NegBinPlan(opt.Mu, budget, opt.Select)
	case "dp-select-poisson":
		plan, err = PoissonPlan(opt.Mu, budget, opt.Select.TailShare)
	case "dp-hypo":
		plan, err = HyPOPlan(opt.Mu, budget, opt.Select)
	default:
		return SelectionPlan{}, false, nil
	}
	return plan, true, err
}

// EvaluationLimit is the most evaluations the method registered as name uses for budget
// with opt: the budget, or, for a selection with a random number of trials, its plan's cap
// (math.MaxInt for dp-select-geometric uncapped at CurrencyGDP, whose number of
// evaluations is geometric with mean the budget).
func EvaluationLimit(name string, opt Options, budget int) (int, error) {
	plan, ok, err := PlanFor(name, opt, budget)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return budget, nil
	case plan.Limit == 0:
		return math.MaxInt, nil
	}
	return max(plan.Limit, 1), nil
}

// newRDPSelection checks the options of a Renyi-DP selection (dp-select-negbin,
// dp-select-poisson, dp-hypo): mu, its settings, and the primary currency.
func newRDPSelection(name string, opt Options) error {
	if err := checkMu(name, opt.Mu); err != nil {
		return err
	}
	if _, err := opt.Select.resolved(); err != nil {
		return fmt.Errorf("baselines: %s: %w", name, err)
	}
	if opt.Currency != CurrencyEpsDelta {
		return fmt.Errorf("baselines: %s: is Renyi-DP, which implies no mu-GDP: run it at CurrencyEpsDelta, not %v", name, opt.Currency)
	}
	return nil
}
