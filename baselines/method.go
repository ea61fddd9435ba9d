// Package baselines holds every tuning method of dpgibo behind one interface and one
// registry: DP-GIBO and GIBO (from package algo), random search, GP-UCB, TPE (goptuna)
// and the private baselines.
package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
)

// Method is a tuning method. Run minimises the mean of obj's per-user losses using at most
// budget evaluations of obj.Losses, draws all its randomness from rng, calls cb once per
// iteration (evaluations so far and the released theta), never leaves obj's box, and
// returns the released theta with its privacy ledger.
type Method interface {
	Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error)
}

// Options configure the methods of the registry. Each method reads the fields it needs.
type Options struct {
	// Settings are DP-GIBO's settings (Mu is overridden to +Inf for "gibo").
	Settings algo.Settings
	// Theta0 is the start of local methods; nil draws it uniformly from the box with rng.
	Theta0 []float64
	// Mu is the total GDP parameter of private baselines.
	Mu float64
	// LossBound is Lmax, the public bound on one user's loss used by private baselines.
	LossBound float64
}
