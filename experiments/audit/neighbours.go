package audit

import (
	"fmt"
	"math"
)

// linearNeighbour is one of a pair of neighbouring validation datasets built for the
// DP-GIBO audit. Its per-user losses are linear in theta: L_i(theta) = <a_i, theta>, with
// a_i = 0 for every user except user 0, and a_0 = Sign*Slope*e_1. The two datasets X
// (Sign = +1) and X' (Sign = -1) differ only in user 0.
//
// Why this is a worst case: the GP posterior-mean gradient is linear in the observations and
// the design depends only on past releases, so along any released trajectory user 0's
// surrogate gradient in X' is exactly minus the one in X. When its norm exceeds the clipping
// norm (Slope well above Clip), both clip to norm Clip and the pre-noise aggregates differ by
// exactly 2*Clip/n, the sensitivity the noise is calibrated to. In dimension 1 the surrogate
// gradient of a linear function also has a fixed sign, so every step moves theta by
// -Sign*Step*Clip/n plus noise and the released theta_1 carries the whole separation.
type linearNeighbour struct {
	dim, users  int
	slope, sign float64
	lo, hi      []float64
}

// newLinearNeighbours returns the pair (X, X') in dimension dim with users validation users,
// user 0's slope and the box [-halfWidth, halfWidth]^dim.
func newLinearNeighbours(dim, users int, slope, halfWidth float64) (x, xPrime *linearNeighbour, err error) {
	switch {
	case dim < 1:
		return nil, nil, fmt.Errorf("audit: neighbours need dim >= 1, got %d", dim)
	case users < 1:
		return nil, nil, fmt.Errorf("audit: neighbours need at least one user, got %d", users)
	case !(slope > 0) || math.IsInf(slope, 0):
		return nil, nil, fmt.Errorf("audit: neighbour slope must be positive and finite, got %v", slope)
	case !(halfWidth > 0) || math.IsInf(halfWidth, 0):
		return nil, nil, fmt.Errorf("audit: box half-width must be positive and finite, got %v", halfWidth)
	}
	lo := make([]float64, dim)
	hi := make([]float64, dim)
	for j := range lo {
		lo[j], hi[j] = -halfWidth, halfWidth
	}
	x = &linearNeighbour{dim: dim, users: users, slope: slope, sign: 1, lo: lo, hi: hi}
	xPrime = &linearNeighbour{dim: dim, users: users, slope: slope, sign: -1, lo: lo, hi: hi}
	return x, xPrime, nil
}

// Dim is the number of hyperparameters.
func (o *linearNeighbour) Dim() int { return o.dim }

// Bounds returns the box [-halfWidth, halfWidth]^dim.
func (o *linearNeighbour) Bounds() (lo, hi []float64) { return o.lo, o.hi }

// Users is n.
func (o *linearNeighbour) Users() int { return o.users }

// Sign is +1 for X and -1 for X'.
func (o *linearNeighbour) Sign() float64 { return o.sign }

// Losses writes user 0's loss Sign*Slope*theta_1 and zero for every other user.
func (o *linearNeighbour) Losses(theta, dst []float64) error {
	if len(theta) != o.dim || len(dst) != o.users {
		return fmt.Errorf("audit: LinearNeighbour.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), o.dim, len(dst), o.users)
	}
	for i := range dst {
		dst[i] = 0
	}
	dst[0] = o.sign * o.slope * theta[0]
	return nil
}
