package baselines

import (
	"context"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// DPRNM is report-noisy-min private selection (registry name "dp-rnm"): it draws K = budget
// candidates independently and uniformly from the box (data-independent), scores each by
// its clipped mean loss ClippedMean(losses, Lmax) (sensitivity Delta = Lmax/n under
// replacement of one validation user), adds Laplace noise of scale DPRNMNoiseScale =
// 2 Delta/eps to every score and releases only the candidate of smallest noisy score. The
// scores are not monotone in the data (one user can raise one candidate's score and lower
// another's), so the noise is 2 Delta/eps rather than Delta/eps: with the other scores'
// noise fixed, the noise a candidate needs to win moves by at most 2 Delta between
// neighbouring data sets, and the release is eps-DP (Dwork and Roth 2014, section 3.3,
// report noisy max, with the factor 2 for scores that are not monotone).
//
// eps is PureEpsilon(Options.Mu, Options.Currency). Nothing is released before the end:
// the callback sees one report, after the K-th evaluation. Its ledger is
// algo.NewPureLedger("selection", eps). With Options.Mu = +Inf no noise is drawn and
// dp-rnm releases the candidate of smallest clipped mean loss (random search on the
// clipped losses, reported once).
type DPRNM struct {
	opt Options
}

func newDPRNM(opt Options) (Method, error) {
	if err := checkMu("dp-rnm", opt.Mu); err != nil {
		return nil, err
	}
	if _, err := PureEpsilon(opt.Mu, opt.Currency); err != nil {
		return nil, err
	}
	return &DPRNM{opt: opt}, nil
}

// NewDPRNM returns dp-rnm at DP-GIBO's mu in the given currency, with the loss bound
// lossBound (0: the objective's).
func NewDPRNM(mu float64, currency Currency, lossBound float64) (*DPRNM, error) {
	m, err := newDPRNM(Options{Mu: mu, Currency: currency, LossBound: lossBound})
	if err != nil {
		return nil, err
	}
	return m.(*DPRNM), nil
}

// DPRNMNoiseScale is the scale b = 2 (lossBound/users)/eps of the Laplace noise dp-rnm adds
// to each candidate's clipped mean loss; 0 for eps = +Inf.
func DPRNMNoiseScale(lossBound float64, users int, eps float64) float64 {
	if math.IsInf(eps, 1) {
		return 0
	}
	return 2 * lossBound / float64(users) / eps
}

// Run implements Method.
func (m *DPRNM) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	const name = "dp-rnm"
	p, bound, err := privateProblem(name, m.opt, obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	eps, err := PureEpsilon(m.opt.Mu, m.opt.Currency)
	if err != nil {
		return algo.Result{}, err
	}
	scale := DPRNMNoiseScale(bound, p.users, eps)
	var best []float64
	bestScore := math.Inf(1)
	for p.remaining() > 0 {
		theta := p.uniform(rng)
		losses, err := p.evaluate(ctx, theta)
		if err != nil {
			return algo.Result{}, err
		}
		score := ClippedMean(losses, bound) + laplace(scale, rng)
		if best == nil || score < bestScore {
			best, bestScore = theta, score
		}
	}
	p.best = best
	if err := p.report(cb, best); err != nil {
		return algo.Result{}, err
	}
	ledger := algo.NonPrivateLedger()
	if !math.IsInf(eps, 1) {
		if ledger, err = algo.NewPureLedger("selection", eps); err != nil {
			return algo.Result{}, err
		}
	}
	return algo.Result{Theta: p.released(), Evals: p.evals, Iters: 1, Ledger: ledger}, nil
}

// laplace draws from the Laplace distribution of scale b as b times the difference of two
// standard exponentials (two rng.ExpFloat64 draws); b = 0 returns 0 and draws nothing.
func laplace(b float64, rng *rand.Rand) float64 {
	if b == 0 {
		return 0
	}
	return b * (rng.ExpFloat64() - rng.ExpFloat64())
}
