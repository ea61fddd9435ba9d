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
	"dpgibo/baselines/score"
	"dpgibo/baselines/selection"
)

// A Candidate is a private method a Rule can choose: Tune calibrates it to the target from
// the public facts (Forecast) and runs it. Its String is its name in the registry and in
// every CSV. The candidates are the values below.
type Candidate interface {
	String() string
	// calibrate fills plan (its Facts and Choice set) with the method's noise at the
	// target, or says why it cannot meet the target and the budget together.
	calibrate(obj algo.Objective, cfg Config, plan *Plan) error
	// run runs the method as plan calibrates it, from theta0 (chosen without the data).
	run(ctx context.Context, obj algo.Objective, cfg Config, plan Plan, theta0 []float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error)
}

// The candidates.
var (
	// DPGIBO is algo.Minimize with algo's defaults (gibo.DPGIBO, "dpgibo").
	DPGIBO Candidate = giboCandidate{}
	// SafeDPGIBO is DP-GIBO with a safe release (gibo.Safe, "dpgibo-safe").
	SafeDPGIBO Candidate = giboCandidate{release: true}
	// HybridDPGIBO is the hybrid (gibo.Hybrid, "dpgibo-hybrid").
	HybridDPGIBO Candidate = giboCandidate{release: true, chooseStart: true}
	// ReportNoisyMin is report-noisy-min among budget uniform candidates ("dp-rnm"), pure
	// epsilon-DP.
	ReportNoisyMin Candidate = rnmCandidate{}
	// GeometricSelection is Liu and Talwar's selection with a geometric number of trials
	// ("dp-select-geometric"). Capped, it runs at an (epsilon, delta) target only.
	GeometricSelection Candidate = fittedCandidate{geometric: true}
	// NegBinSelection is Papernot and Steinke's selection with a truncated negative
	// binomial number of trials ("dp-select-negbin"). It is Renyi-DP and runs at an
	// (epsilon, delta) target only.
	NegBinSelection Candidate = fittedCandidate{}
	// GaussianSelection releases every one of budget uniform candidates' clipped mean
	// losses with Gaussian noise, mu-GDP together, and the candidate of smallest noisy score
	// ("dp-random", the harness's private random search).
	GaussianSelection Candidate = gaussianCandidate{}
)

// giboCandidate is DP-GIBO (release false), the safe release and the hybrid.
type giboCandidate struct{ release, chooseStart bool }

func (c giboCandidate) String() string {
	switch {
	case c.chooseStart:
		return gibo.Hybrid{}.Info().Name
	case c.release:
		return gibo.Safe{}.Info().Name
	}
	return gibo.DPGIBO{}.Info().Name
}

// settings are DP-GIBO's settings for the candidate: algo's defaults with Iters the
// iterations the budget allows at the default batch, less the safe release's and the
// hybrid's evaluations, and Mu the total, which the safe release and the hybrid split.
func (c giboCandidate) settings(f Facts) algo.Settings {
	reserved := 0
	switch {
	case c.chooseStart:
		reserved = f.Dim + 2
	case c.release:
		reserved = 2
	}
	return algo.Settings{Mu: f.Mu, Iters: (f.Evals - reserved) / (f.Dim + 1)}
}

func (c giboCandidate) calibrate(obj algo.Objective, cfg Config, plan *Plan) error {
	f := plan.Facts
	s := c.settings(f)
	if cfg.LossBound != 0 {
		obj = algo.WithLossBound(obj, cfg.LossBound)
	}
	if c.release {
		// The forecast is of DP-GIBO's part of mu, split as the run splits it.
		mu, err := gibo.MuSplit(s.Mu, c.chooseStart)
		if err != nil {
			return err
		}
		s.Mu = mu
	}
	forecast, err := algo.Forecast(obj, s)
	if err != nil {
		return fmt.Errorf("private: %v: %w", c, err)
	}
	plan.GIBO = &forecast
	if c.release {
		plan.ScoreNoise = selection.SelectionNoiseStd(f.LossBound, f.Users, 2, f.Mu*math.Sqrt(gibo.DefaultReleaseShare))
	}
	return nil
}

func (c giboCandidate) run(ctx context.Context, obj algo.Objective, cfg Config, plan Plan, theta0 []float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	s := c.settings(plan.Facts)
	var m baselines.Method = gibo.DPGIBO{Settings: s, Theta0: theta0, LossBound: cfg.LossBound}
	switch {
	case c.chooseStart:
		m = gibo.Hybrid{Settings: s, Theta0: theta0, LossBound: cfg.LossBound}
	case c.release:
		m = gibo.Safe{Settings: s, Theta0: theta0, LossBound: cfg.LossBound}
	}
	return m.Run(ctx, obj, plan.Facts.Evals, rng, cb)
}

// rnmCandidate is report-noisy-min at the target: pure epsilon, at a mu-GDP target the
// largest that is mu-GDP.
type rnmCandidate struct{}

func (rnmCandidate) String() string { return selection.RNM{}.Info().Name }

func (c rnmCandidate) calibrate(_ algo.Objective, _ Config, plan *Plan) error {
	f := plan.Facts
	eps := f.EpsDelta.Epsilon
	if f.EpsDelta == (accounting.EpsDelta{}) {
		var err error
		if eps, err = accounting.PureWithinGDPExact(f.Mu); err != nil {
			return fmt.Errorf("private: %v: %w", c, err)
		}
	}
	plan.cal.eps = eps
	plan.ScoreNoise = selection.RNMNoiseScale(f.LossBound, f.Users, eps)
	return nil
}

func (rnmCandidate) run(ctx context.Context, obj algo.Objective, cfg Config, plan Plan, _ []float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	return selection.ReportNoisyMin(ctx, obj, plan.Facts.Evals, plan.cal.eps, cfg.LossBound, rng, cb)
}

// gaussianCandidate is the Gaussian release of every score at the facts' mu.
type gaussianCandidate struct{}

func (gaussianCandidate) String() string { return score.DPRandom{}.Info().Name }

func (gaussianCandidate) calibrate(_ algo.Objective, _ Config, plan *Plan) error {
	f := plan.Facts
	plan.ScoreNoise = selection.SelectionNoiseStd(f.LossBound, f.Users, f.Evals, f.Mu)
	return nil
}

func (gaussianCandidate) run(ctx context.Context, obj algo.Objective, cfg Config, plan Plan, _ []float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	f := plan.Facts
	return selection.GaussianScores(ctx, obj, f.Evals, f.Mu, cfg.LossBound, rng, cb)
}

// fittedCandidate is a selection with a random number of trials whose cap fits the budget
// at an (epsilon, delta) target: dp-select-geometric (geometric) or dp-select-negbin.
type fittedCandidate struct{ geometric bool }

func (c fittedCandidate) String() string {
	if c.geometric {
		return selection.Geometric{}.Info().Name
	}
	return selection.NegBin{}.Info().Name
}

func (c fittedCandidate) calibrate(_ algo.Objective, _ Config, plan *Plan) error {
	f := plan.Facts
	if f.EpsDelta == (accounting.EpsDelta{}) {
		why := "its guarantee is Renyi DP, which implies no mu-GDP"
		if c.geometric {
			why = "uncapped, its number of evaluations is unbounded (Tune promises at most Config.Evals), and a cap's delta implies no mu-GDP"
		}
		return fmt.Errorf("private: the rule chose %v (%s), which is not offered at a mu-GDP target: %s; set Config.EpsDelta instead of Config.Mu, or choose another method", c, plan.Choice.Reason, why)
	}
	fit := selection.FittedNegBinPlan
	if c.geometric {
		fit = selection.FittedGeometricPlan
	}
	p, err := fit(f.EpsDelta, f.Evals)
	if err != nil {
		return fmt.Errorf("private: %w", err)
	}
	plan.cal.sel = p
	plan.ScoreNoise = p.NoiseMultiplier * f.LossBound / float64(f.Users)
	plan.MaxEvals = p.Limit
	return nil
}

func (c fittedCandidate) run(ctx context.Context, obj algo.Objective, cfg Config, plan Plan, _ []float64, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	return selection.Selection{Name: c.String(), Plan: plan.cal.sel, LossBound: cfg.LossBound}.Run(ctx, obj, rng, cb)
}
