// Package accounting converts between the privacy guarantees of the project's mechanisms,
// so that methods accounted in different frameworks can be compared at one privacy level:
// pure epsilon-DP, mu-GDP (Gaussian differential privacy, Dong, Roth and Su 2022) and Renyi
// DP (Mironov 2017), each to (epsilon, delta)-DP and, where the guarantee implies one, to
// mu-GDP. DP-GIBO's own mu-GDP ledger is accounting.Ledger; its exact (epsilon, delta) is
// accounting.EpsilonForDelta.
package accounting

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PureToGDP is the smallest mu such that every epsilon-DP mechanism is mu-GDP:
//
//	mu = 2 Phi^-1(e^eps / (1 + e^eps)).
//
// It is tight: randomised response with parameter eps, whose trade-off function is
// max(0, 1 - e^eps a, e^-eps (1 - a)), meets the Gaussian trade-off function G_mu at its
// kink a = 1/(1 + e^eps), and G_mu, convex, lies below both of its linear pieces. At
// eps = 0.807 it gives mu = 1 (where 1-GDP is (4.38, 1e-5)-DP).
func PureToGDP(eps float64) (float64, error) {
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return 0, fmt.Errorf("accounting: PureToGDP: eps must be finite and >= 0, got %v", eps)
	}
	// e^eps/(1+e^eps) = 1/(1+e^-eps), computed without overflow.
	return 2 * distuv.UnitNormal.Quantile(1/(1+math.Exp(-eps))), nil
}

// PureWithinGDP is the largest epsilon such that every epsilon-DP mechanism is mu-GDP, the
// inverse of PureToGDP: eps = log(Phi(mu/2) / Phi(-mu/2)). At mu = 1 it gives 0.807.
func PureWithinGDP(mu float64) (float64, error) {
	if !(mu >= 0) || math.IsInf(mu, 1) {
		return 0, fmt.Errorf("accounting: PureWithinGDP: mu must be finite and >= 0, got %v", mu)
	}
	return math.Log(distuv.UnitNormal.CDF(mu/2) / distuv.UnitNormal.CDF(-mu/2)), nil
}

// GaussianRDP is the Renyi divergence of order alpha > 1 between the Gaussian mechanism's
// outputs on neighbouring data sets, alpha/(2 z^2), where z is the noise standard
// deviation over the sensitivity (Mironov 2017).
func GaussianRDP(alpha, z float64) float64 { return alpha / (2 * z * z) }

// LaplaceRDP is the Renyi divergence of order alpha > 1 of the Laplace mechanism whose
// scale over the sensitivity is b (Mironov 2017):
//
//	1/(alpha-1) log( alpha/(2 alpha - 1) e^((alpha-1)/b) + (alpha-1)/(2 alpha - 1) e^(-alpha/b) ).
//
// The sum is computed in log space, so large alpha/b does not overflow.
func LaplaceRDP(alpha, b float64) float64 {
	l1 := math.Log(alpha/(2*alpha-1)) + (alpha-1)/b
	l2 := math.Log((alpha-1)/(2*alpha-1)) - alpha/b
	hi, lo := math.Max(l1, l2), math.Min(l1, l2)
	return (hi + math.Log1p(math.Exp(lo-hi))) / (alpha - 1)
}

// Orders are the Renyi orders RDPToEpsDelta minimises over: 1.01 to 1024, denser near 1.
var Orders = func() []float64 {
	var out []float64
	for a := 1.01; a < 2; a += 0.01 {
		out = append(out, a)
	}
	for a := 2.0; a < 20; a += 0.25 {
		out = append(out, a)
	}
	for a := 20.0; a <= 1024; a *= 1.1 {
		out = append(out, a)
	}
	return out
}()

// RDPToEpsDelta converts a mechanism that is (alpha, rdp(alpha))-RDP for every alpha of
// Orders into (eps, delta)-DP, by the conversion of Canonne, Kamath and Steinke (2020,
// "The discrete Gaussian for differential privacy"):
//
//	eps = rdp(alpha) + log(1 - 1/alpha) - (log delta + log alpha)/(alpha - 1),
//
// which is never larger than Mironov's rdp(alpha) + log(1/delta)/(alpha - 1), minimised
// over the orders. It returns eps (at least 0) and the order that attains it.
func RDPToEpsDelta(rdp func(alpha float64) float64, delta float64) (eps, order float64, err error) {
	if !(delta > 0 && delta < 1) {
		return 0, 0, fmt.Errorf("accounting: RDPToEpsDelta: delta must lie in (0, 1), got %v", delta)
	}
	eps = math.Inf(1)
	for _, a := range Orders {
		r := rdp(a)
		if math.IsNaN(r) || r < 0 {
			return 0, 0, fmt.Errorf("accounting: RDPToEpsDelta: the RDP curve is %v at order %v", r, a)
		}
		if e := r + math.Log1p(-1/a) - (math.Log(delta)+math.Log(a))/(a-1); e < eps {
			eps, order = e, a
		}
	}
	return math.Max(eps, 0), order, nil
}

// GDPDelta returns delta(eps), the exact smallest delta such that a mu-GDP mechanism
// is (eps, delta)-DP (Dong, Roth and Su 2022, Corollary 2.13):
//
//	delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
func GDPDelta(mu, eps float64) float64 {
	if math.IsInf(mu, 1) {
		return 1
	}
	if mu <= 0 {
		return 0
	}
	a := distuv.UnitNormal.CDF(-eps/mu + mu/2)
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
		return math.Log(distuv.UnitNormal.CDF(x))
	}
	// Mills-ratio expansion: Phi(x) ~ phi(x)/|x| (1 - 1/x^2 + 3/x^4).
	x2 := x * x
	return -x2/2 - math.Log(-x) - 0.5*math.Log(2*math.Pi) + math.Log1p(-1/x2+3/(x2*x2))
}
