package private

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
)

// The safe release and the hybrid's start both choose among a few candidates fixed without
// the data by a Gaussian report-noisy-min: every candidate's clipped mean loss
// (1/n) sum_i min(max(L(theta_j, x_i), 0), Lmax) is released with Gaussian noise, and the
// candidate of smallest noisy score is kept. Replacing one user moves each of the m scores by
// at most Lmax/n, so the vector of scores has L2 sensitivity sqrt(m) Lmax/n; with noise of
// standard deviation sqrt(m) Lmax/(n mu) on each score the vector is mu-GDP (the Gaussian
// mechanism in f-DP, Dong, Roth and Su 2022), and the choice, a function of it, is too.
// Being mu-GDP, it composes with DP-GIBO's gradients exactly (mu^2 adds).

// SelectionNoiseStd is the standard deviation sqrt(candidates) lossBound/(users mu) of the
// Gaussian noise on each score of a report-noisy-min among candidates candidates that is
// mu-GDP; 0 for mu = +Inf.
func SelectionNoiseStd(lossBound float64, users, candidates int, mu float64) float64 {
	if math.IsInf(mu, 1) {
		return 0
	}
	return math.Sqrt(float64(candidates)) * lossBound / (float64(users) * mu)
}

// ClippedMean returns (1/n) sum_i min(max(losses[i], 0), lossBound), the mean of the
// per-user losses clipped to [0, lossBound], the score of a candidate. Under replacement of
// one user it changes by at most lossBound/n, whatever the losses (+-Inf clip to the
// bounds; NaN losses are refused before it is called).
func ClippedMean(losses []float64, lossBound float64) float64 {
	s := 0.0
	for _, v := range losses {
		s += math.Min(math.Max(v, 0), lossBound)
	}
	return s / float64(len(losses))
}

// noisyMin returns the index of the smallest of scores[j] + noiseStd Z_j, the Z_j standard
// normal drawn from rng in order (none for noiseStd 0; ties keep the first index).
func noisyMin(scores []float64, noiseStd float64, rng *rand.Rand) int {
	best, bestScore := 0, math.Inf(1)
	for j, s := range scores {
		if noiseStd > 0 {
			s += noiseStd * rng.NormFloat64()
		}
		if s < bestScore {
			best, bestScore = j, s
		}
	}
	return best
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
