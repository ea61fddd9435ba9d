// Package baselines is the method contract of dpgibo: the Method interface every tuning
// method implements, the Result it returns, the Info it describes itself with and the
// optional capabilities the engine and the figures ask of it. The methods live in one
// package per family, each with its own typed configuration:
//
//   - baselines/gibo: DP-GIBO and GIBO (package algo's loop), DP-GIBO with a safe release
//     and the declared hybrid;
//   - baselines/selection: the private selections that release only their winner: report
//     noisy min (dp-rnm), Liu and Talwar's geometric random stopping
//     (dp-select-geometric), Papernot and Steinke's negative-binomial and Poisson random
//     stopping (dp-select-negbin, dp-select-poisson) and DP-HyPO (dp-hypo), and their
//     plans;
//   - baselines/score: random search, TPE and CMA-ES, and dp-random (a Gaussian release of
//     every score);
//   - baselines/bo: GP-UCB and dp-ucb;
//   - baselines/goptuna: goptuna's TPE and CMA-ES, the worked example of bringing in a
//     library's method;
//   - baselines/registry: every method by name, for the runner and for Options-driven
//     construction.
//
// # The contract
//
// A Method minimises f(theta) = (1/n) sum_i L(theta, x_i) over the box of an
// algo.Objective. Every method of this project
//
//   - evaluates obj.Losses at most budget times (the runner's own reporting evaluations
//     are not charged to it); a budget too small for its first iteration (DP-GIBO's first
//     batch) is an error, never an empty run. A method whose number of evaluations is
//     random (the private selections with a random number of trials) says how many it may
//     use (EvaluationCapper);
//   - only ever evaluates and releases points inside the box;
//   - draws all its randomness from the rng it is given, so the same seed gives the same
//     trace;
//   - calls the callback with an algo.Iteration holding the evaluations used so far and a
//     copy of the theta it currently releases (Trace is NaN for every method but DP-GIBO);
//   - rejects a NaN or Inf loss with an error naming the method, theta and user;
//   - returns the released theta with an accounting.Ledger saying whether the release is
//     differentially private and at what level.
//
// Score-based methods evaluate one point per iteration and call the callback after every
// evaluation: Iter = Evals = the number of evaluations so far, Batch = 1. DP-GIBO and GIBO
// report once per DP-GIBO iteration. The private selections report once, at their end
// (every report would be a release).
//
// A method of one's own implements Method (Evaluator gives it the checks the built-in
// methods run on) and joins the runner through registry.Register; docs/extending.md walks
// through it.
package baselines

import (
	"context"
	"image/color"
	"math/rand/v2"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// Method is a tuning method. Run minimises the mean of obj's per-user losses using at most
// budget evaluations of obj.Losses, draws all its randomness from rng, calls cb once per
// iteration (evaluations so far and the released theta), never leaves obj's box, and
// returns the released theta with its privacy ledger. Info describes the method; it does
// not depend on the method's configuration.
type Method interface {
	Info() Info
	Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (Result, error)
}

// Info is what a method says of itself, which the runner and the figures read instead of
// its name.
type Info struct {
	// Name is the method's name in every CSV (the method column), e.g. "dp-random".
	Name string
	// Legend is its name in figure legends and sentences, e.g. "DP-Random".
	Legend string
	// Colour is its colour in every figure (the zero value: grey).
	Colour color.RGBA
	// Private says whether the released theta is differentially private.
	Private bool
	// Local methods start from the run's theta0 and take Algorithm 1's settings; the others
	// search the whole box.
	Local bool
	// Revision counts the changes of what the method computes under one name (0 or 1: as
	// first registered). A runner keys its stored results by it, so that results of an
	// earlier revision are never resumed as this one's.
	Revision int
}

// Result is what a method returns.
type Result struct {
	// Theta is the released theta.
	Theta []float64
	// Evals is the number of evaluations of obj.Losses (for a selection with a random
	// number of trials: the budget, the mean of that number; the number itself is
	// NonPrivateTrials). Iters is the number of iterations (DP-GIBO's; a score-based
	// method's evaluations).
	Evals, Iters int
	// Ledger composes every part of the release's privacy.
	Ledger accounting.Ledger
	// NonPrivateTrials is the number of trials K of a selection with a random number of
	// trials: not part of the release (its theorem covers the winner only), for
	// experiments. 0 for the other methods.
	NonPrivateTrials int
	// Warnings say, from what the method may publish, where its release is likely to be
	// little better than its start or a random candidate.
	Warnings []string
	// GIBO is the DP-GIBO run's own result (clipping norms, warnings, status) of a method
	// built on one, nil otherwise. Its Theta is the last iterate, which a safe release may
	// not release.
	GIBO *algo.Result
}

// SweptParams are the parameters a runner sweeps: mu; the noise injected into every loss
// (with the surrogate told its sigma); and Algorithm 1's bias_tol, clip and noise_std
// (the sigma told to the surrogate).
var SweptParams = []string{"mu", "noise", "bias_tol", "clip", "noise_std"}

// Config is a method's own settings beyond what every method is given (registry.Options):
// a comparable value of a type its family defines (gibo.Variant). A suite's block sets it
// (runner.Block.Config) for the methods that take its type (Configurable); their cells
// record its JSON encoding, so that a cell run with it never shares a stem with one run
// without it, and Label (a typed value's own words, "release=fallback") joins their rows'
// config label.
type Config interface {
	Label() string
}

// A Configurable method takes a Config of one type, of which ConfigType is the zero value.
type Configurable interface {
	ConfigType() Config
}

// A Sweeper says which of SweptParams it reads: a sweep over another runs it once, not once
// per value. A method that is not a Sweeper reads every one.
type Sweeper interface {
	Sweeps(param string) bool
}

// An EvaluationCapper may use more evaluations than its budget, or a number decided only
// on obj's public facts: EvaluationCap is the most it uses on obj for budget
// (math.MaxInt: unbounded). A method that is not an EvaluationCapper uses at most its
// budget.
type EvaluationCapper interface {
	EvaluationCap(obj algo.Objective, budget int) (int, error)
}

// A TrialCounter has a random number of trials, which its Result gives in
// NonPrivateTrials (0 included) when CountsTrials is true.
type TrialCounter interface {
	CountsTrials() bool
}

// A CostHinter tells a runner's cost model what its own work beyond the evaluations costs:
// DesignSeconds is that work's estimated wall time, in seconds on one core of the
// reproduction machine, for a run of budget evaluations in d dimensions (a method that is
// not a CostHinter: none).
type CostHinter interface {
	DesignSeconds(d, budget int) float64
}
