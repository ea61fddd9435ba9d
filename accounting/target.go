package accounting

import (
	"fmt"
	"math"
)

// EpsDelta is an (epsilon, delta)-DP guarantee: for neighbouring data sets x, x' and every
// set S of outputs, P(M(x) in S) <= e^Epsilon P(M(x') in S) + Delta. As a privacy target
// (private.Config.EpsDelta) Epsilon must be positive and finite and Delta lie in (0, 1);
// its zero value means no target is set.
type EpsDelta struct {
	Epsilon, Delta float64
}

// Check returns nil when t is a valid target, else an error naming the field out of range.
func (t EpsDelta) Check() error {
	switch {
	case !(t.Epsilon > 0) || math.IsInf(t.Epsilon, 0):
		return fmt.Errorf("accounting: EpsDelta.Epsilon must be positive and finite, got %v", t.Epsilon)
	case !(t.Delta > 0 && t.Delta < 1):
		return fmt.Errorf("accounting: EpsDelta.Delta must lie in (0, 1), got %v", t.Delta)
	}
	return nil
}

// GDPWithin is the largest mu, to float64 resolution, such that mu-GDP meets t:
// EpsilonForDelta(mu, t.Delta) <= t.Epsilon. It bisects on mu and keeps the side that
// meets t, so that the returned mu is checked to meet it exactly as EpsilonForDelta
// computes it (calibration rounds toward less privacy loss, never more).
func GDPWithin(t EpsDelta) (float64, error) {
	if err := t.Check(); err != nil {
		return 0, err
	}
	meets := func(mu float64) bool {
		e, err := EpsilonForDelta(mu, t.Delta)
		return err == nil && e <= t.Epsilon
	}
	// Bracket: lo meets t, hi does not. mu-GDP is (eps, delta)-DP with eps near mu^2/2 for
	// large mu, so hi = 2 sqrt(2 eps) + 40 is out of reach of any target.
	lo, hi := 1.0, 2*math.Sqrt(2*t.Epsilon)+40
	for !meets(lo) {
		if lo < 1e-300 {
			return 0, fmt.Errorf("accounting: GDPWithin: no mu > 0 meets (%v, %v)-DP", t.Epsilon, t.Delta)
		}
		hi, lo = lo, lo/2
	}
	if meets(hi) {
		return 0, fmt.Errorf("accounting: GDPWithin: (%v, %v)-DP is met by every mu up to %v", t.Epsilon, t.Delta, hi)
	}
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if meets(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// PureWithinGDPExact is PureWithinGDP(mu) rounded toward a smaller epsilon, so that
// PureToGDP of the result is at most mu exactly in float64: an epsilon-DP mechanism run at
// it is mu-GDP as computed, not only up to rounding (PureToGDP(PureWithinGDP(1)) is
// 1.0000000000000007). It is +Inf for mu = +Inf.
func PureWithinGDPExact(mu float64) (float64, error) {
	if math.IsInf(mu, 1) {
		return mu, nil
	}
	eps, err := PureWithinGDP(mu)
	if err != nil {
		return 0, err
	}
	for eps > 0 {
		m, err := PureToGDP(eps)
		if err != nil {
			return 0, err
		}
		if m <= mu {
			return eps, nil
		}
		eps = math.Nextafter(eps, 0)
	}
	return 0, nil
}
