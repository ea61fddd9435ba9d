package audit

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// The exact population epsilon (or mu) of the audit's own tests, computed by quadrature from
// numbers pinned outside the code under audit: the selections' noise multipliers pinned in
// accounting/selection_test.go (an independent computation), their caps and the
// distributions of their number of trials in closed form, never a plan the code computes.
// A negative control reads `violation` when its lower bound exceeds the population value of
// the real mechanism's test; the real mechanism must not, after Holm over those rows.

// pinnedSelection is a selection with a random number of trials at the audit's default
// settings (config.SelectionMu 0.5, so epsilon 1.9930914 at delta 1e-5, and
// config.SelectionBudget 20): its distribution of K, cap, trial noise and claimed delta.
type pinnedSelection struct {
	// pmf is P(K = k) for k = 0..cap, the mass beyond the cap moved onto it (the selection
	// stops there).
	pmf []float64
	// laplace says the trial noise is Laplace of scale noise*Delta; otherwise Gaussian of
	// standard deviation noise*Delta (Delta = Lmax/n).
	laplace bool
	noise   float64
	// delta is the plan's delta, the claim's and epsSeparation's.
	delta float64
}

// pinnedEpsilon is epsilon at delta 1e-5 of mu = 0.5 (accounting's fixtures).
const pinnedEpsilon = 1.9930914

// The pinned values hold at these settings only.
const (
	pinnedSelectionMu     = 0.5
	pinnedSelectionBudget = 20
)

// Noise multipliers pinned in accounting/selection_test.go at mean 20, mu 0.5, and the
// caps: the smallest n with P(K > n) <= 0.1 * 1e-5/(1 + e^eps).
const (
	pinnedNegBinZ  = 5.4828127
	pinnedPoissonZ = 5.2722214
	pinnedHyPOZ    = 14.2243099
	// The truncated negative binomial's gamma for eta 2 at mean 20 (eta 1: 1/20 exactly).
	pinnedNegBinGamma = 0.091607978310
)

// pinnedSelections returns the audit's selections at their pinned settings, by registry
// name; ok is false at any other settings.
func pinnedSelections(cfg config) (map[string]pinnedSelection, bool) {
	if cfg.SelectionMu != pinnedSelectionMu || cfg.SelectionBudget != pinnedSelectionBudget {
		return nil, false
	}
	return map[string]pinnedSelection{
		dpSelectGeometric: {pmf: capPMF(negBinPMF(1, 1.0/20, 400), 311), laplace: true, noise: 3 / pinnedEpsilon, delta: 9.842665e-07},
		dpSelectNegBin:    {pmf: capPMF(negBinPMF(2, pinnedNegBinGamma, 400), 196), noise: pinnedNegBinZ, delta: 9.964706e-06},
		dpSelectPoisson:   {pmf: capPMF(poissonPMF(20, 400), 47), noise: pinnedPoissonZ, delta: 9.652624e-06},
	}, true
}

// negBinPMF is the truncated negative binomial's P(K = k), k = 0..kmax (0 at k = 0):
// proportional to C(k+eta-1, k) (1-gamma)^k for k >= 1 (eta = 1: geometric, mean 1/gamma).
func negBinPMF(eta, gamma float64, kmax int) []float64 {
	out := make([]float64, kmax+1)
	norm := math.Pow(gamma, -eta) - 1
	for k := 1; k <= kmax; k++ {
		lg, _ := math.Lgamma(float64(k) + eta)
		lk, _ := math.Lgamma(float64(k) + 1)
		le, _ := math.Lgamma(eta)
		out[k] = math.Exp(lg-lk-le+float64(k)*math.Log1p(-gamma)) / norm
	}
	return out
}

// poissonPMF is the Poisson distribution's P(K = k), k = 0..kmax.
func poissonPMF(mean float64, kmax int) []float64 {
	out := make([]float64, kmax+1)
	for k := range out {
		lk, _ := math.Lgamma(float64(k) + 1)
		out[k] = math.Exp(float64(k)*math.Log(mean) - mean - lk)
	}
	return out
}

// capPMF moves the mass beyond limit onto it (pmf must reach far enough that what it leaves
// out is negligible).
func capPMF(pmf []float64, limit int) []float64 {
	out := append([]float64(nil), pmf[:limit+1]...)
	rest := 0.0
	for _, p := range pmf[limit+1:] {
		rest += p
	}
	out[limit] += rest
	return out
}

// noiseDensity returns the density and survival function of the trial noise in units of
// Delta.
func (s pinnedSelection) noiseDensity(scale float64) (pdf, sf func(float64) float64) {
	if s.laplace {
		l := distuv.Laplace{Mu: 0, Scale: scale}
		return l.Prob, l.Survival
	}
	n := distuv.Normal{Mu: 0, Sigma: scale}
	return n.Prob, n.Survival
}

// integrate is the integral of f over the real line for noise of the given scale with kinks
// at 0 and 1 (in units of Delta): Gauss-Legendre on [-60 scale - 1, 0], [0, 1] and
// [1, 60 scale + 2], beyond which every integrand here is below 1e-26.
func integrate(f func(float64) float64, scale float64) float64 {
	const points = 600
	span := 60*scale + 2
	return quad.Fixed(f, -span, 0, points, quad.Legendre{}, 0) +
		quad.Fixed(f, 0, 1, points, quad.Legendre{}, 0) +
		quad.Fixed(f, 1, span, points, quad.Legendre{}, 0)
}

// splitPopulation is the population epsilon, at the claimed delta, of the split-neighbour
// test of the selection with its noise divided by divisor. On split neighbours a trial's
// candidate is uniform; it scores noise on the favoured half and Delta + noise on the other,
// and within a half the released theta_1 is uniform whatever the data, so the best test of
// the released theta_1 says which half won. With K trials the favoured half wins with
// probability k int (1/2) f(x) G(x)^(k-1) dx, G(x) = P(a trial scores above x); K = 0
// releases a uniform point. So u = P(favoured half) = int (1/2) f(x) sum_k p_k k G(x)^(k-1)
// dx + p_0/2, and the test's epsilon is log((u - delta)/(1 - u)).
func splitPopulation(s pinnedSelection, divisor float64) float64 {
	scale := s.noise / divisor
	pdf, sf := s.noiseDensity(scale)
	derivative := func(g float64) float64 { // sum_k p_k k g^(k-1)
		sum, power := 0.0, 1.0
		for k := 1; k < len(s.pmf); k++ {
			sum += s.pmf[k] * float64(k) * power
			power *= g
		}
		return sum
	}
	u := integrate(func(x float64) float64 {
		g := 0.5*sf(x) + 0.5*sf(x-1)
		return 0.5 * pdf(x) * derivative(g)
	}, scale) + 0.5*s.pmf[0]
	return math.Log((u - s.delta) / (1 - u))
}

// rnmPopulation is the population epsilon of dp-rnm's many-candidate test (see
// ManyNeighbour) with m candidates and Laplace noise of scale 2/eps/divisor (in units of
// Delta): the first candidate is released with probability p = int f(x - 1) S(x)^(m-1) dx in
// X, where user 0 raises its score, and q = int f(x) S(x - 1)^(m-1) dx in X', where user 0
// raises every other score; the test "the first is released" has epsilon log(q/p).
func rnmPopulation(m int, eps, divisor float64) float64 {
	scale := 2 / eps / divisor
	l := distuv.Laplace{Mu: 0, Scale: scale}
	p := integrate(func(x float64) float64 { return l.Prob(x-1) * math.Pow(l.Survival(x), float64(m-1)) }, scale)
	q := integrate(func(x float64) float64 { return l.Prob(x) * math.Pow(l.Survival(x-1), float64(m-1)) }, scale)
	return math.Log(q / p)
}
