package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/internal/search"
)

// Random is random search: it evaluates budget points drawn independently and uniformly
// from the box (the paper matches the budget to DP-GIBO's T(d+1)) and releases the point
// with the smallest mean validation loss seen so far.
//
// It is NOT differentially private: the released point is the arg-min of the validation
// losses, a function of the validation data with no calibrated noise. Its ledger is
// algo.NonPrivateLedger(). dp-random is its private counterpart.
//
// It reports after every evaluation (Iter = Evals = evaluations so far, Batch = 1), and
// draws exactly d rng.Float64 values per evaluation, coordinate by coordinate.
type Random struct {
	opt Options
}

func newRandom(opt Options) (Method, error) { return &Random{opt: opt}, nil }

// Run implements Method.
func (m *Random) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	p, err := search.NewSearch("baselines", "random", obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	theta, err := uniformSearch(ctx, p, rng, cb, m.opt.OnScore, mean, 0)
	if err != nil {
		return algo.Result{}, err
	}
	return algo.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: algo.NonPrivateLedger()}, nil
}

// uniformSearch evaluates p.budget points drawn uniformly from the box; each point's score
// is GaussianRelease(score(losses), noiseStd, rng), and the point with the smallest score so
// far is the released one (ties keep the earlier point). Per evaluation it draws d
// rng.Float64 values, then (only when noiseStd > 0) one rng.NormFloat64.
func uniformSearch(ctx context.Context, p *search.Problem, rng *rand.Rand, cb algo.Callback, onScore func([]float64, float64),
	score func([]float64) float64, noiseStd float64) ([]float64, error) {
	release := func(losses []float64) float64 { return GaussianRelease(score(losses), noiseStd, rng) }
	for p.Remaining() > 0 {
		if _, err := p.Observe(ctx, p.Uniform(rng), release, onScore, cb); err != nil {
			return nil, err
		}
	}
	return p.Released(), nil
}
