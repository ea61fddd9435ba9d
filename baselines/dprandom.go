package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
)

// DPRandom is differentially private random search (registry name "dp-random"). It draws
// K = budget candidates independently and uniformly from the box (data-independent), and
// for each releases its clipped mean loss ClippedMean(losses, Lmax) plus Gaussian noise of
// standard deviation DPRandomNoiseStd(Lmax, n, K, mu) = (Lmax/n)*sqrt(K)/mu. Each release is
// (mu/sqrt(K))-GDP and the K releases together mu-GDP under replacement of one validation
// user; the released theta, the candidate with the smallest noisy score so far, is
// post-processing.
//
// Lmax is Options.LossBound or, when that is zero, the objective's LossBound(). With
// Options.Mu = +Inf no noise is drawn and dp-random is exactly random search on the clipped
// losses (same seed, same candidates, same release). Its ledger is
// algo.NewLedger(mu, K): the noise is calibrated to K releases fixed before the run.
//
// It reports after every evaluation like Random; Options.OnScore receives each noisy score.
type DPRandom struct {
	opt Options
}

func newDPRandom(opt Options) (Method, error) {
	if err := checkMu("dp-random", opt.Mu); err != nil {
		return nil, err
	}
	return &DPRandom{opt: opt}, nil
}

// Run implements Method.
func (m *DPRandom) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	const name = "dp-random"
	p, bound, err := privateProblem(name, m.opt, obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	noiseStd := DPRandomNoiseStd(bound, p.Users, budget, m.opt.Mu)
	score := func(losses []float64) float64 { return ClippedMean(losses, bound) }
	theta, err := uniformSearch(ctx, p, rng, cb, m.opt.OnScore, score, noiseStd)
	if err != nil {
		return algo.Result{}, err
	}
	return algo.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: algo.NewLedger(m.opt.Mu, budget)}, nil
}
