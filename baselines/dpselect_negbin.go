package baselines

import (
	"context"
	"fmt"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// DPSelectNegBin is private selection with a truncated negative binomial number of trials
// (registry name "dp-select-negbin"; Papernot and Steinke 2022, arXiv 2110.03620): K is
// drawn from their distribution D_{eta, gamma} (Definition 1) with eta =
// SelectConfig.NegBinShape (declared 2) and gamma set so that E[K] is the budget; each of
// the K trials draws a candidate uniformly from the box and releases its clipped mean loss
// plus Gaussian noise of standard deviation z Lmax/n; the release is the candidate of
// smallest noisy score. Its Renyi DP is their Theorem 2 (accounting.SelectionRDP with
// C/c = 1), converted to (eps, delta)-DP by accounting.RDPToEpsDelta; z is the smallest
// noise multiplier at which that meets eps = algo.EpsilonForDelta(mu, 1e-5) with 0.9e-5 of
// delta, and K is capped where the tail spends the remaining 1e-6 (see SelectionPlan).
// It runs at CurrencyEpsDelta only. mu = +Inf draws no noise.
type DPSelectNegBin struct {
	opt Options
}

func newDPSelectNegBin(opt Options) (Method, error) {
	if err := newRDPSelection("dp-select-negbin", opt); err != nil {
		return nil, err
	}
	return &DPSelectNegBin{opt: opt}, nil
}

// NegBinPlan is dp-select-negbin's plan for a budget at DP-GIBO's mu (primary currency)
// with cfg (zero fields: the declared values).
func NegBinPlan(mu float64, budget int, cfg SelectConfig) (SelectionPlan, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 2 {
		return SelectionPlan{}, fmt.Errorf("baselines: dp-select-negbin: budget must be at least 2 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.TruncatedNegBin(cfg.NegBinShape, float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpSelectionPlan("dp-select-negbin", mu, CurrencyEpsDelta, t, 1, cfg.TailShare)
}

// Run implements Method.
func (m *DPSelectNegBin) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	plan, err := NegBinPlan(m.opt.Mu, budget, m.opt.Select)
	if err != nil {
		return algo.Result{}, err
	}
	return runUniformSelection(ctx, "dp-select-negbin", m.opt, plan, obj, rng, cb)
}

// runUniformSelection runs a plan with Gaussian trials on candidates drawn uniformly.
func runUniformSelection(ctx context.Context, method string, opt Options, plan SelectionPlan, obj algo.Objective, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	k := drawTrials(plan, rng)
	res, err := selectionRun(ctx, method, opt, obj, k, rng, cb,
		func(p *problem) []float64 { return p.uniform(rng) }, gaussianNoise(plan.NoiseMultiplier, rng), nil)
	if err != nil {
		return algo.Result{}, err
	}
	res.Ledger, err = plan.ledger()
	return res, err
}
