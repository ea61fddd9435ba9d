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
// Every release is accounted in mu-GDP (the selections in the (epsilon, delta) that mu
// gives at delta = 1e-5); the Result's Ledger composes every part.
package private
