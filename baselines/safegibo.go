package baselines

import (
	"context"
	"fmt"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/private"
)

// SafeGIBO runs private.SafeGIBO (registry name "dpgibo-safe") or private.HybridGIBO
// ("dpgibo-hybrid") with Options.Settings at Options.Mu, from theta0 as "dpgibo" draws it
// (Options.Theta0, or a uniform draw from the box as the first draws from rng), with
// Options.LossBound (0: the objective's; one is required). Its callback sees DP-GIBO's
// iterations (the hybrid's chosen start first) and the release last; its ledger composes
// DP-GIBO's parts and the private choices'.
type SafeGIBO struct {
	gibo   *GIBO
	hybrid bool
}

func newSafeGIBO(hybrid bool) func(Options) (Method, error) {
	return func(opt Options) (Method, error) {
		name := "dpgibo-safe"
		if hybrid {
			name = "dpgibo-hybrid"
		}
		g := &GIBO{name: name, private: true, opt: opt}
		if _, err := g.settings(1); err != nil {
			return nil, err
		}
		return &SafeGIBO{gibo: g, hybrid: hybrid}, nil
	}
}

// Run implements Method.
func (m *SafeGIBO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	theta0, s, err := m.gibo.start(obj, budget, rng)
	if err != nil {
		return algo.Result{}, err
	}
	s.MaxEvals = 0 // the private method splits the budget itself
	var res private.Result
	if m.hybrid {
		res, err = private.HybridGIBO{Settings: s, LossBound: m.gibo.opt.LossBound}.Run(ctx, obj, theta0, budget, rng, cb)
	} else {
		res, err = private.SafeGIBO{Settings: s, LossBound: m.gibo.opt.LossBound}.Run(ctx, obj, theta0, budget, rng, cb)
	}
	if err != nil {
		return algo.Result{}, fmt.Errorf("baselines: %w", err)
	}
	out := *res.GIBO
	out.Theta, out.Evals, out.Ledger = res.Theta, res.Evals, res.Ledger
	return out, nil
}

// Auto is the library's one call, private.Tune (registry name "dp-auto"): the private method
// Options.Rule (nil: private.DefaultRule) chooses from the public facts, at Options.Mu, with
// the budget, Options.Theta0 (nil: the box centre) and Options.LossBound (0: the
// objective's). Its report and result give a selection's mean number of trials, never K.
type Auto struct{ opt Options }

func newAuto(opt Options) (Method, error) {
	if err := checkMu("dp-auto", opt.Mu); err != nil {
		return nil, err
	}
	return &Auto{opt: opt}, nil
}

// Run implements Method.
func (m *Auto) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	if budget <= 0 {
		return algo.Result{}, fmt.Errorf("baselines: dp-auto: budget must be positive, got %d", budget)
	}
	res, err := private.Tune(ctx, obj, private.Config{Mu: m.opt.Mu, Evals: budget, Theta0: m.opt.Theta0, LossBound: m.opt.LossBound, LogLoss: m.opt.LogLoss, Rule: m.opt.Rule}, rng, cb)
	if err != nil {
		return algo.Result{}, fmt.Errorf("baselines: dp-auto: %w", err)
	}
	out := algo.Result{Theta: res.Theta, Evals: res.Evals, Iters: res.Iters, Ledger: res.Ledger, NonPrivateTrials: res.NonPrivateTrials}
	if res.GIBO != nil {
		out.Status, out.Warnings, out.Clip, out.Clips, out.Calibration, out.BLAS = res.GIBO.Status, res.GIBO.Warnings, res.GIBO.Clip, res.GIBO.Clips, res.GIBO.Calibration, res.GIBO.BLAS
	}
	return out, nil
}
