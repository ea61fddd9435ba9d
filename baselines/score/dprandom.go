package score

import (
	"context"
	"image/color"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// DPRandom is differentially private random search (registry name "dp-random"). It draws
// K = budget candidates independently and uniformly from the box (data-independent), and
// for each releases its clipped mean loss baselines.ClippedMean(losses, Lmax) plus Gaussian
// noise of standard deviation baselines.GaussianNoiseStd(Lmax, n, K, mu) = (Lmax/n)*sqrt(K)/mu. Each release is
// (mu/sqrt(K))-GDP and the K releases together mu-GDP under replacement of one validation
// user; the released theta, the candidate with the smallest noisy score so far, is
// post-processing.
//
// Lmax is LossBound or, when that is zero, the objective's LossBound(). With
// Mu = +Inf no noise is drawn and dp-random is exactly random search on the clipped
// losses (same seed, same candidates, same release). Its ledger is
// accounting.NewLedger(mu, K): the noise is calibrated to K releases fixed before the run.
//
// It reports after every evaluation like Random; OnScore receives each noisy score.
type DPRandom struct {
	// Mu is the run's mu-GDP (math.Inf(1): no noise).
	Mu float64
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	// OnScore, when non-nil, receives every point evaluated (a copy) and its noisy score.
	OnScore func(theta []float64, score float64)
}

var dpRandomInfo = baselines.Info{Name: "dp-random", Legend: "DP-Random", Colour: color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, Private: true}

// Info implements baselines.Method.
func (DPRandom) Info() baselines.Info { return dpRandomInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (DPRandom) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Run implements baselines.Method.
func (m DPRandom) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "dp-random"
	if err := baselines.CheckMu("score: "+name, m.Mu); err != nil {
		return baselines.Result{}, err
	}
	p, err := search.NewSearch("score", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	bound, err := baselines.LossBoundOf("score: "+name, m.LossBound, obj)
	if err != nil {
		return baselines.Result{}, err
	}
	noiseStd := baselines.GaussianNoiseStd(bound, p.Users, budget, m.Mu)
	score := func(losses []float64) float64 { return baselines.ClippedMean(losses, bound) }
	theta, err := uniformSearch(ctx, p, rng, cb, m.OnScore, score, noiseStd)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NewLedger(m.Mu, budget)}, nil
}
