package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
)

// DPUCB is differentially private GP-UCB (registry name "dp-ucb"): the GP-UCB loop of UCB
// with budget N in which every observation is a Gaussian release,
//
//	y_t = ClippedMean(losses(theta_t), Lmax) + N(0, s^2),   s = DPUCBNoiseStd(Lmax, n, N, mu)
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
// Lmax is Options.LossBound or the objective's LossBound(). With Mu = +Inf no noise is
// added and the GP noise floor is zero; it is then UCB on clipped losses except that it
// releases by posterior mean. Its ledger is algo.NewLedger(mu, N). It reports after every
// evaluation (Iter = Evals, Batch = 1); Options.OnScore receives each noisy observation.
type DPUCB struct {
	opt Options
}

func newDPUCB(opt Options) (Method, error) {
	if err := checkMu("dp-ucb", opt.Mu); err != nil {
		return nil, err
	}
	if _, err := opt.UCB.resolved(); err != nil {
		return nil, err
	}
	return &DPUCB{opt: opt}, nil
}

// Run implements Method.
func (m *DPUCB) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	const name = "dp-ucb"
	p, bound, err := privateProblem(name, m.opt, obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	noiseStd := DPUCBNoiseStd(bound, p.Users, budget, m.opt.Mu)
	score := func(losses []float64) float64 { return ClippedMean(losses, bound) }
	theta, err := runGPUCB(ctx, p, rng, cb, m.opt, score, noiseStd, true)
	if err != nil {
		return algo.Result{}, err
	}
	return algo.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: algo.NewLedger(m.opt.Mu, budget)}, nil
}
