package selection

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/baselines"
)

// The selections with a random number of trials as methods (baselines.Method): each runs
// its plan for the budget through Selection, and reports, and returns as its evaluations
// and iterations, the budget (the mean of its number of trials K), never K: K is not part
// of the release, and only Result.NonPrivateTrials holds it.

var (
	geometricInfo = baselines.Info{Name: "dp-select-geometric", Legend: "DP-Select (geometric)", Colour: color.RGBA{R: 0x39, G: 0x3b, B: 0x79, A: 0xff}, Private: true}
	negBinInfo    = baselines.Info{Name: "dp-select-negbin", Legend: "DP-Select (neg. binomial)", Colour: color.RGBA{R: 0x6b, G: 0x6e, B: 0xcf, A: 0xff}, Private: true}
	poissonInfo   = baselines.Info{Name: "dp-select-poisson", Legend: "DP-Select (Poisson)", Colour: color.RGBA{R: 0x9c, G: 0x9e, B: 0xde, A: 0xff}, Private: true}
)

// Info implements baselines.Method.
func (Geometric) Info() baselines.Info { return geometricInfo }

// Info implements baselines.Method.
func (NegBin) Info() baselines.Info { return negBinInfo }

// Info implements baselines.Method.
func (Poisson) Info() baselines.Info { return poissonInfo }

// Run implements baselines.Method: the selection with E[K] = budget.
func (m Geometric) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := baselines.CheckMu(geometricInfo.Name, m.Mu); err != nil {
		return baselines.Result{}, err
	}
	plan, err := m.Plan(budget)
	if err != nil {
		return baselines.Result{}, err
	}
	return Selection{Name: geometricInfo.Name, Plan: plan, LossBound: m.LossBound, OnScore: m.OnScore}.RunReported(ctx, obj, rng, cb)
}

// Run implements baselines.Method: the selection with E[K] = budget.
func (m NegBin) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := baselines.CheckMu(negBinInfo.Name, m.Mu); err != nil {
		return baselines.Result{}, err
	}
	plan, err := m.Plan(budget)
	if err != nil {
		return baselines.Result{}, err
	}
	return Selection{Name: negBinInfo.Name, Plan: plan, LossBound: m.LossBound, OnScore: m.OnScore}.RunReported(ctx, obj, rng, cb)
}

// Run implements baselines.Method: the selection with E[K] = budget.
func (m Poisson) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	if err := baselines.CheckMu(poissonInfo.Name, m.Mu); err != nil {
		return baselines.Result{}, err
	}
	plan, err := m.Plan(budget)
	if err != nil {
		return baselines.Result{}, err
	}
	return Selection{Name: poissonInfo.Name, Plan: plan, LossBound: m.LossBound, OnScore: m.OnScore}.RunReported(ctx, obj, rng, cb)
}

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (Geometric) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (NegBin) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (Poisson) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// ReadsCurrency says that the selection's guarantee is read from mu in its Currency.
func (Geometric) ReadsCurrency() bool { return true }

// ReadsCurrency says that the selection's guarantee is read from mu in its Currency.
func (NegBin) ReadsCurrency() bool { return true }

// ReadsCurrency says that the selection's guarantee is read from mu in its Currency.
func (Poisson) ReadsCurrency() bool { return true }

// CountsTrials implements baselines.TrialCounter.
func (Geometric) CountsTrials() bool { return true }

// CountsTrials implements baselines.TrialCounter.
func (NegBin) CountsTrials() bool { return true }

// CountsTrials implements baselines.TrialCounter.
func (Poisson) CountsTrials() bool { return true }

// EvaluationCap implements baselines.EvaluationCapper: the plan's cap.
func (m Geometric) EvaluationCap(_ algo.Objective, budget int) (int, error) {
	return PlanCap(m.Plan(budget))
}

// EvaluationCap implements baselines.EvaluationCapper: the plan's cap.
func (m NegBin) EvaluationCap(_ algo.Objective, budget int) (int, error) {
	return PlanCap(m.Plan(budget))
}

// EvaluationCap implements baselines.EvaluationCapper: the plan's cap.
func (m Poisson) EvaluationCap(_ algo.Objective, budget int) (int, error) {
	return PlanCap(m.Plan(budget))
}

// PlanCap is the most evaluations a selection with plan uses: its cap (math.MaxInt
// uncapped, dp-select-geometric at CurrencyGDP, whose number of evaluations is geometric).
func PlanCap(plan SelectionPlan, err error) (int, error) {
	switch {
	case err != nil:
		return 0, err
	case plan.Limit == 0:
		return math.MaxInt, nil
	}
	return max(plan.Limit, 1), nil
}

// RunReported runs the selection as a baselines.Method reports it: its one report reaches
// cb after the last trial with the plan's mean number of trials as its iteration and
// evaluations, and the result gives that mean as its evaluations and iterations and K in
// NonPrivateTrials.
func (s Selection) RunReported(ctx context.Context, obj algo.Objective, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	var report *algo.Iteration
	res, err := s.Run(ctx, obj, rng, func(it algo.Iteration) error {
		report = &it
		return nil
	})
	if err != nil {
		return baselines.Result{}, err
	}
	if cb != nil && report != nil {
		report.Iter, report.Evals = res.Evals, res.Evals
		if err := cb(*report); err != nil {
			return baselines.Result{}, fmt.Errorf("selection: %s: callback at evaluation %d: %w", s.Name, res.Evals, err)
		}
	}
	res.Iters = res.Evals
	return res, nil
}
