package bo

import (
	"context"
	"image/color"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// DPUCB is differentially private GP-UCB (registry name "dp-ucb"): the GP-UCB loop of UCB
// with budget N in which every observation is a Gaussian release,
//
//	y_t = baselines.ClippedMean(losses(theta_t), Lmax) + N(0, s^2),   s = baselines.GaussianNoiseStd(Lmax, n, N, mu)
//	                                                          = (Lmax/n)*sqrt(N)/mu,
//
// each (mu/sqrt(N))-GDP given the previous ones, so the whole run is mu-GDP by adaptive
// composition under replacement of one validation user. The surrogate sees only the
// releases: its noise variance is bounded below by s^2 (in standardised units
// s^2/sd(y)^2, so the marginal-likelihood fit cannot explain the release noise as signal),
// and the released theta is the observed point with the smallest posterior mean of the
// current surrogate (post-processing; the single first point before two observations
// exist). The choice of every next point and the final release are post-processing.
//
// Relation to Kusner et al. (2015), "Differentially private Bayesian optimization": they
// run the GP-UCB loop on the non-private validation scores and privatise only what is
// published at the end (the chosen hyperparameter, picked among the evaluated points with
// the exponential mechanism, and its score), with a sensitivity analysis of the whole
// GP-UCB path that assumes the validation score of neighbouring datasets differ by a
// function of bounded RKHS norm (or, without that assumption, a Lipschitz-type smoothness
// bound). dp-ucb instead privatises every observation, so its guarantee needs only the
// public per-user loss bound Lmax and holds for any loss; the price is observation noise
// that grows like sqrt(N)/mu, which the GP treats as known noise. Both are global methods
// and share GP-UCB's dependence on the dimension.
//
// Lmax is LossBound or the objective's LossBound(). With Mu = +Inf no noise is
// added and the GP noise floor is zero; it is then UCB on clipped losses except that it
// releases by posterior mean. Its ledger is accounting.NewLedger(mu, N). It reports after every
// evaluation (Iter = Evals, Batch = 1); OnScore receives each noisy observation.
type DPUCB struct {
	// Mu is the run's mu-GDP (math.Inf(1): no noise).
	Mu float64
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	Config    UCBConfig
	// OnScore, when non-nil, receives every point evaluated (a copy) and its noisy score.
	OnScore func(theta []float64, score float64)
}

var dpUCBInfo = baselines.Info{Name: "dp-ucb", Legend: "DP-UCB", Colour: color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, Private: true, Revision: 3}

// Info implements baselines.Method. Revision 3 is UCB's.
func (DPUCB) Info() baselines.Info { return dpUCBInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (DPUCB) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Check returns an error unless Mu is positive and Config valid.
func (m DPUCB) Check() error {
	if err := baselines.CheckMu("bo: dp-ucb", m.Mu); err != nil {
		return err
	}
	_, err := m.Config.resolved()
	return err
}

// Run implements baselines.Method.
func (m DPUCB) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	return m.run(ctx, dpUCBInfo.Name, obj, budget, rng, cb)
}

// run is dp-ucb's loop under name, with the surrogate m.Config says (UCB's, or ucb-scaled's
// for dp-ucb-scaled).
func (m DPUCB) run(ctx context.Context, name string, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := baselines.CheckMu("bo: "+name, m.Mu); err != nil {
		return baselines.Result{}, err
	}
	p, err := search.NewSearch("bo", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	bound, err := baselines.LossBoundOf("bo: "+name, m.LossBound, obj)
	if err != nil {
		return baselines.Result{}, err
	}
	noiseStd := baselines.GaussianNoiseStd(bound, p.Users, budget, m.Mu)
	score := func(losses []float64) float64 { return baselines.ClippedMean(losses, bound) }
	theta, err := runGPUCB(ctx, p, rng, cb, m.Config, m.OnScore, score, noiseStd, true)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NewLedger(m.Mu, budget)}, nil
}
