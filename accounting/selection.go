package accounting

import (
	"fmt"
	"math"
	"sort"
)

// Private selection with a random number of trials (Liu and Talwar 2019; Papernot and
// Steinke 2022, arXiv 2110.03620v2; Wang et al. 2023, arXiv 2306.05734, DP-HyPO): draw K
// from a distribution fixed in advance, run K private trials, each releasing a candidate
// and its noisy score, and release only the best. Its privacy does not grow with K the way
// a composition of K releases does; it grows with the logarithm of E[K].
//
// Trials is the distribution of K. Its probabilities are tabulated once, far enough into
// the tail that what is left out is below 1e-25, so that the tail mass a cap leaves out
// (Cap) is summed from the far end rather than subtracted from 1.

// Trials is the distribution of the number of trials K of a private selection: the
// truncated negative binomial of Papernot and Steinke (Definition 1; on 1, 2, ...) with
// shape Eta >= 0 (0: the logarithmic distribution, 1: the geometric one) and parameter
// Gamma in (0, 1), or the Poisson distribution (on 0, 1, ...) of mean PoissonMean.
type Trials struct {
	// Eta and Gamma are the truncated negative binomial's (Eta = +Inf: Poisson).
	Eta, Gamma float64
	// PoissonMean is the Poisson distribution's mean (0 for a truncated negative binomial).
	PoissonMean float64
	pmf         []float64 // P(K = k), k = 0 .. len-1
	tail        []float64 // P(K > k)
}

// tableFloor is the probability below which the tabulated distribution stops (past its
// mean).
const tableFloor = 1e-25

// TruncatedNegBin returns the truncated negative binomial of shape eta whose mean is at
// most mean and as close to it as a bisection on gamma gets (relative 1e-12):
//
//	P(K = k) = (1-gamma)^k / (gamma^-eta - 1) * prod_{l<k} (l+eta)/(l+1)    (eta > 0),
//	P(K = k) = (1-gamma)^k / (k log(1/gamma))                              (eta = 0),
//
// with mean eta(1-gamma)/(gamma(1-gamma^eta)) (1/gamma at eta = 1, (1/gamma-1)/log(1/gamma)
// at eta = 0).
func TruncatedNegBin(eta, mean float64) (Trials, error) {
	switch {
	case !(eta >= 0) || math.IsInf(eta, 0):
		return Trials{}, fmt.Errorf("accounting: TruncatedNegBin: shape eta must be finite and >= 0, got %v", eta)
	case !(mean > 1) || math.IsInf(mean, 0):
		return Trials{}, fmt.Errorf("accounting: TruncatedNegBin: mean must be finite and above 1, got %v", mean)
	}
	// The mean falls as gamma rises; bisect log gamma, keeping the side whose mean is <= mean.
	lo, hi := math.Log(1e-300), 0.0 // mean(exp(lo)) > mean >= mean(exp(hi)) = 1
	for range 200 {
		mid := 0.5 * (lo + hi)
		if tnbMean(eta, math.Exp(mid)) > mean {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-12 {
			break
		}
	}
	t := Trials{Eta: eta, Gamma: math.Exp(hi)}
	t.tabulate()
	return t, nil
}

// tnbMean is the truncated negative binomial's mean.
func tnbMean(eta, gamma float64) float64 {
	switch eta {
	case 0:
		return (1/gamma - 1) / math.Log(1/gamma)
	case 1:
		return 1 / gamma
	}
	// 1 - gamma^eta = -expm1(eta log gamma), accurate for gamma near 1.
	return eta * (1 - gamma) / (gamma * -math.Expm1(eta*math.Log(gamma)))
}

// Poisson returns the Poisson distribution of the given mean (K = 0 has probability
// e^-mean).
func Poisson(mean float64) (Trials, error) {
	if !(mean > 0) || math.IsInf(mean, 0) {
		return Trials{}, fmt.Errorf("accounting: Poisson: mean must be positive and finite, got %v", mean)
	}
	t := Trials{Eta: math.Inf(1), PoissonMean: mean}
	t.tabulate()
	return t, nil
}

// IsPoisson reports whether t is the Poisson distribution.
func (t Trials) IsPoisson() bool { return math.IsInf(t.Eta, 1) }

// Mean is E[K].
func (t Trials) Mean() float64 {
	if t.IsPoisson() {
		return t.PoissonMean
	}
	return tnbMean(t.Eta, t.Gamma)
}

// logPMF is log P(K = k).
func (t Trials) logPMF(k int) float64 {
	kf := float64(k)
	if t.IsPoisson() {
		lg, _ := math.Lgamma(kf + 1)
		return kf*math.Log(t.PoissonMean) - t.PoissonMean - lg
	}
	if k == 0 {
		return math.Inf(-1)
	}
	base := kf * math.Log1p(-t.Gamma)
	if t.Eta == 0 {
		return base - math.Log(kf) - math.Log(math.Log(1/t.Gamma))
	}
	// log(gamma^-eta - 1) = log(expm1(-eta log gamma)).
	norm := math.Log(math.Expm1(-t.Eta * math.Log(t.Gamma)))
	a, _ := math.Lgamma(kf + t.Eta)
	b, _ := math.Lgamma(t.Eta)
	c, _ := math.Lgamma(kf + 1)
	return base - norm + a - b - c
}

// tabulate fills pmf up to the first k past the mean where P(K = k) < tableFloor, and tail
// by summing from that end.
func (t *Trials) tabulate() {
	mean := t.Mean()
	t.pmf = t.pmf[:0]
	for k := 0; ; k++ {
		p := math.Exp(t.logPMF(k))
		t.pmf = append(t.pmf, p)
		if float64(k) > mean && p < tableFloor {
			break
		}
	}
	t.tail = make([]float64, len(t.pmf))
	s := 0.0
	for k := len(t.pmf) - 1; k >= 0; k-- {
		t.tail[k] = math.Min(1, s) // P(K > k): the terms after k (rounding kept below 1)
		s += t.pmf[k]
	}
}

// Tail is P(K > n) (0 past the table, where it is below 1e-25).
func (t Trials) Tail(n int) float64 {
	switch {
	case n < 0:
		return 1
	case n >= len(t.tail):
		return 0
	}
	return t.tail[n]
}

// Cap is the smallest n with P(K > n) <= tailMass: a selection that stops at n trials
// differs from the uncapped one only on an event of that probability, whatever the data.
func (t Trials) Cap(tailMass float64) (int, error) {
	if !(tailMass > 0 && tailMass < 1) {
		return 0, fmt.Errorf("accounting: Trials.Cap: tail mass must lie in (0, 1), got %v", tailMass)
	}
	n := sort.Search(len(t.tail), func(k int) bool { return t.tail[k] <= tailMass })
	return n, nil
}

// Draw returns the number of trials for the uniform u in [0, 1): the smallest k with
// P(K <= k) > u (inversion of the distribution function, computed from the tail), at most
// limit.
func (t Trials) Draw(u float64, limit int) int {
	v := 1 - u
	k := sort.Search(len(t.tail), func(k int) bool { return t.tail[k] < v })
	return min(k, limit)
}

// Trial is the privacy of one trial of a selection: its RDP curve (order alpha > 1 ->
// epsilon) and, for the Poisson bound, its privacy profile (epsilon -> delta).
type Trial struct {
	RDP   func(alpha float64) float64
	Delta func(eps float64) float64
}

// GaussianTrial is a trial releasing a score with Gaussian noise of standard deviation z
// times the score's sensitivity: (1/z)-GDP, RDP alpha/(2 z^2), profile GDPDelta(1/z, .).
func GaussianTrial(z float64) Trial {
	return Trial{
		RDP:   func(alpha float64) float64 { return GaussianRDP(alpha, z) },
		Delta: func(eps float64) float64 { return GDPDelta(1/z, eps) },
	}
}

// SelectionRDP is the RDP curve of the best of K trials, K ~ t, each trial's candidate
// drawn from a density pi_j with c <= pi_j/pi_0 <= C (densityRatio = C/c >= 1; 1 for
// candidates drawn uniformly, pi_j = pi_0).
//
// Truncated negative binomial (Wang et al. 2023, Theorem 1, which at C = c = 1 is
// Papernot and Steinke 2022, Theorem 2): for every alpha > 1 and alpha^ >= 1, eps'(alpha)
// is the sum of eps(alpha), (1+eta)(1 - 1/alpha^) eps(alpha^), (alpha/(alpha-1) + 1 + eta)
// log(C/c), (1+eta) log(1/gamma)/alpha^ and log(E[K])/(alpha-1); alpha^ is chosen in {1}
// and Orders to minimise it.
//
// Poisson (Papernot and Steinke 2022, Theorem 6; densityRatio must be 1): with the trial
// (epsHat, deltaHat)-DP at e^epsHat = 1 + 1/(alpha-1), the largest epsHat the theorem
// admits, eps'(alpha) = eps(alpha) + E[K] deltaHat + log(E[K])/(alpha-1).
func SelectionRDP(trial Trial, t Trials, densityRatio float64) (func(alpha float64) float64, error) {
	if trial.RDP == nil {
		return nil, fmt.Errorf("accounting: SelectionRDP: the trial has no RDP curve")
	}
	if !(densityRatio >= 1) || math.IsInf(densityRatio, 0) {
		return nil, fmt.Errorf("accounting: SelectionRDP: density ratio C/c must be finite and >= 1, got %v", densityRatio)
	}
	logMean := math.Log(t.Mean())
	if t.IsPoisson() {
		if densityRatio != 1 {
			return nil, fmt.Errorf("accounting: SelectionRDP: the Poisson bound is for uniform candidates (C/c = 1), got %v", densityRatio)
		}
		if trial.Delta == nil {
			return nil, fmt.Errorf("accounting: SelectionRDP: the Poisson bound needs the trial's privacy profile")
		}
		mean := t.Mean()
		return func(alpha float64) float64 {
			epsHat := math.Log1p(1 / (alpha - 1))
			return trial.RDP(alpha) + mean*trial.Delta(epsHat) + logMean/(alpha-1)
		}, nil
	}
	logRatio := math.Log(densityRatio)
	logInvGamma := -math.Log(t.Gamma)
	best := logInvGamma // alpha^ = 1
	for _, a := range Orders {
		best = math.Min(best, (1-1/a)*trial.RDP(a)+logInvGamma/a)
	}
	constant := (1+t.Eta)*best + (1+t.Eta)*logRatio
	return func(alpha float64) float64 {
		return trial.RDP(alpha) + constant + alpha/(alpha-1)*logRatio + logMean/(alpha-1)
	}, nil
}

// SmallestNoise returns the smallest z in [1e-4, 1e8] (to relative 1e-9, rounded up) with
// epsAt(z) <= eps, for epsAt non-increasing in z: the noise multiplier a selection needs
// to be (eps, delta)-DP when epsAt is its epsilon at delta.
func SmallestNoise(epsAt func(z float64) (float64, error), eps float64) (float64, error) {
	if !(eps > 0) || math.IsInf(eps, 0) {
		return 0, fmt.Errorf("accounting: SmallestNoise: epsilon must be positive and finite, got %v", eps)
	}
	lo, hi := math.Log(1e-4), math.Log(1e8)
	if e, err := epsAt(math.Exp(hi)); err != nil {
		return 0, err
	} else if e > eps {
		return 0, fmt.Errorf("accounting: SmallestNoise: epsilon %v is out of reach even at noise multiplier 1e8 (%v)", eps, e)
	}
	for hi-lo > 1e-9 {
		mid := 0.5 * (lo + hi)
		e, err := epsAt(math.Exp(mid))
		if err != nil {
			return 0, err
		}
		if e > eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(hi), nil
}
