package score

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"dpgibo/baselines/internal/testobj"
)

// TestTPEBeatsRandomSearch: after its 10 uniform start-up trials TPE concentrates near the
// minimum, so over 60 evaluations its mean final loss over 5 seeds is below random search's.
func TestTPEBeatsRandomSearch(t *testing.T) {
	center := []float64{0.7, -0.4}
	tpe, random := testobj.MeanFinalF(t, TPE{}, center, 60), testobj.MeanFinalF(t, Random{}, center, 60)
	if tpe >= random/4 {
		t.Errorf("TPE (%.4g) is not below a quarter of random search's (%.4g)", tpe, random)
	}
}

// TestTPEIsReproducible: the same seed gives the same evaluated points, and runs draw only
// from their own rng (two runs interleaved in goroutines match the sequential ones).
func TestTPEIsReproducible(t *testing.T) {
	run := func(seed uint64) [][]float64 {
		q := testobj.NewQuadratic([]float64{0.3, -0.5, 0.1}, -2, 2, 3)
		if _, err := (TPE{}).Run(context.Background(), q, 40, rand.New(rand.NewPCG(seed, 3)), nil); err != nil {
			t.Error(err)
		}
		return q.Points
	}
	want := [][][]float64{run(1), run(2)}
	got := make([][][]float64, 2)
	done := make(chan int)
	for k := range got {
		go func() { got[k] = run(uint64(k + 1)); done <- k }()
	}
	<-done
	<-done
	for k := range got {
		if !slices.EqualFunc(got[k], want[k], slices.Equal) {
			t.Fatalf("seed %d: concurrent run evaluated different points", k+1)
		}
	}
	if slices.EqualFunc(want[0], want[1], slices.Equal) {
		t.Fatal("seeds 1 and 2 evaluated the same points")
	}
}

// TestTPEBelowCountAndAgeWeights pins the split and the age weights to Optuna's defaults.
func TestTPEBelowCountAndAgeWeights(t *testing.T) {
	for _, c := range []struct{ n, want int }{{10, 1}, {11, 2}, {100, 10}, {241, 25}, {1000, 25}} {
		if got := tpeBelowCount(c.n); got != c.want {
			t.Errorf("tpeBelowCount(%d) = %d, want %d", c.n, got, c.want)
		}
	}
	for r := range 24 {
		if w := tpeAgeWeight(r, 24); w != 1 {
			t.Errorf("24 observations: weight of %d = %v, want 1", r, w)
		}
	}
	// n = 30: a ramp of 5 from 1/30 to 1, then 25 ones.
	want := []float64{1.0 / 30, 1.0/30 + (1-1.0/30)/4, 1.0/30 + (1-1.0/30)/2, 1.0/30 + 3*(1-1.0/30)/4, 1}
	for r, w := range want {
		if got := tpeAgeWeight(r, 30); math.Abs(got-w) > 1e-15 {
			t.Errorf("n = 30: weight of %d = %v, want %v", r, got, w)
		}
	}
	if got := tpeAgeWeight(0, 26); got != 1.0/26 {
		t.Errorf("n = 26: oldest weight %v, want 1/26", got)
	}
	if got := tpeAgeWeight(29, 30); got != 1 {
		t.Errorf("n = 30: newest weight %v, want 1", got)
	}
}

// TestTPEParzenWidthsAndDensity checks a Parzen estimator by hand: the prior's place and
// width, the neighbour widths (outer side of the ends not counted), the clip, and that the
// density integrates to 1 on the box and matches the plain sum of every component.
func TestTPEParzenWidthsAndDensity(t *testing.T) {
	obs := []tpeObs{{0.1, 0}, {0.2, 1}, {0.7, 2}}
	var mx tpeMixture
	tpeParzen(&mx, obs, []float64{1, 1, 1}, 0, 1)
	if !slices.Equal(mx.mu, []float64{0.1, 0.2, 0.5, 0.7}) || mx.prior != 2 {
		t.Fatalf("centres %v prior at %d, want [0.1 0.2 0.5 0.7] prior at 2", mx.mu, mx.prior)
	}
	// Widths: 0.1 -> right gap 0.1; 0.2 -> max(0.1, 0.3); prior -> 1; 0.7 -> left gap 0.2.
	// Clip to [1/min(100, 5), 1] = [0.2, 1].
	wantW := []float64{0.2, 0.3, 1, 0.2}
	for i, w := range wantW {
		if math.Abs(mx.width[i]-w) > 1e-15 {
			t.Errorf("width %d = %v, want %v", i, mx.width[i], w)
		}
	}
	// Plain mixture density with every component, renormalised on [0, 1].
	plain := func(x float64) float64 {
		s, mass := 0.0, 0.0
		for i := range mx.mu {
			z := (x - mx.mu[i]) / mx.width[i]
			s += mx.weight[i] * math.Exp(-0.5*z*z) / (mx.width[i] * math.Sqrt(2*math.Pi))
			mass += mx.weight[i] * 0.5 * (math.Erf((1-mx.mu[i])/(mx.width[i]*math.Sqrt2)) - math.Erf((0-mx.mu[i])/(mx.width[i]*math.Sqrt2)))
		}
		return s / mass
	}
	integral := 0.0
	const steps = 20000
	for k := range steps {
		x := (float64(k) + 0.5) / steps
		p := math.Exp(mx.logDensity(x))
		if math.Abs(p-plain(x)) > 1e-12*plain(x) {
			t.Fatalf("density at %v: %v, plain sum %v", x, p, plain(x))
		}
		integral += p / steps
	}
	if math.Abs(integral-1) > 1e-6 {
		t.Errorf("density integrates to %v on the box, want 1", integral)
	}
}

// TestTPEWindowedDensityMatchesFullSum: with many observations (where the window cuts most
// components) the density equals the sum over every component to 1e-13 relative.
func TestTPEWindowedDensityMatchesFullSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	obs := make([]tpeObs, 900)
	w := make([]float64, len(obs))
	for i := range obs {
		obs[i] = tpeObs{-3 + 5*math.Pow(rng.Float64(), 3), i}
		w[i] = tpeAgeWeight(i, len(obs))
	}
	slices.SortFunc(obs, func(a, b tpeObs) int {
		if a.v < b.v {
			return -1
		}
		return 1
	})
	var mx tpeMixture
	tpeParzen(&mx, obs, w, -3, 2)
	for range 500 {
		x := -3 + 5*rng.Float64()
		full := 0.0
		for i := range mx.mu {
			z := (x - mx.mu[i]) * mx.invWidth[i]
			full += mx.weightOverWidth[i] * math.Exp(-0.5*z*z)
		}
		want := math.Log(full) - mx.logNorm
		if got := mx.logDensity(x); math.Abs(got-want) > 1e-13*math.Abs(want)+1e-13 {
			t.Fatalf("log density at %v: windowed %v, full %v", x, got, want)
		}
	}
}

// BenchmarkTPERun is one TPE run at fig-peers' SVR d = 103 on a cheap quadratic objective
// (the time is TPE's own): 200 trials, and fig-peers' 1,040.
func BenchmarkTPERun(b *testing.B) {
	for _, budget := range []int{200, 1040} {
		b.Run("trials="+strconv.Itoa(budget), func(b *testing.B) { testobj.BenchmarkRuns(b, TPE{}, budget) })
	}
}
