package baselines

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestNoiseStdFormulas: GaussianNoiseStd, the noise of dp-random's K candidates and of dp-ucb's N
// observations (once DPRandomNoiseStd and DPUCBNoiseStd, the same formula), is (Lmax/n) sqrt(K)/mu.
func TestNoiseStdFormulas(t *testing.T) {
	for _, c := range []struct {
		bound    float64
		users, k int
		mu, want float64
	}{
		{1, 10, 50, 1, 0.1 * math.Sqrt(50)},
		{2, 50, 30, 0.5, 2.0 / 50 * math.Sqrt(30) / 0.5},
		{3, 7, 1, 0.2, 3.0 / 7 / 0.2},
		{1, 10, 50, math.Inf(1), 0},
	} {
		if got := GaussianNoiseStd(c.bound, c.users, c.k, c.mu); math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("GaussianNoiseStd(%v, %d, %d, %v) = %v, want (Lmax/n)*sqrt(K)/mu = %v", c.bound, c.users, c.k, c.mu, got, c.want)
		}
	}
}

// TestClippedMeanSensitivity: replacing one user's loss by any value moves ClippedMean by at
// most Lmax/n, and the worst case (0 against Lmax) attains it.
func TestClippedMeanSensitivity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	extremes := []float64{-1e300, -5, 0, 0.5, 1, 7, 1e300, math.Inf(1), math.Inf(-1)}
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(40)
		bound := 0.1 + 5*rng.Float64()
		losses := make([]float64, n)
		for i := range losses {
			losses[i] = -2*bound + 5*bound*rng.Float64()
		}
		base := ClippedMean(losses, bound)
		if base < 0 || base > bound {
			t.Fatalf("ClippedMean = %v outside [0, %v]", base, bound)
		}
		i := rng.IntN(n)
		for _, v := range append(extremes, bound*rng.Float64()) {
			nb := append([]float64(nil), losses...)
			nb[i] = v
			if diff := math.Abs(ClippedMean(nb, bound) - base); diff > bound/float64(n)*(1+1e-12) {
				t.Fatalf("n=%d Lmax=%v: replacing user %d by %v moved the score by %v > Lmax/n = %v", n, bound, i, v, diff, bound/float64(n))
			}
		}
		lowNb, highNb := append([]float64(nil), losses...), append([]float64(nil), losses...)
		lowNb[i], highNb[i] = -1, 2*bound
		if diff := ClippedMean(highNb, bound) - ClippedMean(lowNb, bound); math.Abs(diff-bound/float64(n)) > 1e-12*bound {
			t.Fatalf("worst-case neighbours differ by %v, want Lmax/n = %v", diff, bound/float64(n))
		}
	}
}
