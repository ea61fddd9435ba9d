package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/private"
)

// The private tuner's calibrations to the target it is asked for (private.Tune), audited end
// to end through Tune with the rule that picks each method:
//
//   - tuneDPRandom: the Gaussian release of every score at a config.Mu target, on the swap
//     pair (swapNeighbour with config.RNMCandidates evaluations), the statistic 1 when the
//     first candidate is released; it claims config.Mu-GDP. Its control runs Tune at
//     tuneControlFactor times Mu (noise divided by it) while claiming Mu.
//   - tuneGeometric and tuneNegBin: the selections with a random number of trials at a
//     config.EpsDelta target, their mean number of trials fitted so that the cap fits
//     tuneSelectionBudget, on the split pair (splitNeighbour), the statistic the released
//     theta_1; they claim the target (tuneSelectionTarget). Their controls run Tune at
//     tuneControlFactor times the target's epsilon while claiming the target.
//
// Report-noisy-min at the pure epsilon that is Mu-GDP is the row dp-rnm (selection.go);
// DP-GIBO at an (epsilon, delta) target runs the mechanism of the DP-GIBO rows at the mu
// accounting.GDPWithin gives, whose conversion the accounting tests check.
const (
	tuneDPRandom  = "tune-dp-random"
	tuneGeometric = "tune-dp-select-geometric"
	tuneNegBin    = "tune-dp-select-negbin"
	// tuneControlSuffix names a control of a Tune row: the target multiplied by
	// tuneControlFactor, the claim kept.
	tuneControlSuffix = "-target-x20"
	// tuneControlFactor is the factor of a control's mu or epsilon.
	tuneControlFactor = 20
	// tuneSelectionBudget is the evaluation budget of the Tune selection rows, large enough
	// that a mean of about ten trials has its cap within it.
	tuneSelectionBudget = 200
)

// tuneSelectionTarget is the (epsilon, delta) target of the Tune selection rows.
var tuneSelectionTarget = accounting.EpsDelta{Epsilon: 1, Delta: 1e-5}

// tuneNames lists the Tune rows and their controls.
func tuneNames() []string {
	var out []string
	for _, m := range []string{tuneDPRandom, tuneGeometric, tuneNegBin} {
		out = append(out, m, controlPrefix+m+tuneControlSuffix)
	}
	return out
}

// buildTuneMechanism builds a Tune row or its control.
func buildTuneMechanism(cfg config, name string) (mechanism, error) {
	if !slices.Contains(tuneNames(), name) {
		return mechanism{}, fmt.Errorf("audit: unknown mechanism %q", name)
	}
	row, factor := name, 1.0
	if isControl(name) {
		row = name[len(controlPrefix) : len(name)-len(tuneControlSuffix)]
		factor = tuneControlFactor
	}
	if row == tuneDPRandom {
		tcfg := private.Config{Mu: factor * cfg.Mu, Evals: cfg.RNMCandidates, LossBound: cfg.LossBound, Rule: private.Always{Method: private.GaussianSelection}}
		return mechanism{
			Name: name, MuClaimed: cfg.Mu,
			Run: firstChosen(cfg, func(ctx context.Context, obj algo.Objective, rng *rand.Rand) ([]float64, error) {
				res, err := private.Tune(ctx, obj, tcfg, rng, nil)
				return res.Theta, err
			}),
		}, nil
	}
	method := map[string]private.Candidate{tuneGeometric: private.GeometricSelection, tuneNegBin: private.NegBinSelection}[row]
	target := tuneSelectionTarget
	run := target
	run.Epsilon *= factor
	tcfg := private.Config{EpsDelta: run, Evals: tuneSelectionBudget, LossBound: cfg.LossBound, Rule: private.Always{Method: method}}
	if _, err := private.Forecast(constantFacts{cfg}, tcfg); err != nil {
		return mechanism{}, fmt.Errorf("audit: %s: %w", name, err)
	}
	return mechanism{
		Name: name, MuClaimed: math.NaN(), EpsClaimed: target.Epsilon, DeltaClaimed: target.Delta,
		Run: func(ctx context.Context, prime bool, rng *rand.Rand) (float64, error) {
			obj, err := newSplitNeighbour(cfg.Dim, cfg.Users, cfg.LossBound, prime)
			if err != nil {
				return 0, err
			}
			res, err := private.Tune(ctx, obj, tcfg, rng, nil)
			if err != nil {
				return 0, err
			}
			return res.Theta[0], nil
		},
	}, nil
}

// constantFacts is an objective with the audit's public facts (dimension, box, users, loss
// bound) for a forecast; it is never evaluated.
type constantFacts struct{ cfg config }

func (o constantFacts) Dim() int { return o.cfg.Dim }
func (o constantFacts) Bounds() (lo, hi []float64) {
	x, _, _ := newConstantNeighbours(o.cfg.Dim, o.cfg.Users, o.cfg.LossBound)
	return x.Bounds()
}
func (o constantFacts) Users() int         { return o.cfg.Users }
func (o constantFacts) LossBound() float64 { return o.cfg.LossBound }
func (o constantFacts) Losses(_, _ []float64) error {
	return fmt.Errorf("audit: constantFacts is never evaluated")
}
