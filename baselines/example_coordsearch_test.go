package baselines

import (
	"context"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/internal/search"
)

// CoordSearch is compass search: from a uniform start it tries theta +- Step along each
// coordinate in turn, moves to any point that lowers the mean loss, and halves Step after
// a sweep without improvement. It is not private: the released point is an arg-min of
// validation losses.
type CoordSearch struct{ opt Options }

func newCoordSearch(opt Options) (Method, error) { return &CoordSearch{opt: opt}, nil }

// Run implements Method.
func (m *CoordSearch) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	// search.NewSearch checks the objective, its box and the budget; a coordinate the box
	// fixes (lo == hi) is left out of the search and put back into every point.
	p, err := search.NewSearch("baselines", "coordsearch", obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	// The start is uniform in the box, drawn from rng.
	best := p.Uniform(rng)
	// Evaluate charges one evaluation and rejects points outside the box and NaN losses.
	losses, err := p.Evaluate(ctx, best)
	if err != nil {
		return algo.Result{}, err
	}
	bestScore := mean(losses)
	// Report calls cb after every evaluation with a copy of the released theta.
	if err := p.Report(cb, best); err != nil {
		return algo.Result{}, err
	}
	step := make([]float64, p.Dim())
	for j := range step {
		step[j] = (p.Hi[j] - p.Lo[j]) / 4
	}
	for p.Remaining() > 0 {
		improved := false
		for k := 0; k < 2*p.Dim() && p.Remaining() > 0; k++ {
			j, sign := k/2, float64(1-2*(k%2)) // +e_0, -e_0, +e_1, ...
			trial := append([]float64(nil), best...)
			trial[j] = math.Min(p.Hi[j], math.Max(p.Lo[j], trial[j]+sign*step[j]))
			losses, err := p.Evaluate(ctx, trial)
			if err != nil {
				return algo.Result{}, err
			}
			if s := mean(losses); s < bestScore {
				best, bestScore, improved = trial, s, true
			}
			if err := p.Report(cb, best); err != nil {
				return algo.Result{}, err
			}
		}
		if !improved {
			for j := range step {
				step[j] /= 2
			}
		}
	}
	// expand puts the fixed coordinates back into the released theta.
	return algo.Result{Theta: p.Expand(best), Evals: p.Evals, Iters: p.Evals, Ledger: algo.NonPrivateLedger()}, nil
}
