package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/private"
)

// The private selections (dp-rnm, dp-select-geometric, dp-select-negbin,
// dp-select-poisson, dp-hypo) are package private's (private.RNM, private.Geometric,
// private.NegBin, private.Poisson, and private.Selection with dp-hypo's proposals); the
// registry's methods adapt them to Options and Method. A selection with a random number of
// trials reports, and returns as its evaluations and iterations, the budget (the mean of
// its number of trials K), never K: K is not part of the release, and only
// Result.NonPrivateTrials holds it.

// SelectConfig configures the private selections with a random number of trials
// (private.SelectConfig; its zero value: the declared settings).
type SelectConfig = private.SelectConfig

// SelectionPlan is what a private selection fixes before it looks at the data
// (private.SelectionPlan).
type SelectionPlan = private.SelectionPlan

// selection is a registry method backed by a private selection: run runs it with the
// callback given.
type selection struct {
	name string
	run  func(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (private.Result, error)
}

// Run implements Method: the selection's one report reaches cb after its last trial, with
// the budget (the plan's mean number of trials; dp-rnm's exact number) as its iteration and
// evaluations, and the result gives it as its evaluations and K in NonPrivateTrials.
func (s *selection) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	var report *algo.Iteration
	res, err := s.run(ctx, obj, budget, rng, func(it algo.Iteration) error {
		report = &it
		return nil
	})
	if err != nil {
		return algo.Result{}, fmt.Errorf("baselines: %w", err)
	}
	if cb != nil && report != nil {
		report.Iter, report.Evals = res.Evals, res.Evals
		if err := cb(*report); err != nil {
			return algo.Result{}, fmt.Errorf("baselines: %s: callback at evaluation %d: %w", s.name, res.Evals, err)
		}
	}
	iters := res.Evals
	if s.name == "dp-rnm" {
		iters = 1
	}
	return algo.Result{Theta: res.Theta, Evals: res.Evals, Iters: iters, Ledger: res.Ledger, NonPrivateTrials: res.NonPrivateTrials}, nil
}

func newDPRNM(opt Options) (Method, error) {
	if err := checkMu("dp-rnm", opt.Mu); err != nil {
		return nil, err
	}
	if _, err := private.PureEpsilon(opt.Mu, opt.Currency); err != nil {
		return nil, err
	}
	m := private.RNM{Mu: opt.Mu, Currency: opt.Currency, LossBound: opt.LossBound}
	return &selection{name: "dp-rnm", run: m.Run}, nil
}

// NewDPRNM returns dp-rnm (private.RNM) at DP-GIBO's mu in the given currency, with the
// loss bound lossBound (0: the objective's).
func NewDPRNM(mu float64, currency Currency, lossBound float64) (Method, error) {
	return newDPRNM(Options{Mu: mu, Currency: currency, LossBound: lossBound})
}

func newDPSelectGeometric(opt Options) (Method, error) {
	const name = "dp-select-geometric"
	if err := checkMu(name, opt.Mu); err != nil {
		return nil, err
	}
	if _, err := opt.Select.Resolved(); err != nil {
		return nil, fmt.Errorf("baselines: %s: %w", name, err)
	}
	if _, err := private.PureEpsilon(opt.Mu, opt.Currency); err != nil {
		return nil, err
	}
	m := private.Geometric{Mu: opt.Mu, Currency: opt.Currency, LossBound: opt.LossBound, TailShare: opt.Select.TailShare, OnScore: opt.OnScore}
	return &selection{name: name, run: m.Run}, nil
}

func newDPSelectNegBin(opt Options) (Method, error) {
	if err := newRDPSelection("dp-select-negbin", opt); err != nil {
		return nil, err
	}
	m := private.NegBin{Mu: opt.Mu, LossBound: opt.LossBound, Select: opt.Select, OnScore: opt.OnScore}
	return &selection{name: "dp-select-negbin", run: m.Run}, nil
}

func newDPSelectPoisson(opt Options) (Method, error) {
	if err := newRDPSelection("dp-select-poisson", opt); err != nil {
		return nil, err
	}
	m := private.Poisson{Mu: opt.Mu, LossBound: opt.LossBound, TailShare: opt.Select.TailShare, OnScore: opt.OnScore}
	return &selection{name: "dp-select-poisson", run: m.Run}, nil
}

// PlanFor is the plan of the selection with a random number of trials registered as name,
// for budget, with opt's Mu, Currency and Select; ok is false for any other method.
func PlanFor(name string, opt Options, budget int) (plan SelectionPlan, ok bool, err error) {
	switch name {
	case "dp-select-geometric":
		plan, err = private.GeometricPlan(opt.Mu, opt.Currency, budget, opt.Select.TailShare)
	case "dp-select-negbin":
		plan, err = private.NegBinPlan(opt.Mu, budget, opt.Select)
	case "dp-select-poisson":
		plan, err = private.PoissonPlan(opt.Mu, budget, opt.Select.TailShare)
	case "dp-hypo":
		plan, err = private.HyPOPlan(opt.Mu, budget, opt.Select)
	default:
		return SelectionPlan{}, false, nil
	}
	return plan, true, err
}

// EvaluationLimit is the most evaluations the method registered as name uses for budget
// with opt on obj: the budget, or, for a selection with a random number of trials, its
// plan's cap (math.MaxInt for dp-select-geometric uncapped at CurrencyGDP, whose number of
// evaluations is geometric with mean the budget); for dp-auto, that of the method its rule
// chooses on obj at its revision (Options.AutoRevision). Only dp-auto reads obj, and only
// its public facts.
func EvaluationLimit(name string, opt Options, budget int, obj algo.Objective) (int, error) {
	if name == "dp-auto" {
		limit, err := (&Auto{opt: opt}).evaluationLimit(obj, budget)
		if err != nil {
			return 0, fmt.Errorf("baselines: dp-auto: %w", err)
		}
		return limit, nil
	}
	plan, ok, err := PlanFor(name, opt, budget)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return budget, nil
	case plan.Limit == 0:
		return math.MaxInt, nil
	}
	return max(plan.Limit, 1), nil
}

// newRDPSelection checks the options of a Renyi-DP selection (dp-select-negbin,
// dp-select-poisson, dp-hypo): mu, its settings, and the primary currency.
func newRDPSelection(name string, opt Options) error {
	if err := checkMu(name, opt.Mu); err != nil {
		return err
	}
	if _, err := opt.Select.Resolved(); err != nil {
		return fmt.Errorf("baselines: %s: %w", name, err)
	}
	if opt.Currency != CurrencyEpsDelta {
		return fmt.Errorf("baselines: %s: is Renyi-DP, which implies no mu-GDP: run it at CurrencyEpsDelta, not %v", name, opt.Currency)
	}
	return nil
}
