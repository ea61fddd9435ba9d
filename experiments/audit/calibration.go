package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// Clip-calibration mechanisms of the audit (algo.ClipCalibration). Their neighbours are the
// flip neighbours of adaptive clipping: user 0's gradient norm is about Slope in X and 0 in
// X', every other user's 0, so the first count of the binary search (at the same candidate
// in both, below Slope) is 1 in X and 0 in X' before noise: its sensitivity is used in full.
const (
	// dpgiboCalibrated is Algorithm 1 (gradient-descent step) with the clipping norm
	// calibrated privately at the first iteration; the statistic is the released theta's
	// first coordinate and the claim the total Mu.
	dpgiboCalibrated = "dp-gibo-calibrated"
	// dpgiboCalibrationCount audits the calibration's first released count directly: its
	// mean differs by exactly 1 between the neighbours and the claim is the per-count
	// mu_cal/sqrt(Queries) (algo.CalibrationNoiseStd).
	dpgiboCalibrationCount = "dp-gibo-calibration-count"
	// controlCalibrationNoiseHalved runs the real algo.Minimize with Mu doubled, so that
	// mu_cal doubles and the count noise halves, while claiming the configured per-count mu:
	// the count audit must flag it.
	controlCalibrationNoiseHalved = controlPrefix + "calibration-noise-halved"
)

func calibrationNames() []string {
	return []string{dpgiboCalibrated, dpgiboCalibrationCount, controlCalibrationNoiseHalved}
}

// auditCalibrationQuantile is the calibration's target quantile in the audit.
const auditCalibrationQuantile = 0.25

// calibrationSettings returns the settings of a calibration mechanism and the mu it claims
// for its statistic.
func calibrationSettings(cfg config, name string) (algo.Settings, float64) {
	// The quantile is pinned (the value of every committed audit), so that the audit does
	// not move with algo's default; the privacy claim does not depend on it.
	c := algo.ClipCalibration{Share: cfg.CalibrationShare, Queries: cfg.CalibrationQueries, Anchor: cfg.Clip, Quantile: auditCalibrationQuantile}
	s := algo.Settings{Iters: cfg.Iters, Mu: cfg.Mu, Step: cfg.Step, StepRule: algo.GradientDescent,
		Kernel: auditKernel, LocalRadius: auditLocalRadius, Clipping: c}
	perCount := cfg.Mu * math.Sqrt(cfg.CalibrationShare) / math.Sqrt(float64(cfg.CalibrationQueries))
	switch name {
	case dpgiboCalibrated:
		return s, cfg.Mu
	case controlCalibrationNoiseHalved:
		s.Mu = 2 * cfg.Mu
	}
	return s, perCount
}

// buildCalibrationMechanism builds one of the calibration mechanisms.
func buildCalibrationMechanism(cfg config, name string) (mechanism, error) {
	s, claim := calibrationSettings(cfg, name)
	return mechanism{
		Name:      name,
		MuClaimed: claim,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			res, err := runCalibrated(ctx, cfg, s, prime, rng)
			if err != nil {
				return 0, err
			}
			if name == dpgiboCalibrated {
				return res.Theta[0], nil
			}
			return res.Calibration.Counts[0], nil
		},
	}, nil
}

// runCalibrated runs algo.Minimize with calibration on the flip neighbour X (prime false)
// or X' from theta = 0.
func runCalibrated(ctx context.Context, cfg config, s algo.Settings, prime bool, rng *rand.Rand) (algo.Result, error) {
	obj, err := flipNeighbour(cfg, prime)
	if err != nil {
		return algo.Result{}, err
	}
	res, err := algo.Minimize(ctx, obj, make([]float64, cfg.Dim), s, rng, nil)
	if err != nil {
		return algo.Result{}, err
	}
	if res.Calibration == nil || res.Iters != cfg.Iters || len(res.Calibration.Counts) != cfg.CalibrationQueries {
		return algo.Result{}, fmt.Errorf("algo.Minimize ran %d of %d iterations and reported calibration %+v, want %d counts", res.Iters, cfg.Iters, res.Calibration, cfg.CalibrationQueries)
	}
	return res, nil
}

// checkCalibrationFlip verifies on noiseless runs (Mu = +Inf) that the first calibration
// count is 1 in X and 0 in X', as the audit of the count assumes.
func checkCalibrationFlip(ctx context.Context, cfg config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	s, _ := calibrationSettings(cfg, dpgiboCalibrated)
	s.Mu = math.Inf(1)
	for _, prime := range []bool{false, true} {
		res, err := runCalibrated(ctx, cfg, s, prime, rand.New(rand.NewPCG(cfg.Seed, 0)))
		if err != nil {
			return err
		}
		if want := float64(1 - boolInt(prime)); res.Calibration.Counts[0] != want {
			return fmt.Errorf("audit: calibration flip check failed on %s: first count %v, want %v", datasetName(boolInt(prime)), res.Calibration.Counts[0], want)
		}
	}
	return nil
}
