package baselines

import (
	"context"
	"fmt"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// DPSelectPoisson is private selection with a Poisson number of trials (registry name
// "dp-select-poisson"; Papernot and Steinke 2022, arXiv 2110.03620): K ~ Poisson(budget);
// each of the K trials draws a candidate uniformly from the box and releases its clipped
// mean loss plus Gaussian noise of standard deviation z Lmax/n; the release is the
// candidate of smallest noisy score, or, when K = 0, a point drawn uniformly from the box
// without looking at the data. Its Renyi DP is their Theorem 6 (accounting.SelectionRDP),
// which needs each trial's (epsHat, deltaHat)-DP: the Gaussian trial's exact profile
// (accounting.GDPDelta). The conversion, the noise and the cap are dp-select-negbin's. It
// runs at CurrencyEpsDelta only. mu = +Inf draws no noise.
type DPSelectPoisson struct {
	opt Options
}

func newDPSelectPoisson(opt Options) (Method, error) {
	if err := newRDPSelection("dp-select-poisson", opt); err != nil {
		return nil, err
	}
	return &DPSelectPoisson{opt: opt}, nil
}

// PoissonPlan is dp-select-poisson's plan for a budget at DP-GIBO's mu (primary currency),
// with the share tailShare of delta on the cap (0: the default).
func PoissonPlan(mu float64, budget int, tailShare float64) (SelectionPlan, error) {
	cfg, err := SelectConfig{TailShare: tailShare}.resolved()
	if err != nil {
		return SelectionPlan{}, err
	}
	if budget < 1 {
		return SelectionPlan{}, fmt.Errorf("baselines: dp-select-poisson: budget must be at least 1 (the mean number of trials), got %d", budget)
	}
	t, err := accounting.Poisson(float64(budget))
	if err != nil {
		return SelectionPlan{}, err
	}
	return rdpSelectionPlan("dp-select-poisson", mu, CurrencyEpsDelta, t, 1, cfg.TailShare)
}

// Run implements Method.
func (m *DPSelectPoisson) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	plan, err := PoissonPlan(m.opt.Mu, budget, m.opt.Select.TailShare)
	if err != nil {
		return algo.Result{}, err
	}
	return runUniformSelection(ctx, "dp-select-poisson", m.opt, plan, obj, rng, cb)
}
