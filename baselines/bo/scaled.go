package bo

import (
	"context"
	"image/color"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// UCBScaled is GP-UCB as the high-dimensional Bayesian-optimisation literature now runs it
// (registry name "ucb-scaled"): UCB's loop, inputs in the unit cube and standardised
// outputs, with a surrogate of one RBF length-scale per dimension (ARD) and no output scale,
// whose length-scales and noise variance maximise the log posterior under the
// dimension-scaled prior of ard.go: log l_j ~ N(sqrt(2) + log(d)/2, 3), l_j >= 0.025, and
// log s^2 ~ N(-4, 1), s^2 >= 1e-4. The prior's length-scales grow like sqrt(d), so that in
// high dimension the surrogate starts smooth rather than overfitting a few points. Every
// other choice (the initial design, beta_t, the acquisition's optimisation, the release of
// the best observed point) is UCB's. It is NOT differentially private; its ledger is
// accounting.NonPrivateLedger().
type UCBScaled struct {
	Config UCBConfig
	// OnScore, when non-nil, receives every point evaluated (a copy) and its mean loss.
	OnScore func(theta []float64, score float64)
}

var ucbScaledInfo = baselines.Info{Name: "ucb-scaled", Legend: "UCB-BO (d-scaled ARD prior)", Colour: color.RGBA{R: 0xff, G: 0x98, B: 0x96, A: 0xff}}

// Info implements baselines.Method.
func (UCBScaled) Info() baselines.Info { return ucbScaledInfo }

// Sweeps implements baselines.Sweeper: the loss noise only.
func (UCBScaled) Sweeps(param string) bool { return param == "noise" }

// Check returns an error naming an invalid field of Config.
func (m UCBScaled) Check() error { return UCB{Config: m.Config}.Check() }

// DesignSeconds implements baselines.CostHinter: the ARD fit refitted on every observation
// costs about 2e-7 d budget^3 seconds (the committed field-fig2a and field-fig2a-b3 timings:
// 1.9e-7 at d = 5, 2.1e-7 at d = 10), d times the length-scales of UCB's one.
func (UCBScaled) DesignSeconds(d, budget int) float64 { return scaledDesignSeconds(d, budget) }

func scaledDesignSeconds(d, budget int) float64 {
	b := float64(budget)
	return 2e-7 * float64(d) * b * b * b
}

// Run implements baselines.Method.
func (m UCBScaled) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	p, err := search.NewSearch("bo", ucbScaledInfo.Name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	cfg := m.Config
	cfg.ard = true
	theta, err := runGPUCB(ctx, p, rng, cb, cfg, m.OnScore, baselines.Mean, 0, false)
	if err != nil {
		return baselines.Result{}, err
	}
	return baselines.Result{Theta: theta, Evals: p.Evals, Iters: p.Evals, Ledger: accounting.NonPrivateLedger()}, nil
}

// DPUCBScaled is dp-ucb with ucb-scaled's surrogate (registry name "dp-ucb-scaled"): every
// observation is dp-ucb's Gaussian release of the clipped mean loss, (mu/sqrt(N))-GDP given
// the previous ones, so the run is mu-GDP under replacement of one validation user. The
// surrogate is fitted on the released noisy values only (its noise variance at least their
// release variance), so the MAP fit, every next point and the release (the observed point
// of smallest posterior mean) are post-processing. Its ledger is accounting.NewLedger(mu, N).
type DPUCBScaled struct {
	// Mu is the run's mu-GDP (math.Inf(1): no noise).
	Mu float64
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	Config    UCBConfig
	// OnScore, when non-nil, receives every point evaluated (a copy) and its noisy score.
	OnScore func(theta []float64, score float64)
}

var dpUCBScaledInfo = baselines.Info{Name: "dp-ucb-scaled", Legend: "DP-UCB (d-scaled ARD prior)", Colour: color.RGBA{R: 0xc4, G: 0x9c, B: 0x94, A: 0xff}, Private: true}

// Info implements baselines.Method.
func (DPUCBScaled) Info() baselines.Info { return dpUCBScaledInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (DPUCBScaled) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Check returns an error unless Mu is positive and Config valid.
func (m DPUCBScaled) Check() error { return DPUCB{Mu: m.Mu, Config: m.Config}.Check() }

// DesignSeconds implements baselines.CostHinter: ucb-scaled's.
func (DPUCBScaled) DesignSeconds(d, budget int) float64 { return scaledDesignSeconds(d, budget) }

// Run implements baselines.Method.
func (m DPUCBScaled) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	cfg := m.Config
	cfg.ard = true
	return DPUCB{Mu: m.Mu, LossBound: m.LossBound, Config: cfg, OnScore: m.OnScore}.run(ctx, dpUCBScaledInfo.Name, obj, budget, rng, cb)
}
