package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
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
// Options.Rule (nil: private.DefaultRule) chooses from the public facts, with the budget,
// Options.Theta0 (nil: the box centre) and Options.LossBound (0: the objective's). Its
// report and result give a selection's mean number of trials, never K.
//
// Its revisions (Options.AutoRevision; 0: the registry's, MethodInfo.Revision):
//
//   - 2 and 3 ran before the library delivered the guarantee asked for: DP-GIBO and its
//     variants at Options.Mu, the selections at the (epsilon, 1e-5) of Mu
//     (CurrencyEpsDelta), whatever the rule chose. Revision 2's rule is the first round's,
//     which the runner sets in Options.Rule; revision 3's is the second round's, which
//     private.DefaultRule still is. They are kept, computed as they were, for the committed
//     cells that ran them.
//   - 4 is private.Tune at a target that it meets exactly, in Options.Currency: Mu-GDP at
//     CurrencyGDP, the (epsilon, 1e-5)-DP of Mu-GDP at CurrencyEpsDelta (Mu = +Inf: no
//     privacy noise), the registry's.
type Auto struct{ opt Options }

// Revisions of dp-auto (Options.AutoRevision).
const (
	autoSecondRound = 3 // the last revision before the target
	autoTarget      = 4 // private.Tune at the target
)

func newAuto(opt Options) (Method, error) {
	if err := checkMu("dp-auto", opt.Mu); err != nil {
		return nil, err
	}
	if r := opt.AutoRevision; r != 0 && r != 2 && r != autoSecondRound && r != autoTarget {
		return nil, fmt.Errorf("baselines: dp-auto: unknown revision %d (known: 2, %d, %d)", r, autoSecondRound, autoTarget)
	}
	return &Auto{opt: opt}, nil
}

// revision is the revision m runs.
func (m *Auto) revision() int {
	if m.opt.AutoRevision != 0 {
		return m.opt.AutoRevision
	}
	info, _ := Info("dp-auto")
	return info.Revision
}

// config is private.Tune's Config at revision 4 for budget.
func (m *Auto) config(budget int) (private.Config, error) {
	o := m.opt
	cfg := private.Config{Evals: budget, Theta0: o.Theta0, LossBound: o.LossBound, LogLoss: o.LogLoss, Rule: o.Rule}
	if o.Currency == CurrencyGDP || math.IsInf(o.Mu, 1) {
		cfg.Mu = o.Mu
		return cfg, nil
	}
	eps, err := algo.EpsilonForDelta(o.Mu, algo.DefaultDelta)
	if err != nil {
		return cfg, err
	}
	cfg.EpsDelta = accounting.EpsDelta{Epsilon: eps, Delta: algo.DefaultDelta}
	return cfg, nil
}

// Run implements Method.
func (m *Auto) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	if budget <= 0 {
		return algo.Result{}, fmt.Errorf("baselines: dp-auto: budget must be positive, got %d", budget)
	}
	var res private.Result
	var err error
	if m.revision() < autoTarget {
		res, err = m.runBeforeTarget(ctx, obj, budget, rng, cb)
	} else {
		var cfg private.Config
		if cfg, err = m.config(budget); err == nil {
			res, err = private.Tune(ctx, obj, cfg, rng, cb)
		}
	}
	if err != nil {
		return algo.Result{}, fmt.Errorf("baselines: dp-auto: %w", err)
	}
	out := algo.Result{Theta: res.Theta, Evals: res.Evals, Iters: res.Iters, Ledger: res.Ledger, NonPrivateTrials: res.NonPrivateTrials}
	if res.GIBO != nil {
		out.Status, out.Warnings, out.Clip, out.Clips, out.Calibration, out.BLAS = res.GIBO.Status, res.GIBO.Warnings, res.GIBO.Clip, res.GIBO.Clips, res.GIBO.Calibration, res.GIBO.BLAS
	}
	if m.revision() >= autoTarget {
		out.Warnings = res.Warnings // Forecast's and the DP-GIBO run's
	}
	return out, nil
}

// planBeforeTarget is the rule's choice on obj's public facts at revisions 2 and 3, and the
// most evaluations it may use (a selection with a random number of trials: its cap at the
// (epsilon, 1e-5) of Mu).
func (m *Auto) planBeforeTarget(obj algo.Objective, budget int) (private.Facts, private.Choice, int, error) {
	o := m.opt
	// The facts are those of a mu-GDP target at Mu, as revisions 2 and 3 read them; the
	// forecast of DP-GIBO, which every objective admits, validates them.
	p, err := private.Forecast(obj, private.Config{Mu: o.Mu, Evals: budget, Theta0: o.Theta0, LossBound: o.LossBound, LogLoss: o.LogLoss, Rule: private.Always{Method: private.DPGIBO}})
	if err != nil {
		return private.Facts{}, private.Choice{}, 0, err
	}
	f := p.Facts
	rule := o.Rule
	if rule == nil {
		rule = private.DefaultRule
	}
	c := rule.Choose(f)
	if c.Method != private.DPGIBO && f.LossBound == 0 {
		return f, c, 0, fmt.Errorf("%v (chosen because %s) needs a loss bound", c.Method, c.Reason)
	}
	limit := f.Evals
	switch c.Method {
	case private.DPGIBO, private.SafeDPGIBO, private.HybridDPGIBO, private.ReportNoisyMin:
	case private.GeometricSelection, private.NegBinSelection:
		var plan private.SelectionPlan
		if c.Method == private.GeometricSelection {
			plan, err = private.GeometricPlan(o.Mu, CurrencyEpsDelta, f.Evals, 0)
		} else {
			plan, err = private.NegBinPlan(o.Mu, f.Evals, private.SelectConfig{})
		}
		if err != nil {
			return f, c, 0, err
		}
		limit = max(plan.Limit, f.Evals)
	default:
		return f, c, 0, fmt.Errorf("revision %d does not run %v", m.revision(), c.Method)
	}
	return f, c, limit, nil
}

// runBeforeTarget runs revisions 2 and 3 as private.Tune ran them: the method the rule
// chooses, DP-GIBO and its variants at Mu with the iterations the budget allows at the
// default batch (less the safe release's and the hybrid's evaluations), the selections at
// the (epsilon, 1e-5) of Mu.
func (m *Auto) runBeforeTarget(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (private.Result, error) {
	o := m.opt
	f, c, _, err := m.planBeforeTarget(obj, budget)
	if err != nil {
		return private.Result{}, err
	}
	switch c.Method {
	case private.ReportNoisyMin:
		return private.RNM{Mu: o.Mu, LossBound: o.LossBound}.Run(ctx, obj, f.Evals, rng, cb)
	case private.GeometricSelection:
		return private.Geometric{Mu: o.Mu, LossBound: o.LossBound}.Run(ctx, obj, f.Evals, rng, cb)
	case private.NegBinSelection:
		return private.NegBin{Mu: o.Mu, LossBound: o.LossBound}.Run(ctx, obj, f.Evals, rng, cb)
	}
	reserved := map[private.Method]int{private.DPGIBO: 0, private.SafeDPGIBO: 2, private.HybridDPGIBO: f.Dim + 2}[c.Method]
	s := algo.Settings{Mu: o.Mu, Iters: (f.Evals - reserved) / (f.Dim + 1)}
	theta0 := o.Theta0
	if theta0 == nil {
		theta0 = make([]float64, f.Dim)
		for j := range theta0 {
			theta0[j] = (f.Lo[j] + f.Hi[j]) / 2
		}
	}
	switch c.Method {
	case private.SafeDPGIBO:
		return private.SafeGIBO{Settings: s, LossBound: o.LossBound}.Run(ctx, obj, theta0, f.Evals, rng, cb)
	case private.HybridDPGIBO:
		return private.HybridGIBO{Settings: s, LossBound: o.LossBound}.Run(ctx, obj, theta0, f.Evals, rng, cb)
	}
	gobj := obj
	if o.LossBound != 0 {
		gobj = algo.WithLossBound(obj, o.LossBound)
	}
	s.MaxEvals = f.Evals
	r, err := algo.Minimize(ctx, gobj, theta0, s, rng, cb)
	if err != nil {
		return private.Result{}, fmt.Errorf("private: dpgibo: %w", err)
	}
	return private.Result{Theta: r.Theta, Evals: r.Evals, Iters: r.Iters, Ledger: r.Ledger, GIBO: &r}, nil
}

// evaluationLimit is the most evaluations m uses on obj for budget.
func (m *Auto) evaluationLimit(obj algo.Objective, budget int) (int, error) {
	if m.revision() < autoTarget {
		_, _, limit, err := m.planBeforeTarget(obj, budget)
		return limit, err
	}
	cfg, err := m.config(budget)
	if err != nil {
		return 0, err
	}
	plan, err := private.Forecast(obj, cfg)
	if err != nil {
		return 0, err
	}
	return plan.MaxEvals, nil
}
