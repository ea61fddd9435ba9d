package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"dpgibo/algo"
)

// giboRow describes one DP-GIBO row: the settings actually run and the mu claimed for them.
type giboRow struct {
	settings  algo.Settings
	muClaimed float64
}

// The audit's surrogate: length-scale 1, variance 1, design points within 2 of theta, set
// explicitly so that the audit does not move with algo's box-derived defaults.
var (
	auditKernel      = algo.RBF{Lengthscale: 1, Variance: 1}
	auditLocalRadius = 2.0
)

// giboVariant returns the settings of a DP-GIBO mechanism or control.
func giboVariant(cfg config, name string) (giboRow, bool) {
	s := algo.Settings{
		Iters:       cfg.Iters,
		Clipping:    algo.FixedClip(cfg.Clip),
		Mu:          cfg.Mu,
		Step:        cfg.Step,
		StepRule:    algo.GradientDescent,
		Kernel:      auditKernel,
		LocalRadius: auditLocalRadius}
	switch name {
	case DPGIBO:
	case dpgiboAdaGrad:
		s.StepRule = algo.AdaGrad
	case ControlNoiseHalved:
		// The real code path with Mu doubled: PrivacyNoiseStd halves, the claim stays cfg.Mu.
		s.Mu = 2 * cfg.Mu
	case controlNoiseThird:
		s.Mu = 3 * cfg.Mu
	case controlNoClip:
		// Clipping never binds at Clip*NoClipFactor*Slope/Clip; Mu scales with the clipping
		// norm so that the noise std 2*Clip*sqrt(T)/(n*Mu) is still the claimed one.
		noClip := cfg.NoClipFactor * cfg.Slope
		s.Clipping = algo.FixedClip(noClip)
		s.Mu = cfg.Mu * noClip / cfg.Clip
	default:
		return giboRow{}, false
	}
	return giboRow{settings: s, muClaimed: cfg.Mu}, true
}

// giboPopulation is the population mu of the gradient-descent row's test and of its noise
// controls: on the linear neighbours the released theta_1 is Gaussian with a shift of exactly
// the claimed mu standard deviations (checkWorstCase confirms every step's clipping), so the
// test's mu is the claim. The other rows have none.
func giboPopulation(cfg config, name string) float64 {
	switch name {
	case DPGIBO, ControlNoiseHalved, controlNoiseThird:
		return cfg.Mu
	}
	return 0
}

func buildMechanism(cfg config, name string) (mechanism, error) {
	if g, ok := giboVariant(cfg, name); ok {
		return mechanism{
			Name:       name,
			MuClaimed:  g.muClaimed,
			Population: giboPopulation(cfg, name),
			Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
				theta, err := runGIBO(ctx, cfg, g.settings, prime, make([]float64, cfg.Dim), rng)
				if err != nil {
					return 0, err
				}
				return theta[0], nil
			},
		}, nil
	}
	if slices.Contains(adaptiveNames(), name) {
		return buildAdaptiveMechanism(cfg, name)
	}
	if slices.Contains(calibrationNames(), name) {
		return buildCalibrationMechanism(cfg, name)
	}
	if slices.Contains(safeReleaseNames(), name) {
		return buildSafeReleaseMechanism(cfg, name)
	}
	if slices.Contains(selectionNames(), name) {
		return buildSelectionMechanism(cfg, name)
	}
	if slices.Contains(tuneNames(), name) {
		return buildTuneMechanism(cfg, name)
	}
	return buildBaselineMechanism(cfg, name)
}

// runGIBO runs algo.Minimize on X (prime false) or X' from theta0 and returns the released
// theta.
func runGIBO(ctx context.Context, cfg config, s algo.Settings, prime bool, theta0 []float64, rng *rand.Rand) ([]float64, error) {
	x, xPrime, err := newLinearNeighbours(cfg.Dim, cfg.Users, cfg.Slope, cfg.HalfWidth)
	if err != nil {
		return nil, err
	}
	obj := x
	if prime {
		obj = xPrime
	}
	res, err := algo.Minimize(ctx, obj, theta0, s, rng, nil)
	if err != nil {
		return nil, err
	}
	if len(res.Theta) != cfg.Dim {
		return nil, fmt.Errorf("algo.Minimize released theta of length %d, want %d", len(res.Theta), cfg.Dim)
	}
	return res.Theta, nil
}

// worstCaseTol is the relative tolerance of checkWorstCase.
const worstCaseTol = 1e-6

// checkWorstCase verifies, on noiseless runs (Mu = +Inf, otherwise the audited settings),
// that the neighbours are the worst case the audit needs: from several starts spread over
// the region the noisy runs visit, each of the T gradient steps moves theta_1 by exactly
// -Sign*Step*Clip/n on X and X' (user 0's surrogate gradient is clipped, points along e_1 with
// a fixed sign), and that with the no-clip control's clipping norm the steps are larger than
// Step*Clip/n but not clipped (so that control really has clipping removed).
func checkWorstCase(ctx context.Context, cfg config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	// Standard deviation of the released theta_1 of the audited gradient-descent mechanism.
	spread := cfg.Step * math.Sqrt(float64(cfg.Iters)) * algo.PrivacyNoiseStd(cfg.Clip, cfg.Iters, cfg.Users, cfg.Mu)
	starts := []float64{0, -3 * spread, 3 * spread}
	want := float64(cfg.Iters) * cfg.Step * cfg.Clip / float64(cfg.Users)
	for _, start := range starts {
		if math.Abs(start)+2*want >= cfg.HalfWidth {
			return fmt.Errorf("audit: HalfWidth %v is too small for the spread %v of the released theta", cfg.HalfWidth, spread)
		}
		for _, prime := range []bool{false, true} {
			sign := 1.0
			if prime {
				sign = -1
			}
			theta0 := make([]float64, cfg.Dim)
			theta0[0] = start
			s := algo.Settings{Iters: cfg.Iters, Clipping: algo.FixedClip(cfg.Clip), Mu: math.Inf(1), Step: cfg.Step, StepRule: algo.GradientDescent,
				Kernel: auditKernel, LocalRadius: auditLocalRadius}
			// The noiseless run draws no privacy noise; the design may still use rng.
			theta, err := runGIBO(ctx, cfg, s, prime, theta0, rand.New(rand.NewPCG(cfg.Seed, 0)))
			if err != nil {
				return fmt.Errorf("audit: worst-case check: %w", err)
			}
			moved := theta[0] - start
			if math.Abs(moved-(-sign*want)) > worstCaseTol*want {
				return fmt.Errorf("audit: worst-case check failed from theta_1 = %v on %s: noiseless DP-GIBO moved theta_1 by %v, want %v "+
					"(user 0's surrogate gradient is not clipped to +-Clip*e_1 at every iterate; raise Slope)",
					start, datasetName(boolInt(prime)), moved, -sign*want)
			}
			noClip := cfg.NoClipFactor * cfg.Slope
			s.Clipping = algo.FixedClip(noClip)
			theta, err = runGIBO(ctx, cfg, s, prime, theta0, rand.New(rand.NewPCG(cfg.Seed, 0)))
			if err != nil {
				return fmt.Errorf("audit: worst-case check: %w", err)
			}
			moved = -sign * (theta[0] - start)
			ceiling := float64(cfg.Iters) * cfg.Step * noClip / float64(cfg.Users)
			if !(moved > want*(1+worstCaseTol) && moved < ceiling*(1-worstCaseTol)) {
				return fmt.Errorf("audit: no-clip check failed from theta_1 = %v on %s: noiseless run with Clip %v moved theta_1 by %v, want strictly between %v and %v",
					start, datasetName(boolInt(prime)), noClip, moved, want, ceiling)
			}
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
