package baselines

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// ClippedMean returns (1/n) sum_i min(max(losses[i], 0), lossBound), the mean of the
// per-user losses clipped to [0, lossBound], the score every private method releases or
// compares. Under replacement of one user it changes by at most lossBound/n, whatever the
// losses (+-Inf clip to the bounds; NaN losses are refused before it is called).
func ClippedMean(losses []float64, lossBound float64) float64 {
	s := 0.0
	for _, v := range losses {
		s += math.Min(math.Max(v, 0), lossBound)
	}
	return s / float64(len(losses))
}

// LossBoundOf returns the loss bound a method clips every score to: declared, or obj's
// LossBound() (algo.LossBounder) when declared is 0. It must be positive and finite; a
// method that clips scores refuses an objective without one, with an error naming method.
func LossBoundOf(method string, declared float64, obj algo.Objective) (float64, error) {
	bound, from := declared, "the declared loss bound"
	if bound == 0 {
		lb, ok := obj.(algo.LossBounder)
		if !ok {
			return 0, fmt.Errorf("%s needs a loss bound: declare one (LossBound) or give the objective a method LossBound() float64 (algo.LossBounder)", method)
		}
		bound, from = lb.LossBound(), "the objective's LossBound()"
	}
	if !(bound > 0) || math.IsInf(bound, 0) {
		return 0, fmt.Errorf("%s: loss bound from %s must be positive and finite, got %v", method, from, bound)
	}
	return bound, nil
}

// CheckMu returns an error unless mu, a private method's mu-GDP, is positive (math.Inf(1):
// no privacy noise), naming the method.
func CheckMu(method string, mu float64) error {
	if math.IsNaN(mu) || mu <= 0 {
		return fmt.Errorf("%s: mu must be positive (math.Inf(1) for no privacy noise), got %v", method, mu)
	}
	return nil
}

// The score-based private methods (dp-random, dp-ucb, DP-HyPO's trials) release clipped mean
// scores through the Gaussian mechanism: with sensitivity Lmax/n and noise standard
// deviation (Lmax/n) sqrt(K)/mu, each release is (mu/sqrt(K))-GDP (the paper's Gaussian
// Mechanism theorem, from Dong, Roth and Su 2022), and K such releases, chosen adaptively or
// not, compose to mu-GDP (the paper's GDP Composition theorem, accounting.ComposeGDP).
// Everything computed from the released scores (which point to evaluate next, which point to
// release) is post-processing and costs nothing further.

// GaussianNoiseStd is the standard deviation (lossBound/users) sqrt(releases)/mu of the
// Gaussian noise on each of releases clipped mean scores that compose to mu-GDP
// (dp-random's K candidates, dp-ucb's N observations); 0 for mu = +Inf.
func GaussianNoiseStd(lossBound float64, users, releases int, mu float64) float64 {
	if math.IsInf(mu, 1) {
		return 0
	}
	return lossBound / float64(users) * math.Sqrt(float64(releases)) / mu
}

// GaussianRelease returns score + noiseStd*Z with Z ~ N(0, 1) drawn from rng. With
// noiseStd = 0 it returns score unchanged and draws nothing, so that a run at mu = +Inf
// consumes the same random numbers as its non-private counterpart.
func GaussianRelease(score, noiseStd float64, rng *rand.Rand) float64 {
	if noiseStd == 0 {
		return score
	}
	return score + noiseStd*rng.NormFloat64()
}
