package bo

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/baselines/selection"
)

// DPHyPO is adaptive private selection (registry name "dp-hypo"; Wang, Gao, Zhang, Su and
// Shen 2023, "DP-HyPO", arXiv 2306.05734, Framework 1 with their GP instance, Algorithm
// 3). The box is discretised, before the run and without the data, into
// SelectConfig.Candidates points drawn uniformly; pi_0 is uniform on them. The number of
// rounds K is drawn from the truncated negative binomial of shape SelectConfig.HyPOShape
// (declared 1, the geometric distribution) with E[K] the budget. Round j samples a
// candidate from pi_j, releases its clipped mean loss plus Gaussian noise of standard
// deviation z Lmax/n, and builds pi_{j+1} from the released scores only:
//
//  1. a GP (dp-ucb's surrogate: RBF kernel, hyperparameters by maximum likelihood refitted
//     at every round unless UCB.RefitGrowth says otherwise, noise variance at
//     least the release's) on the SelectConfig.Window most recent released scores,
//     standardised;
//  2. the density proportional to exp(-beta (m(x) - tau s(x))) on the candidates, m and s
//     the posterior mean and standard deviation (the paper's softmax of the upper
//     confidence bound mu + tau sigma of a score to maximise; here the loss is minimised),
//     beta = SelectConfig.Temperature, tau = SelectConfig.UCBWeight;
//  3. its Euclidean projection onto the densities with c <= pi/pi_0 <= C
//     (c, C = SelectConfig.DensityLower, DensityUpper).
//
// The release is the candidate of smallest noisy score. Its Renyi DP is Wang et al.'s
// Theorem 1 (accounting.SelectionRDP with density ratio C/c), which at C = c = 1 is
// Papernot and Steinke's Theorem 2 (dp-select-negbin's); the conversion, the noise and
// the cap are dp-select-negbin's. Everything built from the released scores is
// post-processing; the projection is what makes the adaptivity's cost log(C/c) terms and
// not more. It runs at CurrencyEpsDelta only. mu = +Inf draws no noise.
type DPHyPO struct {
	// Mu is DP-GIBO's mu, whose (epsilon, 1e-5) the selection meets (selection.HyPOPlan).
	Mu float64
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	// Select holds DP-HyPO's settings (zero fields: the declared values) and UCB its GP's.
	Select selection.SelectConfig
	UCB    UCBConfig
	// OnScore is selection.Selection's.
	OnScore func(theta []float64, score float64)
}

var dpHyPOInfo = baselines.Info{Name: "dp-hypo", Legend: "DP-HyPO", Colour: color.RGBA{R: 0xad, G: 0x49, B: 0x4a, A: 0xff}, Private: true}

// Info implements baselines.Method.
func (DPHyPO) Info() baselines.Info { return dpHyPOInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (DPHyPO) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// ReadsCurrency says that the selection's guarantee is read from mu in a currency (the
// primary one only: it is Renyi-DP).
func (DPHyPO) ReadsCurrency() bool { return true }

// CountsTrials implements baselines.TrialCounter.
func (DPHyPO) CountsTrials() bool { return true }

// Plan is the selection's plan for budget (selection.HyPOPlan).
func (m DPHyPO) Plan(budget int) (selection.SelectionPlan, error) {
	return selection.HyPOPlan(m.Mu, budget, m.Select)
}

// EvaluationCap implements baselines.EvaluationCapper: the plan's cap.
func (m DPHyPO) EvaluationCap(_ algo.Objective, budget int) (int, error) {
	return selection.PlanCap(m.Plan(budget))
}

// DesignSeconds implements baselines.CostHinter: the GP refitted on the last 200 released
// scores (SelectConfig.Window) and its 1024 candidates scored every round cost about
// 1.3e-4 budget min(budget, 200) seconds (least squares through the origin on the 300
// dp-hypo cells of reproduction/library-private's first ten figures, measured with two
// workers beside other jobs: an upper estimate).
func (DPHyPO) DesignSeconds(_, budget int) float64 {
	return 1.3e-4 * float64(budget) * float64(min(budget, 200))
}

// Check returns an error unless Mu is positive and Select and UCB are valid.
func (m DPHyPO) Check() error {
	if err := baselines.CheckMu("bo: dp-hypo", m.Mu); err != nil {
		return err
	}
	if _, err := m.Select.Resolved(); err != nil {
		return fmt.Errorf("bo: dp-hypo: %w", err)
	}
	if _, err := m.UCB.resolved(); err != nil {
		return fmt.Errorf("bo: dp-hypo: %w", err)
	}
	return nil
}

// projectDensity returns the Euclidean projection of the probability vector pi (on n
// points, pi_0 = 1/n each) onto {f : lower/n <= f_i <= upper/n, sum f = 1}: f_i =
// clamp(pi_i + nu) with nu found by bisection (the projection's optimality conditions),
// normalised to sum 1. It needs 0 < lower <= 1 <= upper.
func projectDensity(pi []float64, lower, upper float64) []float64 {
	n := float64(len(pi))
	lo, hi := lower/n, upper/n
	sum := func(nu float64) float64 {
		s := 0.0
		for _, p := range pi {
			s += math.Min(hi, math.Max(lo, p+nu))
		}
		return s
	}
	a, b := lo-slices.Max(pi), hi-slices.Min(pi) // sum(a) = n lo <= 1 <= n hi = sum(b)
	for range 200 {
		mid := 0.5 * (a + b)
		if sum(mid) < 1 {
			a = mid
		} else {
			b = mid
		}
	}
	out := make([]float64, len(pi))
	total := 0.0
	for i, p := range pi {
		out[i] = math.Min(hi, math.Max(lo, p+b))
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}

// hypoSampler is DP-HyPO's sampling distribution over its candidates.
type hypoSampler struct {
	cfg    selection.SelectConfig
	p      *search.Problem
	rng    *rand.Rand
	cands  [][]float64 // candidates in the box searched
	units  *mat.Dense  // the same in the unit cube, one per row
	gp     *ucbState
	weight []float64 // current density over the candidates (nil: uniform)
}

// newHyPOSampler draws the candidates uniformly from p's box.
func newHyPOSampler(cfg selection.SelectConfig, ucb UCBConfig, noiseVar float64, p *search.Problem, rng *rand.Rand) *hypoSampler {
	s := &hypoSampler{cfg: cfg, p: p, rng: rng, gp: newUCBState(p.Dim(), ucb, noiseVar)}
	s.units = mat.NewDense(cfg.Candidates, p.Dim(), nil)
	for i := range cfg.Candidates {
		theta := p.Uniform(rng)
		s.cands = append(s.cands, theta)
		s.units.SetRow(i, p.ToUnit(theta))
	}
	return s
}

// next samples a candidate from the current density with one uniform of rng.
func (s *hypoSampler) next() []float64 {
	u := s.rng.Float64()
	if s.weight == nil {
		return s.cands[min(int(u*float64(len(s.cands))), len(s.cands)-1)]
	}
	acc := 0.0
	for i, w := range s.weight {
		acc += w
		if u < acc {
			return s.cands[i]
		}
	}
	return s.cands[len(s.cands)-1]
}

// observe adds a released score and rebuilds the density from the GP on the window.
func (s *hypoSampler) observe(theta []float64, score float64) error {
	s.gp.add(s.p.ToUnit(theta), theta, score)
	if over := s.gp.count() - s.cfg.Window; over > 0 {
		s.gp.units, s.gp.thetas, s.gp.scores = s.gp.units[over:], s.gp.thetas[over:], s.gp.scores[over:]
	}
	if s.gp.count() < 2 {
		return nil
	}
	if err := s.gp.update(); err != nil {
		return err
	}
	acq := newAcquisition(s.gp)
	acq.sqrtB = s.cfg.UCBWeight
	lcb := acq.batch(s.units)
	lowest := slices.Min(lcb)
	pi := make([]float64, len(lcb))
	total := 0.0
	for i, v := range lcb {
		pi[i] = math.Exp(-s.cfg.Temperature * (v - lowest))
		total += pi[i]
	}
	for i := range pi {
		pi[i] /= total
	}
	s.weight = projectDensity(pi, s.cfg.DensityLower, s.cfg.DensityUpper)
	return nil
}

// Run implements baselines.Method.
func (m DPHyPO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "dp-hypo"
	if err := m.Check(); err != nil {
		return baselines.Result{}, err
	}
	cfg, _ := m.Select.Resolved()
	ucb, _ := m.UCB.resolved()
	plan, err := selection.HyPOPlan(m.Mu, budget, cfg)
	if err != nil {
		return baselines.Result{}, err
	}
	var sampler *hypoSampler
	sel := selection.Selection{Name: name, Plan: plan, LossBound: m.LossBound, OnScore: m.OnScore,
		Propose: func(p *search.Problem) []float64 {
			if sampler == nil {
				// The release's noise variance in the GP's units is set once n is known.
				noiseStd := plan.NoiseMultiplier * p.LossBound / float64(p.Users)
				sampler = newHyPOSampler(cfg, ucb, noiseStd*noiseStd, p, rng)
			}
			return sampler.next()
		},
		Observe: func(theta []float64, score float64) error { return sampler.observe(theta, score) },
	}
	return sel.RunReported(ctx, obj, rng, cb)
}
