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

// Random is random search: it evaluates budget points drawn independently and uniformly
// from the box (the paper matches the budget to DP-GIBO's T(d+1)) and releases the point
// with the smallest mean validation loss seen so far.
//
// It is NOT differentially private: the released point is the arg-min of the validation
// losses, a function of the validation data with no calibrated noise. Its ledger is
// accounting.NonPrivateLedger(). dp-random is its private counterpart.
//
// It reports after every evaluation (Iter = Evals = evaluations so far, Batch = 1), and
// draws exactly d rng.Float64 values per evaluation, coordinate by coordinate.
type Random struct {
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var randomInfo = baselines.Info{Name: "random", Legend: "Random Search", Colour: color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}}

// Info implements baselines.Method.
func (Random) Info() baselines.Info { return randomInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (Random) Sweeps(param string) bool { return param == "noise" }

// Run implements baselines.Method.
func (m Random) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	p, err := search.NewSearch("score", "random", obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	theta, err := uniformSearch(ctx, p, rng, cb, m.OnScore, baselines.Mean, 0)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}

// uniformSearch evaluates p.budget points drawn uniformly from the box; each point's score
// is GaussianRelease(score(losses), noiseStd, rng), and the point with the smallest score so
// far is the released one (ties keep the earlier point). Per evaluation it draws d
// rng.Float64 values, then (only when noiseStd > 0) one rng.NormFloat64.
func uniformSearch(ctx context.Context, p *search.Problem, rng *rand.Rand, cb algo.Callback, onScore func([]float64, float64),
	score func([]float64) float64, noiseStd float64) ([]float64, error) {
	release := func(losses []float64) float64 { return baselines.GaussianRelease(score(losses), noiseStd, rng) }
	for p.Remaining() > 0 {
		if _, err := p.Observe(ctx, p.Uniform(rng), release, onScore, cb); err != nil {
			return nil, err
		}
	}
	return p.Released(), nil
}
