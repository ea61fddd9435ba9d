package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// moves runs DP-GIBO with plain gradient descent on losses that are constant (every
// surrogate gradient is zero, so each released gradient is the privacy noise alone) and
// returns each iteration's move divided by -Step: the released gradient, times the shrink
// factor when shrinking.
func moves(t *testing.T, shrink Shrink, mu float64, seed uint64) [][]float64 {
	t.Helper()
	const d, n, iters, clip, step = 4, 30, 12, 0.5, 1.0
	prev := make([]float64, d)
	var out [][]float64
	s := Settings{Mu: mu, Iters: iters, Clipping: FixedClip(clip), Step: step, StepRule: GradientDescent, Batch: 1, Shrink: shrink}
	_, err := Minimize(context.Background(), zeroLosses{d, n}, make([]float64, d), s, rand.New(rand.NewPCG(seed, 5)), func(it Iteration) error {
		m := make([]float64, d)
		for j, v := range it.Theta {
			m[j] = -(v - prev[j]) / step
		}
		copy(prev, it.Theta)
		out = append(out, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// SignalShrink scales each step by max(0, 1 - d s^2/|g~|^2) of the released gradient g~,
// with the noise scale s of the unshrunk run (shrinking draws no random number and adds no
// noise): on zero gradients the released gradient is the noise alone, the same in both
// runs of one seed.
func TestSignalShrinkScalesTheReleasedGradient(t *testing.T) {
	const d, n, iters, clip, mu = 4, 30, 12, 0.5, 0.7
	noiseStd := PrivacyNoiseStd(clip, iters, n, mu)
	zeroSteps, steps := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		released, shrunk := moves(t, NoShrink, mu, seed), moves(t, SignalShrink, mu, seed)
		for k, g := range released {
			sq := 0.0
			for _, v := range g {
				sq += v * v
			}
			factor := max(0, 1-d*noiseStd*noiseStd/sq)
			for j, v := range g {
				if want := factor * v; math.Abs(shrunk[k][j]-want) > 1e-9*(1+math.Abs(v)) {
					t.Fatalf("seed %d, iteration %d, coordinate %d: shrunk move %v, want %v x %v", seed, k+1, j, shrunk[k][j], factor, v)
				}
			}
			if factor == 0 {
				zeroSteps++
			}
			steps++
		}
	}
	// With pure noise |g~|^2 / s^2 is chi-squared with d degrees of freedom, at most d
	// with probability about 0.59 for d = 4: most steps stay put, not all.
	if share := float64(zeroSteps) / float64(steps); share < 0.4 || share > 0.8 {
		t.Fatalf("%d of %d steps of pure noise were cancelled, want about 59%%", zeroSteps, steps)
	}
}

// Without privacy noise the factor is 1: SignalShrink and NoShrink take the same steps.
func TestSignalShrinkWithoutNoiseChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	obj := newQuadUsers(rng, 20, 3, 0.3)
	run := func(shrink Shrink) Result {
		s := Settings{Mu: math.Inf(1), Iters: 5, Clipping: FixedClip(1), Step: 0.5, Shrink: shrink}
		res, err := Minimize(context.Background(), obj, []float64{-1, 2, 0}, s, rand.New(rand.NewPCG(9, 9)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(NoShrink), run(SignalShrink)
	for j := range a.Theta {
		if a.Theta[j] != b.Theta[j] {
			t.Fatalf("theta %v with SignalShrink, %v without", b.Theta, a.Theta)
		}
	}
}

func TestShrinkDefaultAndBadValue(t *testing.T) {
	obj := zeroLosses{2, 10}
	set, err := Settings{Mu: 1}.WithDefaults(obj)
	if err != nil {
		t.Fatal(err)
	}
	if set.Shrink != NoShrink {
		t.Fatalf("default Shrink %v, want %v", set.Shrink, NoShrink)
	}
	_, err = Settings{Mu: 1, Shrink: Shrink(7)}.WithDefaults(obj)
	if err == nil || !strings.Contains(err.Error(), "Shrink") {
		t.Fatalf("Shrink(7) gave error %v, want one naming Shrink", err)
	}
}
