package private

import (
	"fmt"
	"math"
	"strconv"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// Result is what a private method returns: the released theta and its guarantee, and
// nothing its theorem does not cover except in fields named non-private.
type Result struct {
	// Theta is the released theta.
	Theta []float64
	// Evals is the number of evaluations of the objective's Losses (for a selection with a
	// random number of trials: the budget, the mean of that number; the number itself is
	// NonPrivateTrials).
	Evals int
	// Iters is the number of DP-GIBO iterations run (0 for a selection).
	Iters int
	// Ledger composes every part of the release. From Tune, it is stated in the target's
	// currency and meets the target: Mu at most Config.Mu, or Epsilon and Delta at most
	// Config.EpsDelta's (a mu-GDP ledger's Epsilon read at the target's Delta).
	Ledger accounting.Ledger
	// NonPrivateTrials is the number of trials K of a selection with a random number of
	// trials: not part of the release (its theorem covers the winner only), for
	// experiments. 0 for the other methods.
	NonPrivateTrials int
	// Facts and Choice are what Tune read and chose (zero for a method run on its own):
	// public, part of the release.
	Facts  Facts
	Choice Choice
	// Warnings holds every part's warnings: from Tune, Forecast's (Plan.Warnings), then the
	// DP-GIBO run's (the same as GIBO.Warnings). Public, part of the release.
	Warnings []string
	// GIBO is the DP-GIBO run's own result (its clipping norms, warnings, status), nil for
	// a method without one. Its Theta is the last iterate, which the safe release may not
	// release.
	GIBO *algo.Result
}

// Guarantee states the release's privacy guarantee from its ledger, in the currency of the
// target Tune was given (Facts), with that target: "0.9999999999999998-GDP (asked: 1-GDP)"
// or "(2.9, 1e-06)-DP (asked: (3, 1e-06)-DP)". A method run on its own states its ledger's
// own currency.
func (r Result) Guarantee() string {
	l := r.Ledger
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	t := r.Facts.EpsDelta
	switch {
	case !l.Private:
		return "not private (no privacy noise)"
	case t != (accounting.EpsDelta{}):
		return fmt.Sprintf("(%s, %s)-DP (asked: (%s, %s)-DP)", g(l.Epsilon), g(l.Delta), g(t.Epsilon), g(t.Delta))
	case r.Facts.Mu != 0:
		return fmt.Sprintf("%s-GDP (asked: %s-GDP)", g(l.Mu), g(r.Facts.Mu))
	case math.IsNaN(l.Mu):
		return fmt.Sprintf("(%s, %s)-DP", g(l.Epsilon), g(l.Delta))
	}
	return fmt.Sprintf("%s-GDP", g(l.Mu))
}
