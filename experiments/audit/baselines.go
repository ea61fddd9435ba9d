package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/baselines/bo"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/score"
)

// Private baselines the audit knows, by their names in the registry.
var (
	dpRandom = score.DPRandom{}.Info().Name
	dpucb    = bo.DPUCB{}.Info().Name
)

const (
	// controlDPRandomNoiseHalved runs the real dp-random with Mu doubled while claiming the
	// configured Mu: the score audit must flag it.
	controlDPRandomNoiseHalved = controlPrefix + "dp-random-noise-halved"
)

// baselineNames lists the private baselines (and their control) the audit knows.
func baselineNames() []string { return []string{dpRandom, dpucb, controlDPRandomNoiseHalved} }

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
	case dpRandom, dpucb:
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
