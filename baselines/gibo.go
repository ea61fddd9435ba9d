package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/internal/search"
	"dpgibo/tasks"
)

// GIBO runs algo.Minimize: DP-GIBO (registry name "dpgibo", private) or its non-private
// counterpart GIBO ("gibo", the same algorithm with Mu = +Inf).
//
// The settings are Options.Settings with Mu = +Inf for gibo and, for dpgibo, Options.Mu
// when non-zero (otherwise Settings.Mu, which must then be set). Settings.MaxEvals is capped
// at the budget, so the run stops before an iteration whose batch would exceed it. The
// start theta0 is Options.Theta0 or, when nil, a uniform draw from the box taken as the
// first draws from rng (d rng.Float64 values), so that dpgibo and gibo with the same seed
// start from the same point; rng then drives algo.Minimize. The callback, the released
// theta and the ledger are algo.Minimize's: one report per DP-GIBO iteration. A budget
// below the first iteration's batch (d+1 evaluations by default) is an error.
type GIBO struct {
	name    string
	private bool
	opt     Options
}

func newDPGIBO(opt Options) (Method, error) {
	g := &GIBO{name: "dpgibo", private: true, opt: opt}
	if _, err := g.settings(1); err != nil {
		return nil, err
	}
	return g, nil
}

func newGIBO(opt Options) (Method, error) {
	return &GIBO{name: "gibo", private: false, opt: opt}, nil
}

// settings returns the algo.Settings of a run with the given budget.
func (g *GIBO) settings(budget int) (algo.Settings, error) {
	s := g.opt.Settings
	if g.private {
		if g.opt.Mu != 0 {
			s.Mu = g.opt.Mu
		}
		if math.IsNaN(s.Mu) || s.Mu <= 0 {
			return s, fmt.Errorf("baselines: dpgibo: Options.Mu (or Options.Settings.Mu) must be positive (math.Inf(1) for no privacy noise), got %v", s.Mu)
		}
	} else {
		s.Mu = math.Inf(1)
	}
	if s.MaxEvals == 0 || s.MaxEvals > budget {
		s.MaxEvals = budget
	}
	return s, nil
}

// Run implements Method.
func (g *GIBO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	theta0, s, err := g.start(obj, budget, rng)
	if err != nil {
		return algo.Result{}, err
	}
	if g.opt.LossBound != 0 {
		obj = algo.WithLossBound(obj, g.opt.LossBound)
	}
	res, err := algo.Minimize(ctx, obj, theta0, s, rng, cb)
	if err != nil {
		// The budget is Settings.MaxEvals (or caps it): name it, since a budget below the
		// first batch is reported by algo as MaxEvals.
		return res, fmt.Errorf("baselines: %s (budget %d): %w", g.name, budget, err)
	}
	return res, nil
}

// start checks obj and budget and returns theta0 (Options.Theta0, or a uniform draw from the
// box as the first draws from rng) and the run's settings.
func (g *GIBO) start(obj algo.Objective, budget int, rng *rand.Rand) ([]float64, algo.Settings, error) {
	p, err := search.NewProblem("baselines", g.name, obj, budget)
	if err != nil {
		return nil, algo.Settings{}, err
	}
	var theta0 []float64
	if g.opt.Theta0 != nil {
		if err := tasks.CheckTheta("baselines: "+g.name+": Options.Theta0", g.opt.Theta0, p.Lo, p.Hi); err != nil {
			return nil, algo.Settings{}, err
		}
		theta0 = append([]float64(nil), g.opt.Theta0...)
	} else {
		theta0 = p.Uniform(rng)
	}
	s, err := g.settings(budget)
	return theta0, s, err
}
