package private

import (
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
	// Ledger composes every part of the release.
	Ledger accounting.Ledger
	// NonPrivateTrials is the number of trials K of a selection with a random number of
	// trials: not part of the release (its theorem covers the winner only), for
	// experiments. 0 for the other methods.
	NonPrivateTrials int
	// Facts and Choice are what Tune read and chose (zero for a method run on its own):
	// public, part of the release.
	Facts  Facts
	Choice Choice
	// GIBO is the DP-GIBO run's own result (its clipping norms, warnings, status), nil for
	// a method without one. Its Theta is the last iterate, which the safe release may not
	// release.
	GIBO *algo.Result
}
