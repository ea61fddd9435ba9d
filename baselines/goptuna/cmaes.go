package goptuna

import (
	"context"
	"fmt"
	"image/color"
	"math/rand/v2"

	"github.com/c-bata/goptuna/cmaes"
	"gonum.org/v1/gonum/mat"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// CMAES is the CMA-ES of github.com/c-bata/goptuna (v0.9.0, package cmaes) behind the
// Method interface, driven through goptuna's ask-and-tell Optimizer so that evaluation
// counting and the budget stay here. Its settings are those goptuna's CMA-ES sampler
// derives from a box: the search starts at the box's centre with step size sigma0 =
// min_j (hi_j - lo_j) / 6, samples are kept in the box (goptuna re-samples up to 100 times
// and then clamps), and the population size is goptuna's default 4 + floor(3 ln d). Each
// sample is one evaluation; a generation is told to the optimiser once all its samples are
// evaluated, so a budget that ends mid-generation leaves the last generation untold. When
// goptuna's own stopping test (Optimizer.ShouldStop) fires, the search restarts as
// IPOP-CMA-ES does: population size doubled, mean drawn uniformly from the box. The released
// theta is the best point by mean loss seen so far.
//
// Randomness: each optimiser is seeded with rng.Int64() (the first at the start of Run, one
// more per restart) and, unlike goptuna's TPE, draws only from that seeded source, so no
// GODEBUG setting is needed. A NaN or Inf loss is an error before the value reaches goptuna.
//
// It is NOT differentially private; its ledger is accounting.NonPrivateLedger(). It reports after
// every evaluation (Iter = Evals, Batch = 1).
type CMAES struct {
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var cmaesInfo = baselines.Info{Name: "goptuna-cmaes", Legend: "CMA-ES (goptuna)", Colour: color.RGBA{R: 0x5e, G: 0x5e, B: 0x11, A: 0xff}}

// Info implements baselines.Method.
func (CMAES) Info() baselines.Info { return cmaesInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (CMAES) Sweeps(param string) bool { return param == "noise" }

// Run implements baselines.Method.
func (m CMAES) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "goptuna-cmaes"
	p, err := search.NewSearch("goptuna", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	bounds := mat.NewDense(p.Dim(), 2, nil)
	for j := range p.Lo {
		bounds.Set(j, 0, p.Lo[j])
		bounds.Set(j, 1, p.Hi[j])
	}
	mean0, sigma0 := p.CMAStart()
	newOptimizer := func(mean []float64, popsize int) (*cmaes.Optimizer, error) {
		opts := []cmaes.OptimizerOption{cmaes.OptimizerOptionBounds(bounds), cmaes.OptimizerOptionSeed(rng.Int64())}
		if popsize > 0 {
			opts = append(opts, cmaes.OptimizerOptionPopulationSize(popsize))
		}
		o, err := cmaes.NewOptimizer(mean, sigma0, opts...)
		if err != nil {
			return nil, fmt.Errorf("goptuna: %s: goptuna: %w", name, err)
		}
		return o, nil
	}
	opt, err := newOptimizer(mean0, 0)
	if err != nil {
		return baselines.Result{}, err
	}

	for p.Remaining() > 0 {
		popsize := opt.PopulationSize()
		generation := make([]*cmaes.Solution, 0, popsize)
		for len(generation) < popsize && p.Remaining() > 0 {
			theta, err := opt.Ask()
			if err != nil {
				return baselines.Result{}, fmt.Errorf("goptuna: %s: goptuna: %w", name, err)
			}
			// observe rejects points outside the box and NaN/Inf losses before goptuna sees them.
			s, err := p.Observe(ctx, theta, baselines.Mean, m.OnScore, cb)
			if err != nil {
				return baselines.Result{}, err
			}
			generation = append(generation, &cmaes.Solution{Params: theta, Value: s})
		}
		if len(generation) < popsize {
			break // budget spent mid-generation
		}
		if err := opt.Tell(generation); err != nil {
			return baselines.Result{}, fmt.Errorf("goptuna: %s: goptuna: %w", name, err)
		}
		if opt.ShouldStop() {
			if opt, err = newOptimizer(p.Uniform(rng), 2*popsize); err != nil {
				return baselines.Result{}, err
			}
		}
	}
	return baselines.Result{Theta: p.Released(), Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}
