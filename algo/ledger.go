package algo

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultDelta is the delta at which ledgers report an (epsilon, delta)-DP epsilon.
const DefaultDelta = 1e-5

// Ledger is the privacy record of one run. Every method of this project returns one, so
// that private and non-private results are reported with the same accounting.
type Ledger struct {
	Private  bool    // false: the released value is not differentially private
	Mu       float64 // total mu of mu-GDP (+Inf when not private)
	Releases int     // number of composed Gaussian releases
	StepMu   float64 // mu of each release, Mu/sqrt(Releases) (+Inf when not private)
	Delta    float64 // delta of the reported (Epsilon, Delta)-DP guarantee
	Epsilon  float64 // epsilon at Delta implied by Mu (+Inf when not private)
}

// NonPrivateLedger is the ledger of a method whose output is a deterministic or
// data-dependent function of the validation data without calibrated noise.
func NonPrivateLedger() Ledger {
	inf := math.Inf(1)
	return Ledger{Private: false, Mu: inf, StepMu: inf, Delta: DefaultDelta, Epsilon: inf}
}

// NewLedger records releases Gaussian mechanisms each StepMu(mu, releases)-GDP, composing to
// mu-GDP. mu = +Inf gives a non-private ledger.
func NewLedger(mu float64, releases int) Ledger {
	if math.IsInf(mu, 1) {
		l := NonPrivateLedger()
		l.Releases = releases
		return l
	}
	eps, err := EpsilonForDelta(mu, DefaultDelta)
	if err != nil {
		eps = math.NaN()
	}
	return Ledger{Private: true, Mu: mu, Releases: releases, StepMu: StepMu(mu, releases), Delta: DefaultDelta, Epsilon: eps}
}

// StepMu is the per-release GDP parameter mu/sqrt(T) that composes over T releases to mu-GDP
// (Theorem 2.5 of the paper, GDP composition).
func StepMu(mu float64, releases int) float64 {
	if releases <= 0 {
		return mu
	}
	return mu / math.Sqrt(float64(releases))
}

// ComposeGDP returns sqrt(sum mu_t^2), the GDP parameter of the composition of
// mu_t-GDP mechanisms (Theorem 2.5 of the paper).
func ComposeGDP(mus ...float64) float64 {
	s := 0.0
	for _, m := range mus {
		if math.IsInf(m, 1) {
			return m
		}
		s += m * m
	}
	return math.Sqrt(s)
}

var stdNormal = distuv.UnitNormal

// GDPToEpsDelta returns delta(eps), the exact smallest delta such that a mu-GDP mechanism
// is (eps, delta)-DP (Dong, Roth and Su 2022, Corollary 2.13):
//
//	delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
func GDPToEpsDelta(mu, eps float64) float64 {
	if math.IsInf(mu, 1) {
		return 1
	}
	if mu <= 0 {
		return 0
	}
	a := stdNormal.CDF(-eps/mu + mu/2)
	// e^eps Phi(-eps/mu - mu/2) computed in log space to avoid Inf*0 for large eps.
	lb := eps + logPhi(-eps/mu-mu/2)
	d := a - math.Exp(lb)
	if d < 0 {
		return 0
	}
	return d
}

// logPhi is log Phi(x), accurate in the far left tail.
func logPhi(x float64) float64 {
	if x > -20 {
		return math.Log(stdNormal.CDF(x))
	}
	// Mills-ratio expansion: Phi(x) ~ phi(x)/|x| (1 - 1/x^2 + 3/x^4).
	x2 := x * x
	return -x2/2 - math.Log(-x) - 0.5*math.Log(2*math.Pi) + math.Log1p(-1/x2+3/(x2*x2))
}

// EpsilonForDelta inverts GDPToEpsDelta: the smallest eps >= 0 with delta(eps) <= delta.
// delta(eps) is strictly decreasing in eps, so a bracketing bisection to 1e-12 relative
// precision is exact for practical purposes.
func EpsilonForDelta(mu, delta float64) (float64, error) {
	switch {
	case math.IsNaN(mu) || mu <= 0:
		return 0, fmt.Errorf("algo: EpsilonForDelta: mu must be positive, got %v", mu)
	case !(delta > 0 && delta < 1):
		return 0, fmt.Errorf("algo: EpsilonForDelta: delta must lie in (0, 1), got %v", delta)
	case math.IsInf(mu, 1):
		return math.Inf(1), nil
	}
	if GDPToEpsDelta(mu, 0) <= delta {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for GDPToEpsDelta(mu, hi) > delta {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return 0, errors.New("algo: EpsilonForDelta: no epsilon below 1e6")
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := 0.5 * (lo + hi)
		if GDPToEpsDelta(mu, mid) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}
