package private

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/gibo"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
)

// Auto is the library's one call, Tune, as a method of the registry ("dp-auto", which
// importing this package registers): the private method Rule (nil: DefaultRule) chooses
// from the public facts, with the budget, Theta0 (nil: the box centre) and LossBound (0: the
// objective's). Its report and result give a selection's mean number of trials, never K.
//
// Its revisions (Revision; 0: the current one, Info().Revision):
//
//   - 2 and 3 ran before the library delivered the guarantee asked for: DP-GIBO and its
//     variants at Mu, the selections at the (epsilon, 1e-5) of Mu, whatever the rule chose.
//     Revision 2 runs the first round's rule (FirstRoundRule), revision 3 the second
//     round's. They are kept, computed as they were, for the committed cells that ran
//     them.
//   - 4 is Tune at a target that it meets exactly, in Currency: Mu-GDP at
//     selection.CurrencyGDP, the (epsilon, 1e-5)-DP of Mu-GDP at
//     selection.CurrencyEpsDelta (Mu = +Inf: no privacy noise), with the second round's
//     rule at both.
//   - 5 is Tune at the target with the rule the low-SNR study's first round chose for each
//     currency (docs/library.md, "DP-GIBO at low SNR").
//   - 6 is Tune at the target with DefaultRule, chosen by the low-SNR study's second round.
type Auto struct {
	Mu        float64
	Currency  selection.Currency
	Theta0    []float64
	LossBound float64
	LogLoss   bool
	// Rule chooses the method (nil: DefaultRule; at revision 2, FirstRoundRule; at
	// revisions 3 and 4, the second round's rule; at revision 5, the low-SNR study's first).
	Rule     Rule
	Revision int
}

// FirstRoundRule is the private tuner's first-round rule (docs/library.md, "The library's
// private tuner"), which dp-auto's revision 2 runs.
var FirstRoundRule Rule = ByCeiling{Cut: 16, Below: ReportNoisyMin, Above: HybridDPGIBO}

// Revisions of dp-auto (Auto.Revision).
const (
	autoFirstRound  = 2 // the first round's rule, before the target
	autoSecondRound = 3 // the last revision before the target
	autoTarget      = 4 // Tune at the target, with the second round's rule
	autoLowSNR      = 5 // Tune at the target, with the low-SNR study's first rule
	autoLowSNR2     = 6 // Tune at the target, with DefaultRule
)

var autoInfo = baselines.Info{Name: "dp-auto", Legend: "Private tuner (one call)", Private: true, Local: true, Revision: autoLowSNR2}

func init() {
	err := registry.Register(Auto{}, func(o registry.Options) (baselines.Method, error) {
		m := Auto{Mu: o.Mu, Currency: o.Currency, Theta0: o.Theta0, LossBound: o.LossBound, LogLoss: o.LogLoss, Revision: o.AutoRevision}
		return m, m.Check()
	})
	if err != nil {
		panic(err)
	}
}

// Info implements baselines.Method.
func (Auto) Info() baselines.Info { return autoInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (Auto) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// ReadsCurrency reports that dp-auto's guarantee is read in a currency (Currency; revision
// 4 on), so that its cells at the two targets are two cells.
func (Auto) ReadsCurrency() bool { return true }

// KnownRevision reports whether dp-auto can run revision r.
func (Auto) KnownRevision(r int) bool {
	return r >= autoFirstRound && r <= autoLowSNR2
}

// Check returns an error unless Mu is positive and Revision known (or 0).
func (m Auto) Check() error {
	if err := baselines.CheckMu(autoInfo.Name, m.Mu); err != nil {
		return err
	}
	if r := m.Revision; r != 0 && !m.KnownRevision(r) {
		return fmt.Errorf("dp-auto: unknown revision %d (known: %d to %d)", r, autoFirstRound, autoLowSNR2)
	}
	return nil
}

// revision is the revision m runs.
func (m Auto) revision() int {
	if m.Revision != 0 {
		return m.Revision
	}
	return autoInfo.Revision
}

// rule is the rule m runs.
func (m Auto) rule() Rule {
	switch {
	case m.Rule != nil:
		return m.Rule
	case m.revision() == autoFirstRound:
		return FirstRoundRule
	case m.revision() < autoLowSNR:
		return secondRoundRule
	case m.revision() == autoLowSNR:
		return lowSNRFirstRule
	}
	return DefaultRule
}

// config is Tune's Config at revisions 4 and 5 for budget.
func (m Auto) config(budget int) (Config, error) {
	cfg := Config{Evals: budget, Theta0: m.Theta0, LossBound: m.LossBound, LogLoss: m.LogLoss, Rule: m.rule()}
	if m.Currency == selection.CurrencyGDP || math.IsInf(m.Mu, 1) {
		cfg.Mu = m.Mu
		return cfg, nil
	}
	eps, err := accounting.EpsilonForDelta(m.Mu, accounting.DefaultDelta)
	if err != nil {
		return cfg, err
	}
	cfg.EpsDelta = accounting.EpsDelta{Epsilon: eps, Delta: accounting.DefaultDelta}
	return cfg, nil
}

// Run implements baselines.Method.
func (m Auto) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := m.Check(); err != nil {
		return baselines.Result{}, err
	}
	if budget <= 0 {
		return baselines.Result{}, fmt.Errorf("dp-auto: budget must be positive, got %d", budget)
	}
	var res baselines.Result
	var err error
	if m.revision() < autoTarget {
		res, err = m.runBeforeTarget(ctx, obj, budget, rng, cb)
		res.Warnings = nil // revisions 2 and 3 gave DP-GIBO's warnings only through its status
		if res.GIBO != nil {
			res.Warnings = res.GIBO.Warnings
		}
	} else {
		var cfg Config
		if cfg, err = m.config(budget); err == nil {
			var rel Release
			rel, err = Tune(ctx, obj, cfg, rng, cb)
			res = rel.Result // Forecast's warnings and the run's
		}
	}
	if err != nil {
		return baselines.Result{}, fmt.Errorf("dp-auto: %w", err)
	}
	return res, nil
}

// EvaluationCap implements baselines.EvaluationCapper: that of the method its rule chooses
// on obj at its revision. It reads obj's public facts only.
func (m Auto) EvaluationCap(obj algo.Objective, budget int) (int, error) {
	if m.revision() < autoTarget {
		_, _, limit, err := m.planBeforeTarget(obj, budget)
		return limit, err
	}
	cfg, err := m.config(budget)
	if err != nil {
		return 0, err
	}
	plan, err := Forecast(obj, cfg)
	if err != nil {
		return 0, fmt.Errorf("dp-auto: %w", err)
	}
	return plan.MaxEvals, nil
}

// planBeforeTarget is the rule's choice on obj's public facts at revisions 2 and 3, and the
// most evaluations it may use (a selection with a random number of trials: its cap at the
// (epsilon, 1e-5) of Mu).
func (m Auto) planBeforeTarget(obj algo.Objective, budget int) (Facts, Choice, int, error) {
	// The facts are those of a mu-GDP target at Mu, as revisions 2 and 3 read them; the
	// forecast of DP-GIBO, which every objective admits, validates them.
	p, err := Forecast(obj, Config{Mu: m.Mu, Evals: budget, Theta0: m.Theta0, LossBound: m.LossBound, LogLoss: m.LogLoss, Rule: Always{Method: DPGIBO}})
	if err != nil {
		return Facts{}, Choice{}, 0, err
	}
	f := p.Facts
	c := m.rule().Choose(f)
	if c.Method != DPGIBO && f.LossBound == 0 {
		return f, c, 0, fmt.Errorf("%v (chosen because %s) needs a loss bound", c.Method, c.Reason)
	}
	limit := f.Evals
	switch c.Method {
	case DPGIBO, SafeDPGIBO, HybridDPGIBO, ReportNoisyMin:
	case GeometricSelection, NegBinSelection:
		var plan selection.SelectionPlan
		if c.Method == GeometricSelection {
			plan, err = selection.GeometricPlan(m.Mu, selection.CurrencyEpsDelta, f.Evals, 0)
		} else {
			plan, err = selection.NegBinPlan(m.Mu, f.Evals, selection.SelectConfig{})
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

// runBeforeTarget runs revisions 2 and 3 as Tune ran them: the method the rule chooses,
// DP-GIBO and its variants at Mu with the iterations the budget allows at the default batch
// (less the safe release's and the hybrid's evaluations), the selections at the
// (epsilon, 1e-5) of Mu.
func (m Auto) runBeforeTarget(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	f, c, _, err := m.planBeforeTarget(obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	switch c.Method {
	case ReportNoisyMin:
		eps, err := selection.PureEpsilon(m.Mu, selection.CurrencyEpsDelta)
		if err != nil {
			return baselines.Result{}, err
		}
		return selection.ReportNoisyMin(ctx, obj, f.Evals, eps, m.LossBound, rng, cb)
	case GeometricSelection, NegBinSelection:
		var plan selection.SelectionPlan
		if c.Method == GeometricSelection {
			plan, err = selection.GeometricPlan(m.Mu, selection.CurrencyEpsDelta, f.Evals, 0)
		} else {
			plan, err = selection.NegBinPlan(m.Mu, f.Evals, selection.SelectConfig{})
		}
		if err != nil {
			return baselines.Result{}, err
		}
		return selection.Selection{Name: c.Method.String(), Plan: plan, LossBound: m.LossBound}.Run(ctx, obj, rng, cb)
	}
	g, ok := c.Method.(giboCandidate)
	if !ok {
		return baselines.Result{}, fmt.Errorf("revision %d does not run %v", m.revision(), c.Method)
	}
	f.Mu = m.Mu
	s := g.settings(f)
	theta0 := m.Theta0
	if theta0 == nil {
		theta0 = make([]float64, f.Dim)
		for j := range theta0 {
			theta0[j] = (f.Lo[j] + f.Hi[j]) / 2
		}
	}
	var method baselines.Method = gibo.DPGIBO{Settings: s, Theta0: theta0, LossBound: m.LossBound}
	switch {
	case g.chooseStart:
		method = gibo.Hybrid{Settings: s, Theta0: theta0, LossBound: m.LossBound}
	case g.release:
		method = gibo.Safe{Settings: s, Theta0: theta0, LossBound: m.LossBound}
	}
	return method.Run(ctx, obj, f.Evals, rng, cb)
}
