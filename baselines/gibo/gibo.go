// Package gibo is the DP-GIBO family of methods (baselines.Method): DP-GIBO and its
// non-private counterpart GIBO, which run package algo's loop (Algorithm 1), and two
// private variants that spend part of mu on private choices around it: Safe, DP-GIBO with
// a safe release between its start and its last iterate, and Hybrid, which also chooses
// its start privately among data-independent candidates. mu has one home here:
// Settings.Mu.
package gibo

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/tasks"
)

// DPGIBO runs algo.Minimize with Settings (registry name "dpgibo"): DP-GIBO at
// Settings.Mu-GDP (math.Inf(1): no privacy noise). Settings.MaxEvals is capped at the budget,
// so the run stops before an iteration whose batch would exceed it. The start is Theta0 or,
// when nil, a uniform draw from the box taken as the first draws from rng (d rng.Float64
// values), so that DPGIBO and GIBO with the same seed start from the same point; rng then
// drives algo.Minimize. The callback, the released theta and the ledger are algo.Minimize's:
// one report per DP-GIBO iteration. A budget below the first iteration's batch (d+1
// evaluations by default) is an error.
type DPGIBO struct {
	Settings algo.Settings
	// Theta0 is the start, chosen without the validation data (nil: a uniform draw).
	Theta0 []float64
	// LossBound, when positive, is declared to algo.Minimize (algo.WithLossBound) for the
	// defaults that depend on it, so that a wrapper around the objective cannot hide it.
	LossBound float64
}

// GIBO is DPGIBO without privacy noise (registry name "gibo"): the same algorithm with
// Settings.Mu = +Inf whatever Settings.Mu says, the same start and the same callback. It is
// NOT differentially private.
type GIBO DPGIBO

var (
	dpgiboInfo = baselines.Info{Name: "dpgibo", Legend: "DP-GIBO", Colour: color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, Private: true, Local: true}
	giboInfo   = baselines.Info{Name: "gibo", Legend: "GIBO", Colour: color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, Local: true}
)

// Info implements baselines.Method.
func (DPGIBO) Info() baselines.Info { return dpgiboInfo }

// Info implements baselines.Method.
func (GIBO) Info() baselines.Info { return giboInfo }

// Sweeps implements baselines.Sweeper: every swept parameter.
func (DPGIBO) Sweeps(string) bool { return true }

// Sweeps implements baselines.Sweeper: every swept parameter but mu.
func (GIBO) Sweeps(param string) bool { return param != "mu" }

// PairedWith names DPGIBO: GIBO is DP-GIBO without its noise, from the same start and with
// the same random stream, so that the two methods' runs of one seed are paired by design.
func (GIBO) PairedWith() string { return dpgiboInfo.Name }

// Check returns an error unless Settings.Mu is positive (math.Inf(1): no privacy noise).
func (m DPGIBO) Check() error {
	if s := m.Settings; math.IsNaN(s.Mu) || s.Mu <= 0 {
		return fmt.Errorf("gibo: dpgibo: Settings.Mu must be positive (math.Inf(1) for no privacy noise), got %v", s.Mu)
	}
	return nil
}

// Run implements baselines.Method.
func (m DPGIBO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := m.Check(); err != nil {
		return baselines.Result{}, err
	}
	return run(ctx, dpgiboInfo.Name, m, obj, budget, rng, cb)
}

// Run implements baselines.Method.
func (m GIBO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	m.Settings.Mu = math.Inf(1)
	return run(ctx, giboInfo.Name, DPGIBO(m), obj, budget, rng, cb)
}

// run is DPGIBO's and GIBO's run.
func run(ctx context.Context, name string, m DPGIBO, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	theta0, err := start(name, m.Theta0, obj, budget, rng)
	if err != nil {
		return baselines.Result{}, err
	}
	s := m.Settings
	if s.MaxEvals == 0 || s.MaxEvals > budget {
		s.MaxEvals = budget
	}
	if m.LossBound != 0 {
		obj = algo.WithLossBound(obj, m.LossBound)
	}
	res, err := algo.Minimize(ctx, obj, theta0, s, rng, cb)
	if err != nil {
		// The budget is Settings.MaxEvals (or caps it): name it, since a budget below the
		// first batch is reported by algo as MaxEvals.
		return baselines.Result{}, fmt.Errorf("gibo: %s (budget %d): %w", name, budget, err)
	}
	return fromAlgo(res), nil
}

// fromAlgo is algo.Minimize's result as a baselines.Result.
func fromAlgo(r algo.Result) baselines.Result {
	return baselines.Result{Theta: r.Theta, Evals: r.Evals, Iters: r.Iters, Ledger: r.Ledger, Warnings: r.Warnings, GIBO: &r}
}

// start checks obj and budget and returns the run's start: theta0 (checked against the
// box, copied), or a uniform draw from the box as the first draws from rng.
func start(name string, theta0 []float64, obj algo.Objective, budget int, rng *rand.Rand) ([]float64, error) {
	p, err := search.NewProblem("gibo", name, obj, budget)
	if err != nil {
		return nil, err
	}
	if theta0 == nil {
		return p.Uniform(rng), nil
	}
	if err := tasks.CheckTheta("gibo: "+name+": Theta0", theta0, p.Lo, p.Hi); err != nil {
		return nil, err
	}
	return append([]float64(nil), theta0...), nil
}
