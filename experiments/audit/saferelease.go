package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/baselines/gibo"
)

// The safe release of gibo.Safe, audited as a component with its own claim: the
// choice between theta0 and the last iterate, which is mu sqrt(ReleaseShare)-GDP. Its
// neighbours (spikeNeighbours) put user 0's loss Lmax at exactly theta0 in X and 0 there in
// X', and 0 in X and Lmax in X' at every other point; every other user's loss is 0. With the
// last iterate anywhere but theta0, the difference of the two clipped means is +Lmax/n in X
// and -Lmax/n in X', so the release's noisy comparison is a Gaussian mechanism used at its
// full sensitivity, and the released choice is its threshold test at 0: the audit's
// statistic (1 when theta0 is released) reaches the claim.
const (
	// dpgiboSafeRelease is SafeGIBO with the release's mu at the audit's Mu (the run's
	// total Mu is Mu/sqrt(private.DefaultReleaseShare)); the claim is the release's mu.
	dpgiboSafeRelease = "dp-gibo-safe-release"
	// controlSafeReleaseNoiseHalved runs SafeGIBO with twice that total Mu, so that the
	// release's noise halves, while claiming the same release mu: the audit must flag it.
	controlSafeReleaseNoiseHalved = controlPrefix + "safe-release-noise-halved"
	// controlSafeReleaseNoiseThird runs SafeGIBO with three times that total Mu.
	controlSafeReleaseNoiseThird = controlPrefix + "safe-release-noise-third"
	// dpgiboHybridStart is the start choice of gibo.Hybrid on the same neighbours, in
	// d = 1 a choice between theta0 and one uniform point: its statistic is 1 when the
	// chosen start is theta0, its claim the start choice's mu (the run's total Mu is the
	// audit's Mu over sqrt(private.DefaultStartShare)).
	dpgiboHybridStart = "dp-gibo-hybrid-start"
	// controlHybridStartNoiseHalved runs HybridGIBO with twice that total Mu while claiming
	// the same start mu: the audit must flag it.
	controlHybridStartNoiseHalved = controlPrefix + "hybrid-start-noise-halved"
)

func safeReleaseNames() []string {
	return []string{dpgiboSafeRelease, controlSafeReleaseNoiseHalved, controlSafeReleaseNoiseThird, dpgiboHybridStart, controlHybridStartNoiseHalved}
}

// spikeNeighbour is one of the safe release's neighbours (see above).
type spikeNeighbour struct {
	users      int
	bound, at  float64
	prime      bool
	lo, hi     []float64
	dimensions int
}

func (o *spikeNeighbour) Dim() int                   { return o.dimensions }
func (o *spikeNeighbour) Bounds() (lo, hi []float64) { return o.lo, o.hi }
func (o *spikeNeighbour) Users() int                 { return o.users }
func (o *spikeNeighbour) LossBound() float64         { return o.bound }

// Losses writes user 0's loss (Lmax at theta0 in X, elsewhere in X') and 0 for the others.
func (o *spikeNeighbour) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = 0
	}
	if (theta[0] == o.at) != o.prime {
		dst[0] = o.bound
	}
	return nil
}

// spikeNeighbours returns the safe release's neighbours in dimension cfg.Dim, with theta0
// at the origin.
func spikeNeighbours(cfg config, prime bool) *spikeNeighbour {
	lo, hi := make([]float64, cfg.Dim), make([]float64, cfg.Dim)
	for j := range lo {
		lo[j], hi[j] = -cfg.HalfWidth, cfg.HalfWidth
	}
	return &spikeNeighbour{users: cfg.Users, bound: cfg.LossBound, prime: prime, lo: lo, hi: hi, dimensions: cfg.Dim}
}

// buildSafeReleaseMechanism builds the safe release's row, the hybrid's start choice's, or
// their controls.
func buildSafeReleaseMechanism(cfg config, name string) (mechanism, error) {
	hybrid := name == dpgiboHybridStart || name == controlHybridStartNoiseHalved
	share := gibo.DefaultReleaseShare
	if hybrid {
		share = gibo.DefaultStartShare
	}
	total := cfg.Mu / math.Sqrt(share)
	switch name {
	case controlSafeReleaseNoiseHalved, controlHybridStartNoiseHalved:
		total *= 2
	case controlSafeReleaseNoiseThird:
		total *= 3
	}
	// The released choice is a threshold test at 0 of a Gaussian shifted by exactly the
	// release's mu (in units of its noise): the test's population mu is the claim.
	population := 0.0
	if !hybrid {
		population = cfg.Mu
	}
	s := algo.Settings{Mu: total, Iters: cfg.Iters, Step: cfg.Step, StepRule: algo.GradientDescent,
		Clipping: algo.FixedClip(cfg.Clip), Kernel: auditKernel, LocalRadius: auditLocalRadius}
	budget := cfg.Iters*(cfg.Dim+1) + 2
	if hybrid {
		budget += cfg.Dim + 1
	}
	return mechanism{
		Name:       name,
		MuClaimed:  cfg.Mu,
		Population: population,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			theta0 := make([]float64, cfg.Dim)
			obj := spikeNeighbours(cfg, prime)
			if hybrid {
				var start []float64
				_, err := gibo.Hybrid{Settings: s, Theta0: theta0}.Run(ctx, obj, budget, rng, func(it algo.Iteration) error {
					if start == nil {
						start = it.Theta // the first report is the chosen start
					}
					return nil
				})
				if err != nil {
					return 0, err
				}
				if start[0] == 0 {
					return 1, nil
				}
				return 0, nil
			}
			res, err := gibo.Safe{Settings: s, Theta0: theta0}.Run(ctx, obj, budget, rng, nil)
			if err != nil {
				return 0, err
			}
			if res.GIBO.Theta[0] == 0 {
				return 0, fmt.Errorf("audit: %s: DP-GIBO's last iterate is theta0, where the neighbours' scores do not differ", name)
			}
			if res.Theta[0] == 0 {
				return 1, nil
			}
			return 0, nil
		},
	}, nil
}
