package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// Adaptive-clipping mechanisms of the audit. Their neighbours are FlipNeighbours: user 0 is
// clipped at every iteration in X and never in X', so each released count differs by one
// and each clipped mean gradient by B_t/n.
const (
	// dpgiboAdaptive is Algorithm 1 (gradient-descent step) with adaptive clipping; the
	// statistic is the released theta's first coordinate and the claim the total Mu.
	dpgiboAdaptive = "dp-gibo-adaptive"
	// dpgiboAdaptiveCounts audits the released counts of the same runs directly: the
	// statistic is the sum of the T released counts, whose mean differs by exactly T between
	// the neighbours, and the claim is the count part mu_c of Mu (algo.AdaptiveClip.CountMu).
	dpgiboAdaptiveCounts = "dp-gibo-adaptive-counts"
	// controlAdaptiveCountNoiseHalved runs the real algo.Minimize with Mu doubled, so that
	// mu_c doubles and the count noise sqrt(T)/mu_c halves, while claiming the configured
	// mu_c for the released counts: the count audit must flag it.
	controlAdaptiveCountNoiseHalved = controlPrefix + "adaptive-count-noise-halved"
)

func adaptiveNames() []string {
	return []string{dpgiboAdaptive, dpgiboAdaptiveCounts, controlAdaptiveCountNoiseHalved}
}

// newFlipNeighbours returns the pair (X, X') of the adaptive-clipping audit in dimension dim
// with users users and the box [-halfWidth, halfWidth]^dim: in X user 0's loss is
// Slope*theta_1 (gradient norm Slope, clipped whenever B_t < Slope), in X' it is zero like
// every other user's (gradient 0, never clipped). Every other user is under the bound in
// both, so the count of users at or under B_t is n-1 in X and n in X' at every iteration:
// the count's sensitivity 1 is used in full. The clipped mean gradients differ by B_t/n,
// half the gradient sensitivity.
func newFlipNeighbours(dim, users int, slope, halfWidth float64) (x, xPrime *linearNeighbour, err error) {
	x, xPrime, err = newLinearNeighbours(dim, users, slope, halfWidth)
	if err != nil {
		return nil, nil, err
	}
	xPrime.sign = 0
	return x, xPrime, nil
}

// adaptiveSettings returns the settings of an adaptive-clipping mechanism and the mu it
// claims for its statistic.
func adaptiveSettings(cfg config, name string) (algo.Settings, float64) {
	a := algo.AdaptiveClip{Quantile: cfg.ClipQuantile, Rate: cfg.ClipRate, CountShare: cfg.ClipCountShare, Start: cfg.Clip}
	s := algo.Settings{Iters: cfg.Iters, Mu: cfg.Mu, Step: cfg.Step, StepRule: algo.GradientDescent, Clipping: a}
	muCount := a.CountMu(cfg.Mu)
	switch name {
	case dpgiboAdaptive:
		return s, cfg.Mu
	case controlAdaptiveCountNoiseHalved:
		s.Mu = 2 * cfg.Mu
	}
	return s, muCount
}

// buildAdaptiveMechanism builds one of the adaptive-clipping mechanisms.
func buildAdaptiveMechanism(cfg config, name string) (mechanism, error) {
	s, claim := adaptiveSettings(cfg, name)
	counts := name != dpgiboAdaptive
	return mechanism{
		Name:      name,
		MuClaimed: claim,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			theta, sum, err := runAdaptive(ctx, cfg, s, prime, rng)
			if counts {
				return sum, err
			}
			return theta[0], err
		},
	}, nil
}

// runAdaptive runs algo.Minimize on the flip neighbour X (prime false) or X' from theta = 0
// and returns the released theta and the sum of the released counts.
func runAdaptive(ctx context.Context, cfg config, s algo.Settings, prime bool, rng *rand.Rand) ([]float64, float64, error) {
	obj, err := flipNeighbour(cfg, prime)
	if err != nil {
		return nil, 0, err
	}
	sum := 0.0
	res, err := algo.Minimize(ctx, obj, make([]float64, cfg.Dim), s, rng, func(it algo.Iteration) error {
		sum += it.ClipCount
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if res.Iters != cfg.Iters {
		return nil, 0, fmt.Errorf("algo.Minimize stopped after %d of %d iterations", res.Iters, cfg.Iters)
	}
	return res.Theta, sum, nil
}

// flipNeighbour returns the flip neighbour X (prime false) or X' of cfg.
func flipNeighbour(cfg config, prime bool) (*linearNeighbour, error) {
	x, xPrime, err := newFlipNeighbours(cfg.Dim, cfg.Users, cfg.Slope, cfg.HalfWidth)
	if prime {
		return xPrime, err
	}
	return x, err
}

// checkFlip verifies on noiseless runs (Mu = +Inf, otherwise the audited adaptive settings)
// that the flip neighbours flip: at every iteration the count of users at or under B_t is
// n-1 in X (user 0 clipped) and n in X' (user 0 not clipped), and B_t stays below Slope/2,
// so that the count noise of the private runs would have to push B_t up by more than a
// factor 2 to unclip user 0 in X.
func checkFlip(ctx context.Context, cfg config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	s, _ := adaptiveSettings(cfg, dpgiboAdaptive)
	s.Mu = math.Inf(1)
	for _, prime := range []bool{false, true} {
		x, xPrime, err := newFlipNeighbours(cfg.Dim, cfg.Users, cfg.Slope, cfg.HalfWidth)
		if err != nil {
			return err
		}
		obj, want := x, float64(cfg.Users-1)
		if prime {
			obj, want = xPrime, float64(cfg.Users)
		}
		_, err = algo.Minimize(ctx, obj, make([]float64, cfg.Dim), s, rand.New(rand.NewPCG(cfg.Seed, 0)), func(it algo.Iteration) error {
			if it.ClipCount != want || it.Clip >= cfg.Slope/2 {
				return fmt.Errorf("audit: flip check failed on %s at iteration %d: count %v under B_t = %v, want %v with B_t < Slope/2 = %v",
					datasetName(boolInt(prime)), it.Iter, it.ClipCount, it.Clip, want, cfg.Slope/2)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
