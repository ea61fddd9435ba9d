// Package baselines holds every tuning method of dpgibo behind one interface and one
// registry (Names): DP-GIBO and GIBO (from package algo); the non-private random search,
// GP-UCB, TPE and CMA-ES; the private baselines dp-random and dp-ucb (mu-GDP releases of
// every score); the private selections, which release only their winner: report noisy min
// (dp-rnm), Liu and Talwar's geometric random stopping (dp-select-geometric), Papernot
// and Steinke's negative-binomial and Poisson random stopping (dp-select-negbin,
// dp-select-poisson) and DP-HyPO (dp-hypo); and goptuna's TPE and CMA-ES (goptuna-tpe,
// goptuna-cmaes: the worked example of bringing in a library's method).
//
// # The contract
//
// A Method minimises f(theta) = (1/n) sum_i L(theta, x_i) over the box of an
// algo.Objective. Every method of this package
//
//   - evaluates obj.Losses at most budget times (the runner's own reporting evaluations
//     are not charged to it); a budget too small for its first iteration (DP-GIBO's first
//     batch) is an error, never an empty run. The private selections with a random number
//     of trials (dp-select-geometric, dp-select-negbin, dp-select-poisson, dp-hypo) are
//     the exception their theorems need: their number of evaluations is random with mean
//     the budget, and capped (SelectionPlan.Limit);
//   - only ever evaluates and releases points inside the box;
//   - draws all its randomness from the rng it is given, so the same seed gives the same
//     trace;
//   - calls the callback with an algo.Iteration holding the evaluations used so far and a
//     copy of the theta it currently releases (Trace is NaN for every method but DP-GIBO);
//   - rejects a NaN or Inf loss with an error naming the method, theta and user;
//   - returns the released theta with an algo.Ledger saying whether the release is
//     differentially private, its mu and its epsilon at algo.DefaultDelta.
//
// Score-based methods (random, ucb, tpe, cmaes, dp-random, dp-ucb) evaluate one point per
// iteration and call the callback after every evaluation: Iter = Evals = the number of
// evaluations so far, Batch = 1. DP-GIBO and GIBO report once per DP-GIBO iteration. The
// private selections report once, at their end (every report would be a release).
//
// # Privacy
//
// dpgibo, dp-random and dp-ucb are mu-GDP with respect to replacing one validation user.
// The private selections are (epsilon, delta)-DP at the privacy currency Options.Currency
// sets from mu: dp-rnm and, uncapped, dp-select-geometric pure epsilon-DP; the others
// Renyi DP converted to (epsilon, delta) (docs/library.md, "Private comparators").
// gibo, random, ucb, tpe and cmaes are not private: the theta they release is a function of
// the validation data without calibrated noise, and their ledger says so
// (algo.NonPrivateLedger).
//
// New methods are added with one file and one line in registry.go, or from a module of
// one's own with Register; docs/extending.md walks through both.
package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/private"
)

// Method is a tuning method. Run minimises the mean of obj's per-user losses using at most
// budget evaluations of obj.Losses, draws all its randomness from rng, calls cb once per
// iteration (evaluations so far and the released theta), never leaves obj's box, and
// returns the released theta with its privacy ledger.
type Method interface {
	Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error)
}

// Options configure the methods of the registry. Each method reads the fields it needs;
// the zero value of every field but Mu (for private methods) is usable.
type Options struct {
	// Settings are DP-GIBO's settings, read by "dpgibo" and "gibo". "gibo" sets Mu to
	// +Inf; "dpgibo" uses Options.Mu when it is non-zero and Settings.Mu otherwise. Both
	// cap Settings.MaxEvals at the budget.
	Settings algo.Settings
	// Theta0 is the start of local methods (dpgibo, gibo); nil draws it uniformly from the
	// box, as the first draw from rng.
	Theta0 []float64
	// Mu is the total mu of mu-GDP of the private methods (dpgibo, dp-random, dp-ucb), and
	// the privacy level the private selections convert through Currency. It must be
	// positive; math.Inf(1) runs the same code without privacy noise.
	Mu float64
	// LossBound is Lmax, the public upper bound on one user's loss used by the private
	// baselines, which clip every per-user loss to [0, Lmax]. Zero takes it from the
	// objective when it implements algo.LossBounder (every task of this project
	// does); otherwise dp-random and dp-ucb return an error. dpgibo and gibo, when it is
	// positive, declare it to algo.Minimize (algo.WithLossBound) for the defaults that
	// depend on it, so that a wrapper around the objective cannot hide it.
	LossBound float64
	// Rule is dp-auto's rule (nil: private.DefaultRule).
	Rule private.Rule
	// AutoRevision is the revision of dp-auto to run (0: the registry's; see Auto).
	AutoRevision int
	// LogLoss declares that each user's loss is a classifier's log loss with clamped
	// probabilities, a public fact dp-auto's rule may read (private.Config.LogLoss).
	LogLoss bool
	// UCB configures the GP-UCB loop of "ucb" and "dp-ucb".
	UCB UCBConfig
	// Currency is the privacy level at which the private selections (dp-rnm,
	// dp-select-geometric, dp-select-negbin, dp-select-poisson, dp-hypo) run for Mu (default
	// CurrencyEpsDelta, the same (epsilon, 1e-5) as Mu-GDP).
	Currency Currency
	// Select configures the private selections with a random number of trials (its zero
	// value: the declared settings).
	Select SelectConfig
	// OnScore, when non-nil, receives every score a score-based method observes, in order:
	// the mean loss for random, ucb, tpe and cmaes (non-private methods); for dp-random and
	// dp-ucb the noisy clipped mean, which is a public release of their mechanisms; for the
	// private selections (dp-rnm's scores are not passed; dp-select-geometric,
	// dp-select-negbin, dp-select-poisson, dp-hypo) each trial's noisy score, which is NOT a
	// release: their theorems cover the winner only. theta is a copy. It lets audits and
	// tests see the mechanisms' outputs without reaching into the methods.
	OnScore func(theta []float64, score float64)
}
