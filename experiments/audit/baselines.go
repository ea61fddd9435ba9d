package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/baselines/bo"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/score"
	"dpgibo/baselines/zo"
)

// Private baselines the audit knows, by their names in the registry.
var (
	dpRandom    = score.DPRandom{}.Info().Name
	dpucb       = bo.DPUCB{}.Info().Name
	dpucbScaled = bo.DPUCBScaled{}.Info().Name
	dpZO        = zo.DPZO{}.Info().Name
)

const (
	// controlDPRandomNoiseHalved runs the real dp-random with Mu doubled while claiming the
	// configured Mu: the score audit must flag it.
	controlDPRandomNoiseHalved = controlPrefix + "dp-random-noise-halved"
	// controlDPZONoiseHalved runs dp-zo with Mu doubled while claiming the configured Mu.
	controlDPZONoiseHalved = controlPrefix + "dp-zo-noise-halved"
)

// baselineNames lists the private baselines (and their control) the audit knows.
func baselineNames() []string {
	return []string{dpRandom, dpucb, controlDPRandomNoiseHalved, dpucbScaled, dpZO, controlDPZONoiseHalved}
}

// constantNeighbour is one of a pair of neighbouring datasets built for the audit of the
// score-releasing baselines: every user's loss is 0 everywhere except user 0's, which is
// 0 in X and LossBound in X' at every theta. Clipped to [0, Lmax], user 0 therefore moves
// every pre-noise score (the clipped mean loss) by exactly Lmax/n, the sensitivity the
// baselines calibrate their noise to, at whatever candidates they evaluate.
type constantNeighbour struct {
	dim, users int
	user0      float64 // user 0's loss
	bound      float64
	lo, hi     []float64
}

// newConstantNeighbours returns the pair (X, X') on [0, 1]^dim with users users and loss
// bound lossBound.
func newConstantNeighbours(dim, users int, lossBound float64) (x, xPrime *constantNeighbour, err error) {
	switch {
	case dim < 1:
		return nil, nil, fmt.Errorf("audit: neighbours need dim >= 1, got %d", dim)
	case users < 1:
		return nil, nil, fmt.Errorf("audit: neighbours need at least one user, got %d", users)
	case !(lossBound > 0) || math.IsInf(lossBound, 0):
		return nil, nil, fmt.Errorf("audit: loss bound must be positive and finite, got %v", lossBound)
	}
	lo := make([]float64, dim)
	hi := make([]float64, dim)
	for j := range hi {
		hi[j] = 1
	}
	x = &constantNeighbour{dim: dim, users: users, user0: 0, bound: lossBound, lo: lo, hi: hi}
	xPrime = &constantNeighbour{dim: dim, users: users, user0: lossBound, bound: lossBound, lo: lo, hi: hi}
	return x, xPrime, nil
}

// Dim is the number of hyperparameters.
func (o *constantNeighbour) Dim() int { return o.dim }

// Bounds returns [0, 1]^dim.
func (o *constantNeighbour) Bounds() (lo, hi []float64) { return o.lo, o.hi }

// Users is n.
func (o *constantNeighbour) Users() int { return o.users }

// LossBound is the public per-user loss bound Lmax.
func (o *constantNeighbour) LossBound() float64 { return o.bound }

// Losses writes user 0's loss (0 in X, Lmax in X') and 0 for every other user.
func (o *constantNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != o.dim || len(dst) != o.users {
		return fmt.Errorf("audit: ConstantNeighbour.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), o.dim, len(dst), o.users)
	}
	for i := range dst {
		dst[i] = 0
	}
	dst[0] = o.user0
	return nil
}

// buildBaselineMechanism audits a private baseline on the transcript it publishes: the
// statistic is the mean of its K released noisy scores (seen through Options.OnScore).
// On the constant neighbours each score's mean differs by Lmax/n between X and X' and
// carries noise (Lmax/n)*sqrt(K)/mu, so the mean of the K scores separates X from X' by
// exactly mu: a correctly calibrated baseline reads mu_hat/mu near 1.
func buildBaselineMechanism(cfg config, name string) (mechanism, error) {
	method, runMu := name, cfg.Mu
	switch name {
	case dpZO:
		return zoMechanism(cfg, name, cfg.Mu), nil
	case controlDPZONoiseHalved:
		return zoMechanism(cfg, name, 2*cfg.Mu), nil
	case dpRandom, dpucb, dpucbScaled:
	case controlDPRandomNoiseHalved:
		method, runMu = dpRandom, 2*cfg.Mu
	default:
		return mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	budget := cfg.BaselineBudget
	return mechanism{
		Name:      name,
		MuClaimed: cfg.Mu,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			x, xPrime, err := newConstantNeighbours(cfg.Dim, cfg.Users, cfg.LossBound)
			if err != nil {
				return 0, err
			}
			obj := x
			if prime {
				obj = xPrime
			}
			sum, count := 0.0, 0
			opt := registry.Options{
				Mu:        runMu,
				LossBound: cfg.LossBound,
				UCB:       cfg.UCB,
				OnScore:   func(_ []float64, score float64) { sum += score; count++ },
			}
			m, err := registry.New(method, opt)
			if err != nil {
				return 0, err
			}
			if _, err := m.Run(ctx, obj, budget, rng, nil); err != nil {
				return 0, err
			}
			if count != budget {
				return 0, fmt.Errorf("%s released %d scores, want its budget %d", method, count, budget)
			}
			return sum / float64(count), nil
		},
	}, nil
}

// slopeNeighbour is one of the pair of neighbouring datasets of dp-zo's audit, on [0, 1]:
// every user's loss is 0 except user 0's, Lmax theta in X and Lmax (1 - theta) in X'. At
// every iterate and direction v (+1 or -1 in one dimension) user 0's two-point difference
// is Lmax v in X and -Lmax v in X': clipped to Clip = Lmax, they differ by 2 Clip, the
// bound the noise is calibrated to.
type slopeNeighbour struct {
	users  int
	bound  float64
	rising bool
}

func (o slopeNeighbour) Dim() int                   { return 1 }
func (o slopeNeighbour) Bounds() (lo, hi []float64) { return []float64{0}, []float64{1} }
func (o slopeNeighbour) Users() int                 { return o.users }
func (o slopeNeighbour) LossBound() float64         { return o.bound }
func (o slopeNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != 1 || len(dst) != o.users {
		return fmt.Errorf("audit: slopeNeighbour.Losses: theta has length %d (want 1), dst %d (want %d)", len(theta), len(dst), o.users)
	}
	clear(dst)
	dst[0] = o.bound * theta[0]
	if !o.rising {
		dst[0] = o.bound * (1 - theta[0])
	}
	return nil
}

// zoMechanism audits dp-zo, run at runMu while claiming cfg.Mu, on the transcript it
// publishes: the statistic is the mean over its K steps of the released scalar times the
// direction. On the slope neighbours the two datasets' statistics differ by 2 Clip/n and
// carry noise (2 Clip/n) sqrt(K)/(mu sqrt(K)) = 2 Clip/(n mu): they are exactly mu apart, so
// a correctly calibrated dp-zo reads mu_hat/mu near 1.
func zoMechanism(cfg config, name string, runMu float64) mechanism {
	return mechanism{
		Name:      name,
		MuClaimed: cfg.Mu,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			sum, count := 0.0, 0
			m := zo.DPZO{Mu: runMu, LossBound: cfg.LossBound, Step: 0.1, Smoothing: 0.05, Clip: cfg.LossBound,
				OnRelease: func(v []float64, s float64) { sum += s * v[0]; count++ }}
			obj := slopeNeighbour{users: cfg.Users, bound: cfg.LossBound, rising: !prime}
			if _, err := m.Run(ctx, obj, cfg.BaselineBudget, rng, nil); err != nil {
				return 0, err
			}
			if count != cfg.BaselineBudget/2 {
				return 0, fmt.Errorf("%s released %d scalars, want %d", name, count, cfg.BaselineBudget/2)
			}
			return sum / float64(count), nil
		},
	}
}
