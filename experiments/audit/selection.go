package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"dpgibo/accounting"
	"dpgibo/baselines"
)

// Private selections the audit knows: report noisy min over two candidates, audited at the
// secondary currency (baselines.CurrencyGDP: epsilon = accounting.PureWithinGDP(Mu), which
// is Mu-GDP), so that its claim is the configured Mu.
const (
	DPRNM = "dp-rnm"
	// ControlDPRNMNoiseQuartered runs the real dp-rnm at four times the claimed epsilon (a
	// quarter of the noise scale) while claiming the configured Mu. Half the noise is not a
	// control here: with two candidates the released index is a binary outcome whose
	// privacy loss on the swap pair, ln((1 - q)/q) with q = laplaceDiffTail(Delta, Delta/eps),
	// stays below eps (0.785 against 0.807 at Mu = 1); the factor 2 of the noise scale
	// protects against pairs of many candidates, which two cannot show.
	ControlDPRNMNoiseQuartered = ControlPrefix + "dp-rnm-noise-quartered"
)

// selectionNames lists the private selections (and their control) the audit knows.
func selectionNames() []string {
	return append([]string{DPRNM, ControlDPRNMNoiseQuartered}, randomSelections()...)
}

// SwapNeighbour is one of the pair of neighbouring datasets of the selection audit, for a
// run that evaluates two candidates: every user's loss is 0 except user 0's, which is Lmax
// at the first point evaluated and 0 at the second in X, and the reverse in X'. Replacing
// user 0 thus moves the two candidates' clipped mean losses by Lmax/n in opposite
// directions, the case for which report noisy min needs its noise scale 2 Delta/eps. The
// candidates are drawn by the method without looking at the data, so for each draw the
// two datasets are a fixed neighbouring pair. First returns the first point evaluated.
type SwapNeighbour struct {
	unitNeighbour
	calls int
	first []float64
}

// NewSwapNeighbour returns X (prime false) or X' on [0, 1]^dim.
func NewSwapNeighbour(dim, users int, lossBound float64, prime bool) (*SwapNeighbour, error) {
	u, err := newUnitNeighbour(dim, users, lossBound, prime)
	if err != nil {
		return nil, err
	}
	return &SwapNeighbour{unitNeighbour: u}, nil
}

// unitNeighbour is what the selection audits' neighbours share: [0, 1]^dim, n users,
// Lmax, and which of the pair it is.
type unitNeighbour struct {
	dim, users int
	bound      float64
	prime      bool
	lo, hi     []float64
}

// newUnitNeighbour validates the settings (as NewConstantNeighbours does) and returns X
// (prime false) or X'.
func newUnitNeighbour(dim, users int, lossBound float64, prime bool) (unitNeighbour, error) {
	x, _, err := NewConstantNeighbours(dim, users, lossBound)
	if err != nil {
		return unitNeighbour{}, err
	}
	lo, hi := x.Bounds()
	return unitNeighbour{dim: dim, users: users, bound: lossBound, prime: prime, lo: lo, hi: hi}, nil
}

// Dim is the number of hyperparameters.
func (o *unitNeighbour) Dim() int { return o.dim }

// Bounds returns [0, 1]^dim.
func (o *unitNeighbour) Bounds() (lo, hi []float64) { return o.lo, o.hi }

// Users is n.
func (o *unitNeighbour) Users() int { return o.users }

// LossBound is Lmax.
func (o *unitNeighbour) LossBound() float64 { return o.bound }

// First is a copy of the first point evaluated (nil before any).
func (o *SwapNeighbour) First() []float64 { return append([]float64(nil), o.first...) }

// Losses writes user 0's loss (see SwapNeighbour) and 0 for every other user. A third
// evaluation is an error: the pair is built for two candidates.
func (o *SwapNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != o.dim || len(dst) != o.users {
		return fmt.Errorf("audit: SwapNeighbour.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), o.dim, len(dst), o.users)
	}
	if o.calls >= 2 {
		return fmt.Errorf("audit: SwapNeighbour is built for two evaluations, got a third")
	}
	for i := range dst {
		dst[i] = 0
	}
	if o.calls == 0 {
		o.first = append([]float64(nil), theta...)
	}
	if (o.calls == 0) != o.prime {
		dst[0] = o.bound
	}
	o.calls++
	return nil
}

// buildSelectionMechanism audits dp-rnm on the swap pair: the statistic is 1 when the
// released point is the first candidate and 0 otherwise.
func buildSelectionMechanism(cfg Config, name string) (Mechanism, error) {
	if slices.Contains(randomSelections(), name) {
		return buildRandomSelection(cfg, name)
	}
	runMu := cfg.Mu
	switch name {
	case DPRNM:
	case ControlDPRNMNoiseQuartered:
		eps, err := accounting.PureWithinGDP(cfg.Mu)
		if err != nil {
			return Mechanism{}, err
		}
		if runMu, err = accounting.PureToGDP(4 * eps); err != nil {
			return Mechanism{}, err
		}
	default:
		return Mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	return Mechanism{
		Name:      name,
		MuClaimed: cfg.Mu,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			obj, err := NewSwapNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
			if err != nil {
				return 0, err
			}
			m, err := baselines.NewDPRNM(runMu, baselines.CurrencyGDP, cfg.LossBound)
			if err != nil {
				return 0, err
			}
			res, err := m.Run(ctx, obj, 2, rng, nil)
			if err != nil {
				return 0, err
			}
			first := obj.First()
			for j := range first {
				if res.Theta[j] != first[j] {
					return 0, nil
				}
			}
			return 1, nil
		},
	}, nil
}

// The private selections with a random number of trials, audited at their primary
// currency against (epsilon, delta) claims (Config.SelectionMu), each with a control that
// runs the real method without noise (mu = +Inf) while claiming the configured level.
const (
	DPSelectGeometric      = "dp-select-geometric"
	DPSelectNegBin         = "dp-select-negbin"
	DPSelectPoisson        = "dp-select-poisson"
	DPHyPO                 = "dp-hypo"
	ControlSelectionSuffix = "-no-noise"
)

// randomSelections lists the selections with a random number of trials and their
// controls.
func randomSelections() []string {
	var out []string
	for _, m := range []string{DPSelectGeometric, DPSelectNegBin, DPSelectPoisson, DPHyPO} {
		out = append(out, m, ControlPrefix+m+ControlSelectionSuffix)
	}
	return out
}

// SplitNeighbour is one of the pair of neighbouring datasets of the audit of the
// selections with a random number of trials, on [0, 1]^dim: every user's loss is 0 except
// user 0's, which is Lmax where theta_1 < 1/2 in X and where theta_1 >= 1/2 in X'. Every
// candidate's clipped mean loss moves by Lmax/n between the two, in opposite directions on
// the two halves of the box, so X favours the upper half and X' the lower; the statistic
// is the released theta_1.
type SplitNeighbour struct{ unitNeighbour }

// NewSplitNeighbour returns X (prime false) or X'.
func NewSplitNeighbour(dim, users int, lossBound float64, prime bool) (*SplitNeighbour, error) {
	u, err := newUnitNeighbour(dim, users, lossBound, prime)
	if err != nil {
		return nil, err
	}
	return &SplitNeighbour{u}, nil
}

// Losses writes user 0's loss (see SplitNeighbour) and 0 for every other user.
func (o *SplitNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != o.dim || len(dst) != o.users {
		return fmt.Errorf("audit: SplitNeighbour.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), o.dim, len(dst), o.users)
	}
	for i := range dst {
		dst[i] = 0
	}
	if (theta[0] < 0.5) != o.prime {
		dst[0] = o.bound
	}
	return nil
}

// buildRandomSelection audits a selection with a random number of trials (or its control)
// on the split pair: the claim is the plan's (epsilon, delta) at Config.SelectionMu and a
// mean of Config.SelectionBudget trials.
func buildRandomSelection(cfg Config, name string) (Mechanism, error) {
	method, control := strings.CutPrefix(name, ControlPrefix)
	method = strings.TrimSuffix(method, ControlSelectionSuffix)
	// DP-HyPO's density is post-processing of released scores: a coarser discretisation
	// changes its run time, not the privacy audited.
	sel := baselines.SelectConfig{Candidates: 64}
	plan, ok, err := baselines.PlanFor(method, baselines.Options{Mu: cfg.SelectionMu, Select: sel}, cfg.SelectionBudget)
	if !ok {
		return Mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	if err != nil {
		return Mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	runMu := cfg.SelectionMu
	if control {
		runMu = math.Inf(1)
	}
	opt := baselines.Options{Mu: runMu, LossBound: cfg.LossBound, Select: sel, UCB: cfg.UCB}
	if _, err := baselines.New(method, opt); err != nil {
		return Mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	return Mechanism{
		Name: name, MuClaimed: math.NaN(), EpsClaimed: plan.Epsilon, DeltaClaimed: plan.Delta,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			obj, err := NewSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
			if err != nil {
				return 0, err
			}
			m, err := baselines.New(method, opt)
			if err != nil {
				return 0, err
			}
			res, err := m.Run(ctx, obj, cfg.SelectionBudget, rng, nil)
			if err != nil {
				return 0, err
			}
			return res.Theta[0], nil
		},
	}, nil
}
