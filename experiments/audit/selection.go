package audit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines/bo"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
)

// dp-rnm (report noisy min) is audited on a pair of many candidates (SwapNeighbour with
// Config.RNMCandidates evaluations) at the secondary currency: its claim is pure
// epsilon-DP at epsilon = accounting.PureWithinGDP(Mu), the release that implies Mu-GDP. On
// that pair user 0 raises the first candidate's score and lowers every other one, so the
// first candidate's noisy score moves by 2 Lmax/n against the rest, the case for which report
// noisy min needs its noise scale 2 Delta/eps: with ten candidates the test "the first is
// released" has a population epsilon of 0.803 against the claim 0.807, and the controls
// with half and a third of the noise (run at twice and three times epsilon) 1.585 and 2.324.
// DPRNM is report-noisy-min's row, its name in the registry.
var DPRNM = selection.RNM{}.Info().Name

const (
	// ControlDPRNMNoiseHalved and ControlDPRNMNoiseThird run the real dp-rnm at twice and
	// three times the claimed epsilon (half and a third of the noise scale).
	ControlDPRNMNoiseHalved = ControlPrefix + "dp-rnm-noise-halved"
	ControlDPRNMNoiseThird  = ControlPrefix + "dp-rnm-noise-third"
)

// selectionNames lists the private selections (and their controls) the audit knows.
func selectionNames() []string {
	return append([]string{DPRNM, ControlDPRNMNoiseHalved, ControlDPRNMNoiseThird}, randomSelections()...)
}

// SwapNeighbour is one of the pair of neighbouring datasets of dp-rnm's audit: every user's
// loss is 0 except user 0's, which is Lmax at the first point evaluated and 0 at every later
// one in X, and the reverse in X'. Replacing user 0 thus moves the first candidate's clipped
// mean loss by Lmax/n one way and every other candidate's by Lmax/n the other way, the case
// for which report noisy min needs its noise scale 2 Delta/eps. The candidates are drawn by
// the method without looking at the data, so for each draw the two datasets are a fixed
// neighbouring pair. First returns the first point evaluated.
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

// Losses writes user 0's loss (see SwapNeighbour) and 0 for every other user.
func (o *SwapNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != o.dim || len(dst) != o.users {
		return fmt.Errorf("audit: SwapNeighbour.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), o.dim, len(dst), o.users)
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

// buildSelectionMechanism audits dp-rnm (or a control) on the many-candidate swap pair: the
// statistic is 1 when the released point is the first candidate and 0 otherwise.
func buildSelectionMechanism(cfg Config, name string) (Mechanism, error) {
	if slices.Contains(randomSelections(), name) {
		return buildRandomSelection(cfg, name)
	}
	divisor := map[string]float64{DPRNM: 1, ControlDPRNMNoiseHalved: 2, ControlDPRNMNoiseThird: 3}[name]
	if divisor == 0 {
		return Mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	eps, err := accounting.PureWithinGDP(cfg.Mu)
	if err != nil {
		return Mechanism{}, err
	}
	runMu, err := accounting.PureToGDP(divisor * eps)
	if err != nil {
		return Mechanism{}, err
	}
	m := cfg.RNMCandidates
	return Mechanism{
		Name: name, MuClaimed: math.NaN(), EpsClaimed: eps, Runs: cfg.TrialRuns,
		Population: rnmPopulation(m, eps, 1),
		Run: firstChosen(cfg, func(ctx context.Context, obj algo.Objective, rng *rand.Rand) ([]float64, error) {
			method := selection.RNM{Mu: runMu, Currency: selection.CurrencyGDP, LossBound: cfg.LossBound}
			res, err := method.Run(ctx, obj, m, rng, nil)
			return res.Theta, err
		}),
	}, nil
}

// firstChosen is the run of a selection audited on the swap neighbours (cfg's dimension,
// users and loss bound): release returns the selection's released theta on X or X', and
// the run reads 1 when it is the first candidate, else 0.
func firstChosen(cfg Config, release func(ctx context.Context, obj algo.Objective, rng *rand.Rand) ([]float64, error)) func(context.Context, bool, *rand.Rand) (float64, error) {
	return func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
		obj, err := NewSwapNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
		if err != nil {
			return 0, err
		}
		theta, err := release(ctx, obj, rng)
		if err != nil {
			return 0, err
		}
		if slices.Equal(theta, obj.First()) {
			return 1, nil
		}
		return 0, nil
	}
}

// The private selections with a random number of trials, audited at their primary
// currency against (epsilon, delta) claims (Config.SelectionMu, mean Config.SelectionBudget
// trials), end to end on split neighbours and trial by trial on constant neighbours.
//
// End to end, each but dp-hypo has controls that run the real selection's loop with the
// plan's noise divided by 2 and by 3 (for dp-select-geometric the division by 3 is the
// dropped factor 3 of eps_0 = eps/3, counted once), judged against the exact population
// epsilon of the real selection's test (splitPopulation); dp-hypo, whose adaptive proposals
// have no closed form there, keeps a control without noise.
//
// Trial by trial (name + TrialSuffix), the statistic is the first trial's noisy score
// (OnScore), which on constant neighbours moves by exactly Delta = Lmax/n: a Gaussian trial
// claims mu = 1/z, the Laplace trial of dp-select-geometric pure eps_0 = eps/3, from the
// pinned noise multipliers.
var (
	DPSelectGeometric = selection.Geometric{}.Info().Name
	DPSelectNegBin    = selection.NegBin{}.Info().Name
	DPSelectPoisson   = selection.Poisson{}.Info().Name
	DPHyPO            = bo.DPHyPO{}.Info().Name
)

const (
	ControlSelectionSuffix   = "-no-noise"
	ControlNoiseHalvedSuffix = "-noise-halved"
	ControlNoiseThirdSuffix  = "-noise-third"
	// ControlEps0DroppedSuffix is dp-select-geometric's noise / 3 control: Laplace scale
	// Delta/eps instead of Delta/eps_0 = 3 Delta/eps.
	ControlEps0DroppedSuffix = "-eps0-dropped"
	TrialSuffix              = "-trial"
)

// randomSelections lists the selections with a random number of trials, their controls and
// their trial rows, in table order.
func randomSelections() []string {
	out := []string{
		DPSelectGeometric, ControlPrefix + DPSelectGeometric + ControlNoiseHalvedSuffix, ControlPrefix + DPSelectGeometric + ControlEps0DroppedSuffix,
		DPSelectNegBin, ControlPrefix + DPSelectNegBin + ControlNoiseHalvedSuffix, ControlPrefix + DPSelectNegBin + ControlNoiseThirdSuffix,
		DPSelectPoisson, ControlPrefix + DPSelectPoisson + ControlNoiseHalvedSuffix, ControlPrefix + DPSelectPoisson + ControlNoiseThirdSuffix,
		DPHyPO, ControlPrefix + DPHyPO + ControlSelectionSuffix,
	}
	for _, m := range []string{DPSelectGeometric, DPSelectNegBin, DPSelectPoisson, DPHyPO} {
		out = append(out, m+TrialSuffix)
	}
	return out
}

// selectionRow parses a random selection's row name: the method, the divisor of its noise
// (0: no noise), and whether it is a trial row.
func selectionRow(name string) (method string, divisor float64, trial bool) {
	if m, ok := strings.CutSuffix(name, TrialSuffix); ok {
		return m, 1, true
	}
	rest, control := strings.CutPrefix(name, ControlPrefix)
	if !control {
		return name, 1, false
	}
	for suffix, div := range map[string]float64{ControlNoiseHalvedSuffix: 2, ControlNoiseThirdSuffix: 3, ControlEps0DroppedSuffix: 3, ControlSelectionSuffix: 0} {
		if m, ok := strings.CutSuffix(rest, suffix); ok {
			return m, div, false
		}
	}
	return rest, 1, false
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

// buildRandomSelection audits a selection with a random number of trials, a control or a
// trial row.
func buildRandomSelection(cfg Config, name string) (Mechanism, error) {
	method, divisor, trial := selectionRow(name)
	// DP-HyPO's density is post-processing of released scores: a coarser discretisation
	// changes its run time, not the privacy audited.
	sel := selection.SelectConfig{Candidates: 64}
	opt := registry.Options{Mu: cfg.SelectionMu, LossBound: cfg.LossBound, Select: sel, UCB: cfg.UCB}
	m, err := registry.New(method, opt)
	if err != nil {
		return Mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	planned, ok := m.(interface {
		Plan(budget int) (selection.SelectionPlan, error)
	})
	if !ok {
		return Mechanism{}, fmt.Errorf("audit: %s: %s is not a selection with a random number of trials", name, method)
	}
	plan, err := planned.Plan(cfg.SelectionBudget)
	if err != nil {
		return Mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	pinned, havePinned := pinnedSelections(cfg)
	if trial {
		return buildTrialRow(cfg, name, method, plan)
	}
	mech := Mechanism{Name: name, MuClaimed: math.NaN(), EpsClaimed: plan.Epsilon, DeltaClaimed: plan.Delta}
	if p, ok := pinned[method]; ok && havePinned {
		mech.Population = splitPopulation(p, 1)
	}
	if divisor == 1 {
		// The real method, through the registry.
		mech.Run = func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			obj, err := NewSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
			if err != nil {
				return 0, err
			}
			m, err := registry.New(method, opt)
			if err != nil {
				return 0, err
			}
			res, err := m.Run(ctx, obj, cfg.SelectionBudget, rng, nil)
			if err != nil {
				return 0, err
			}
			return res.Theta[0], nil
		}
		return mech, nil
	}
	// A control: the selection's loop with the plan's noise divided (none at divisor 0).
	broken := plan
	if divisor == 0 {
		broken.NoiseMultiplier = 0
	} else {
		broken.NoiseMultiplier /= divisor
	}
	mech.Run = func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
		obj, err := NewSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
		if err != nil {
			return 0, err
		}
		res, err := selection.Selection{Name: name, Plan: broken, LossBound: cfg.LossBound}.Run(ctx, obj, rng, nil)
		if err != nil {
			return 0, err
		}
		return res.Theta[0], nil
	}
	return mech, nil
}

// errFirstTrial stops a trial row's selection after its first trial.
var errFirstTrial = errors.New("audit: the first trial is scored")

// firstTrialObjective is a constant neighbour that lets one evaluation through and refuses
// the next with errFirstTrial.
type firstTrialObjective struct {
	*ConstantNeighbour
	calls int
}

func (o *firstTrialObjective) Losses(theta, dst []float64) error {
	if o.calls++; o.calls > 1 {
		return errFirstTrial
	}
	return o.ConstantNeighbour.Losses(theta, dst)
}

// buildTrialRow audits one trial of a selection: its loop with the plan the code computes
// (dp-hypo's proposals do not change a trial's noise, so its loop draws uniformly), on
// constant neighbours, stopped after the first trial; the statistic is that trial's noisy
// score. The claim is the pinned trial privacy (1/z, or eps/3 for the Laplace trial), or
// the plan's own at other settings.
func buildTrialRow(cfg Config, name, method string, plan selection.SelectionPlan) (Mechanism, error) {
	mech := Mechanism{Name: name, Runs: cfg.TrialRuns}
	laplace := plan.Accounting == accounting.PureDP
	z := plan.NoiseMultiplier
	if _, ok := pinnedSelections(cfg); ok {
		z = map[string]float64{DPSelectGeometric: 3 / pinnedEpsilon, DPSelectNegBin: pinnedNegBinZ, DPSelectPoisson: pinnedPoissonZ, DPHyPO: pinnedHyPOZ}[method]
	}
	if laplace {
		mech.MuClaimed, mech.EpsClaimed = math.NaN(), 1/z
	} else {
		mech.MuClaimed = 1 / z
	}
	mech.Run = func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
		x, xPrime, err := NewConstantNeighbours(cfg.Dim, cfg.Users, cfg.LossBound)
		if err != nil {
			return 0, err
		}
		obj := &firstTrialObjective{ConstantNeighbour: x}
		if prime {
			obj.ConstantNeighbour = xPrime
		}
		score := math.NaN()
		s := selection.Selection{Name: name, Plan: plan, LossBound: cfg.LossBound, OnScore: func(_ []float64, v float64) {
			if math.IsNaN(score) {
				score = v
			}
		}}
		if _, err := s.Run(ctx, obj, rng, nil); err != nil && !errors.Is(err, errFirstTrial) {
			return 0, err
		}
		if math.IsNaN(score) {
			return 0, fmt.Errorf("audit: %s: the selection drew no trial", name)
		}
		return score, nil
	}
	return mech, nil
}
