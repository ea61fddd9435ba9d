// Package private chooses and runs a private tuning method for a validation loss with
// per-user losses, from public facts only (Facts: n, d, the box, the loss bound, mu and the
// evaluation budget), so that the choice itself costs no privacy.
//
// Its methods (Method) are DP-GIBO (package algo), DP-GIBO with a safe release (SafeGIBO:
// a private choice between the start and the last iterate at the end), a declared hybrid
// (HybridGIBO: a private choice of the start among data-independent candidates, then
// DP-GIBO and the safe release), and the private selections that release only their best
// candidate. A Rule maps Facts to a Method; which rule is the default is decided by the
// study in docs/library.md ("The library's private tuner").
//
// Tune delivers exactly the guarantee it is asked for, in the currency asked (Config.Mu:
// mu-GDP; Config.EpsDelta: (epsilon, delta)-DP with any delta), whatever method the rule
// chooses: each method is calibrated to the target, rounding toward more noise, and a
// method that cannot meet the target and the budget together is not offered. The Result's
// Ledger composes every part and shows the target met; Result.Guarantee states it.
//
// Every method takes its randomness from the *rand.Rand it is given; nil (the right choice
// for a release) means a new generator seeded from crypto/rand for that call. A fixed,
// reused or published seed lets anyone replay the run, which voids the guarantee: fixed
// seeds are for experiments.
//
// The method types (RNM, Geometric, NegBin, Poisson, SafeGIBO, HybridGIBO) keep the
// harness's convention for comparators: a mu read in a Currency (docs/library.md,
// "Private comparators").
package private
