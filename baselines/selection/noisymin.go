package selection

import (
	"math"
	"math/rand/v2"
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

// NoisyMin returns the index of the smallest of scores[j] + noiseStd Z_j, the Z_j standard
// normal drawn from rng in order (none for noiseStd 0; ties keep the first index).
func NoisyMin(scores []float64, noiseStd float64, rng *rand.Rand) int {
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
