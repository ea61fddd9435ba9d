package registry_test

import (
	"context"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/baselines/registry"
)

// CoordSearch is compass search: from a uniform start it tries theta +- Step along each
// coordinate in turn, moves to any point that lowers the mean loss, and halves Step after
// a sweep without improvement. It is not private: the released point is an arg-min of
// validation losses.
type CoordSearch struct{}

func newCoordSearch(registry.Options) (baselines.Method, error) { return CoordSearch{}, nil }

// Info implements baselines.Method.
func (CoordSearch) Info() baselines.Info {
	return baselines.Info{Name: "coordsearch", Legend: "Coordinate search"}
}

// Sweeps implements baselines.Sweeper: the loss noise only.
func (CoordSearch) Sweeps(param string) bool { return param == "noise" }

// Run implements baselines.Method.
func (CoordSearch) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	// search.NewSearch checks the objective, its box and the budget; a coordinate the box
	// fixes (lo == hi) is left out of the search and put back into every point.
	p, err := search.NewSearch("baselines", "coordsearch", obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	// The start is uniform in the box, drawn from rng.
	best := p.Uniform(rng)
	// Evaluate charges one evaluation and rejects points outside the box and NaN losses.
	losses, err := p.Evaluate(ctx, best)
	if err != nil {
		return baselines.Result{}, err
	}
	bestScore := baselines.Mean(losses)
	// Report calls cb after every evaluation with a copy of the released theta.
	if err := p.Report(cb, best); err != nil {
		return baselines.Result{}, err
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
				return baselines.Result{}, err
			}
			if s := baselines.Mean(losses); s < bestScore {
				best, bestScore, improved = trial, s, true
			}
			if err := p.Report(cb, best); err != nil {
				return baselines.Result{}, err
			}
		}
		if !improved {
			for j := range step {
				step[j] /= 2
			}
		}
	}
	// Expand puts the fixed coordinates back into the released theta.
	return baselines.Result{Theta: p.Expand(best), Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}
