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

// dp-rnm (report noisy min) is audited on a pair of many candidates (swapNeighbour with
// config.RNMCandidates evaluations) at the secondary currency: its claim is pure
// epsilon-DP at epsilon = accounting.PureWithinGDP(Mu), the release that implies Mu-GDP. On
// that pair user 0 raises the first candidate's score and lowers every other one, so the
// first candidate's noisy score moves by 2 Lmax/n against the rest, the case for which report
// noisy min needs its noise scale 2 Delta/eps: with ten candidates the test "the first is
// released" has a population epsilon of 0.803 against the claim 0.807, and the controls
// with half and a third of the noise (run at twice and three times epsilon) 1.585 and 2.324.
// dprnm is report-noisy-min's row, its name in the registry.
var dprnm = selection.RNM{}.Info().Name

const (
	// controlDPRNMNoiseHalved and controlDPRNMNoiseThird run the real dp-rnm at twice and
	// three times the claimed epsilon (half and a third of the noise scale).
	controlDPRNMNoiseHalved = controlPrefix + "dp-rnm-noise-halved"
	controlDPRNMNoiseThird  = controlPrefix + "dp-rnm-noise-third"
)

// selectionNames lists the private selections (and their controls) the audit knows.
func selectionNames() []string {
	return append([]string{dprnm, controlDPRNMNoiseHalved, controlDPRNMNoiseThird}, randomSelections()...)
}

// swapNeighbour is one of the pair of neighbouring datasets of dp-rnm's audit: every user's
// loss is 0 except user 0's, which is Lmax at the first point evaluated and 0 at every later
// one in X, and the reverse in X'. Replacing user 0 thus moves the first candidate's clipped
// mean loss by Lmax/n one way and every other candidate's by Lmax/n the other way, the case
// for which report noisy min needs its noise scale 2 Delta/eps. The candidates are drawn by
// the method without looking at the data, so for each draw the two datasets are a fixed
// neighbouring pair. First returns the first point evaluated.
type swapNeighbour struct {
	unitNeighbour
	calls int
	first []float64
}

// newSwapNeighbour returns X (prime false) or X' on [0, 1]^dim.
func newSwapNeighbour(dim, users int, lossBound float64, prime bool) (*swapNeighbour, error) {
	u, err := newUnitNeighbour(dim, users, lossBound, prime)
	if err != nil {
		return nil, err
	}
	return &swapNeighbour{unitNeighbour: u}, nil
}

// unitNeighbour is what the selection audits' neighbours share: [0, 1]^dim, n users,
// Lmax, and which of the pair it is.
type unitNeighbour struct {
	dim, users int
	bound      float64
	prime      bool
	lo, hi     []float64
}

// newUnitNeighbour validates the settings (as newConstantNeighbours does) and returns X
// (prime false) or X'.
func newUnitNeighbour(dim, users int, lossBound float64, prime bool) (unitNeighbour, error) {
	x, _, err := newConstantNeighbours(dim, users, lossBound)
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
func (o *swapNeighbour) First() []float64 { return append([]float64(nil), o.first...) }

// Losses writes user 0's loss (see swapNeighbour) and 0 for every other user.
func (o *swapNeighbour) Losses(theta, dst []float64) error {
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
func buildSelectionMechanism(cfg config, name string) (mechanism, error) {
	if slices.Contains(randomSelections(), name) {
		return buildRandomSelection(cfg, name)
	}
	divisor := map[string]float64{dprnm: 1, controlDPRNMNoiseHalved: 2, controlDPRNMNoiseThird: 3}[name]
	if divisor == 0 {
		return mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	eps, err := accounting.PureWithinGDP(cfg.Mu)
	if err != nil {
		return mechanism{}, err
	}
	runMu, err := accounting.PureToGDP(divisor * eps)
	if err != nil {
		return mechanism{}, err
	}
	m := cfg.RNMCandidates
	return mechanism{
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
func firstChosen(cfg config, release func(ctx context.Context, obj algo.Objective, rng *rand.Rand) ([]float64, error)) func(context.Context, bool, *rand.Rand) (float64, error) {
	return func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
		obj, err := newSwapNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
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
// currency against (epsilon, delta) claims (config.SelectionMu, mean config.SelectionBudget
// trials), end to end on split neighbours and trial by trial on constant neighbours.
//
// End to end, each but dp-hypo has controls that run the real selection's loop with the
// plan's noise divided by 2 and by 3 (for dp-select-geometric the division by 3 is the
// dropped factor 3 of eps_0 = eps/3, counted once), judged against the exact population
// epsilon of the real selection's test (splitPopulation); dp-hypo, whose adaptive proposals
// have no closed form there, keeps a control without noise.
//
// Trial by trial (name + trialSuffix), the statistic is the first trial's noisy score
// (OnScore), which on constant neighbours moves by exactly Delta = Lmax/n: a Gaussian trial
// claims mu = 1/z, the Laplace trial of dp-select-geometric pure eps_0 = eps/3, from the
// pinned noise multipliers.
var (
	dpSelectGeometric = selection.Geometric{}.Info().Name
	dpSelectNegBin    = selection.NegBin{}.Info().Name
	dpSelectPoisson   = selection.Poisson{}.Info().Name
	dpHyPO            = bo.DPHyPO{}.Info().Name
)

const (
	controlSelectionSuffix   = "-no-noise"
	controlNoiseHalvedSuffix = "-noise-halved"
	controlNoiseThirdSuffix  = "-noise-third"
	// controlEps0DroppedSuffix is dp-select-geometric's noise / 3 control: Laplace scale
	// Delta/eps instead of Delta/eps_0 = 3 Delta/eps.
	controlEps0DroppedSuffix = "-eps0-dropped"
	trialSuffix              = "-trial"
)

// randomSelections lists the selections with a random number of trials, their controls and
// their trial rows, in table order.
func randomSelections() []string {
	out := []string{
		dpSelectGeometric, controlPrefix + dpSelectGeometric + controlNoiseHalvedSuffix, controlPrefix + dpSelectGeometric + controlEps0DroppedSuffix,
		dpSelectNegBin, controlPrefix + dpSelectNegBin + controlNoiseHalvedSuffix, controlPrefix + dpSelectNegBin + controlNoiseThirdSuffix,
		dpSelectPoisson, controlPrefix + dpSelectPoisson + controlNoiseHalvedSuffix, controlPrefix + dpSelectPoisson + controlNoiseThirdSuffix,
		dpHyPO, controlPrefix + dpHyPO + controlSelectionSuffix,
	}
	for _, m := range []string{dpSelectGeometric, dpSelectNegBin, dpSelectPoisson, dpHyPO} {
		out = append(out, m+trialSuffix)
	}
	return out
}

// selectionRow parses a random selection's row name: the method, the divisor of its noise
// (0: no noise), and whether it is a trial row.
func selectionRow(name string) (method string, divisor float64, trial bool) {
	if m, ok := strings.CutSuffix(name, trialSuffix); ok {
		return m, 1, true
	}
	rest, control := strings.CutPrefix(name, controlPrefix)
	if !control {
		return name, 1, false
	}
	for suffix, div := range map[string]float64{controlNoiseHalvedSuffix: 2, controlNoiseThirdSuffix: 3, controlEps0DroppedSuffix: 3, controlSelectionSuffix: 0} {
		if m, ok := strings.CutSuffix(rest, suffix); ok {
			return m, div, false
		}
	}
	return rest, 1, false
}

// splitNeighbour is one of the pair of neighbouring datasets of the audit of the
// selections with a random number of trials, on [0, 1]^dim: every user's loss is 0 except
// user 0's, which is Lmax where theta_1 < 1/2 in X and where theta_1 >= 1/2 in X'. Every
// candidate's clipped mean loss moves by Lmax/n between the two, in opposite directions on
// the two halves of the box, so X favours the upper half and X' the lower; the statistic
// is the released theta_1.
type splitNeighbour struct{ unitNeighbour }

// newSplitNeighbour returns X (prime false) or X'.
func newSplitNeighbour(dim, users int, lossBound float64, prime bool) (*splitNeighbour, error) {
	u, err := newUnitNeighbour(dim, users, lossBound, prime)
	if err != nil {
		return nil, err
	}
	return &splitNeighbour{u}, nil
}

// Losses writes user 0's loss (see splitNeighbour) and 0 for every other user.
func (o *splitNeighbour) Losses(theta, dst []float64) error {
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
func buildRandomSelection(cfg config, name string) (mechanism, error) {
	method, divisor, trial := selectionRow(name)
	// DP-HyPO's density is post-processing of released scores: a coarser discretisation
	// changes its run time, not the privacy audited.
	sel := selection.SelectConfig{Candidates: 64}
	opt := registry.Options{Mu: cfg.SelectionMu, LossBound: cfg.LossBound, Select: sel, UCB: cfg.UCB}
	m, err := registry.New(method, opt)
	if err != nil {
		return mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	planned, ok := m.(interface {
		Plan(budget int) (selection.SelectionPlan, error)
	})
	if !ok {
		return mechanism{}, fmt.Errorf("audit: %s: %s is not a selection with a random number of trials", name, method)
	}
	plan, err := planned.Plan(cfg.SelectionBudget)
	if err != nil {
		return mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	pinned, havePinned := pinnedSelections(cfg)
	if trial {
		return buildTrialRow(cfg, name, method, plan)
	}
	mech := mechanism{Name: name, MuClaimed: math.NaN(), EpsClaimed: plan.Epsilon, DeltaClaimed: plan.Delta}
	if p, ok := pinned[method]; ok && havePinned {
		mech.Population = splitPopulation(p, 1)
	}
	if divisor == 1 {
		// The real method, through the registry.
		mech.Run = func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			obj, err := newSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
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
		obj, err := newSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
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
	*constantNeighbour
	calls int
}

func (o *firstTrialObjective) Losses(theta, dst []float64) error {
	if o.calls++; o.calls > 1 {
		return errFirstTrial
	}
	return o.constantNeighbour.Losses(theta, dst)
}

// buildTrialRow audits one trial of a selection: its loop with the plan the code computes
// (dp-hypo's proposals do not change a trial's noise, so its loop draws uniformly), on
// constant neighbours, stopped after the first trial; the statistic is that trial's noisy
// score. The claim is the pinned trial privacy (1/z, or eps/3 for the Laplace trial), or
// the plan's own at other settings.
func buildTrialRow(cfg config, name, method string, plan selection.SelectionPlan) (mechanism, error) {
	mech := mechanism{Name: name, Runs: cfg.TrialRuns}
	laplace := plan.Accounting == accounting.PureDP
	z := plan.NoiseMultiplier
	if _, ok := pinnedSelections(cfg); ok {
		z = map[string]float64{dpSelectGeometric: 3 / pinnedEpsilon, dpSelectNegBin: pinnedNegBinZ, dpSelectPoisson: pinnedPoissonZ, dpHyPO: pinnedHyPOZ}[method]
	}
	if laplace {
		mech.MuClaimed, mech.EpsClaimed = math.NaN(), 1/z
	} else {
		mech.MuClaimed = 1 / z
	}
	mech.Run = func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
		x, xPrime, err := newConstantNeighbours(cfg.Dim, cfg.Users, cfg.LossBound)
		if err != nil {
			return 0, err
		}
		obj := &firstTrialObjective{constantNeighbour: x}
		if prime {
			obj.constantNeighbour = xPrime
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
