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
	DPRandom = score.DPRandom{}.Info().Name
	DPUCB    = bo.DPUCB{}.Info().Name
)

const (
	// ControlDPRandomNoiseHalved runs the real dp-random with Mu doubled while claiming the
	// configured Mu: the score audit must flag it.
	ControlDPRandomNoiseHalved = ControlPrefix + "dp-random-noise-halved"
)

// baselineNames lists the private baselines (and their control) the audit knows.
func baselineNames() []string { return []string{DPRandom, DPUCB, ControlDPRandomNoiseHalved} }

// ConstantNeighbour is one of a pair of neighbouring datasets built for the audit of the
// score-releasing baselines: every user's loss is 0 everywhere except user 0's, which is
// 0 in X and LossBound in X' at every theta. Clipped to [0, Lmax], user 0 therefore moves
// every pre-noise score (the clipped mean loss) by exactly Lmax/n, the sensitivity the
// baselines calibrate their noise to, at whatever candidates they evaluate.
type ConstantNeighbour struct {
	dim, users int
	user0      float64 // user 0's loss
	bound      float64
	lo, hi     []float64
}

// NewConstantNeighbours returns the pair (X, X') on [0, 1]^dim with users users and loss
// bound lossBound.
func NewConstantNeighbours(dim, users int, lossBound float64) (x, xPrime *ConstantNeighbour, err error) {
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
	x = &ConstantNeighbour{dim: dim, users: users, user0: 0, bound: lossBound, lo: lo, hi: hi}
	xPrime = &ConstantNeighbour{dim: dim, users: users, user0: lossBound, bound: lossBound, lo: lo, hi: hi}
	return x, xPrime, nil
}

// Dim is the number of hyperparameters.
func (o *ConstantNeighbour) Dim() int { return o.dim }

// Bounds returns [0, 1]^dim.
func (o *ConstantNeighbour) Bounds() (lo, hi []float64) { return o.lo, o.hi }

// Users is n.
func (o *ConstantNeighbour) Users() int { return o.users }

// LossBound is the public per-user loss bound Lmax.
func (o *ConstantNeighbour) LossBound() float64 { return o.bound }

// Losses writes user 0's loss (0 in X, Lmax in X') and 0 for every other user.
func (o *ConstantNeighbour) Losses(theta, dst []float64) error {
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
func buildBaselineMechanism(cfg Config, name string) (Mechanism, error) {
	method, runMu := name, cfg.Mu
	switch name {
	case DPRandom, DPUCB:
	case ControlDPRandomNoiseHalved:
		method, runMu = DPRandom, 2*cfg.Mu
	default:
		return Mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	budget := cfg.BaselineBudget
	return Mechanism{
		Name:      name,
		MuClaimed: cfg.Mu,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			x, xPrime, err := NewConstantNeighbours(cfg.Dim, cfg.Users, cfg.LossBound)
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
