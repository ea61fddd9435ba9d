package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// DPSelectGeometric is private selection with random stopping (registry name
// "dp-select-geometric"; Liu and Talwar 2019, arXiv 1811.07971): each trial draws a
// candidate uniformly from the box and scores it by its clipped mean loss plus Laplace
// noise of scale Delta/eps_0 (Delta = Lmax/n, so each trial is eps_0-DP); after each trial
// the selection stops with probability gamma = 1/budget, so that the number of trials K is
// geometric with mean the budget; it releases the candidate of smallest noisy score. With
// eps_0-DP trials the release is 3 eps_0-DP (Liu and Talwar, Theorem 3.2; Papernot and
// Steinke 2022, Corollary 3 with eta = 1), so eps_0 = eps/3 for the target eps.
//
// At CurrencyEpsDelta (eps = algo.EpsilonForDelta(mu, 1e-5)) K is capped where its tail
// mass times (1 + e^eps) is a tenth of 1e-5 (SelectConfig.TailShare): the release is
// (eps, delta)-DP with delta that tail term. At CurrencyGDP (eps =
// accounting.PureWithinGDP(mu)) it runs uncapped and is pure eps-DP, hence mu-GDP. K is
// drawn before any evaluation from one uniform of rng, exactly (by inversion) when
// uncapped. mu = +Inf draws no noise.
type DPSelectGeometric struct {
	opt Options
}

func newDPSelectGeometric(opt Options) (Method, error) {
	const name = "dp-select-geometric"
	if err := checkMu(name, opt.Mu); err != nil {
		return nil, err
	}
	if _, err := opt.Select.resolved(); err != nil {
		return nil, fmt.Errorf("baselines: %s: %w", name, err)
	}
	if _, err := PureEpsilon(opt.Mu, opt.Currency); err != nil {
		return nil, err
	}
	return &DPSelectGeometric{opt: opt}, nil
}

// GeometricPlan is dp-select-geometric's plan for a budget at DP-GIBO's mu in currency c
// (its SelectConfig's TailShare in tailShare; 0 takes the default).
func GeometricPlan(mu float64, c Currency, budget int, tailShare float64) (SelectionPlan, error) {
	cfg, err := SelectConfig{TailShare: tailShare}.resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 2 {
		return SelectionPlan{}, fmt.Errorf("baselines: dp-select-geometric: budget must be at least 2 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.TruncatedNegBin(1, float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	eps, err := PureEpsilon(mu, c)
	if err != nil {
		return SelectionPlan{}, err
	}
	plan := SelectionPlan{Trials: t, Epsilon: eps, Accounting: algo.PureDP}
	switch {
	case math.IsInf(eps, 1):
		plan.Limit = noCap(t)
		return plan, nil
	case eps == 0:
		return SelectionPlan{}, fmt.Errorf("baselines: dp-select-geometric: epsilon 0 (mu %v) leaves no budget for a trial", mu)
	}
	plan.NoiseMultiplier = 3 / eps // Laplace scale over Delta: 1/eps_0
	if c == CurrencyEpsDelta {
		if plan.Limit, plan.Delta, err = capTrials(t, eps, algo.DefaultDelta, cfg.TailShare); err != nil {
			return SelectionPlan{}, err
		}
	}
	return plan, nil
}

// Run implements Method.
func (m *DPSelectGeometric) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	const name = "dp-select-geometric"
	plan, err := GeometricPlan(m.opt.Mu, m.opt.Currency, budget, m.opt.Select.TailShare)
	if err != nil {
		return algo.Result{}, err
	}
	k := 0
	if plan.Limit > 0 {
		k = drawTrials(plan, rng)
	} else {
		// Uncapped: K = ceil(log(1-u)/log(1-gamma)) >= 1, the geometric distribution exactly.
		u := rng.Float64()
		k = max(1, int(math.Ceil(math.Log1p(-u)/math.Log1p(-plan.Trials.Gamma))))
	}
	scale := plan.NoiseMultiplier
	res, err := selectionRun(ctx, name, m.opt, obj, k, rng, cb,
		func(p *problem) []float64 { return p.uniform(rng) },
		func() float64 { return laplace(scale, rng) }, nil)
	if err != nil {
		return algo.Result{}, err
	}
	res.Ledger, err = plan.ledger()
	return res, err
}
