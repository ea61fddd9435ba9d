package fastexp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestExpNonPositive(t *testing.T) {
	worst := 0.0
	check := func(x float64) {
		want := math.Exp(x)
		got := ExpNonPositive(x)
		if want < 1e-300 {
			return
		}
		worst = math.Max(worst, math.Abs(got-want)/want)
	}
	for i := 0; i <= 2_000_000; i++ {
		check(-708 * float64(i) / 2_000_000)
	}
	rng := rand.New(rand.NewPCG(12, 3))
	for i := 0; i < 200_000; i++ {
		check(-rng.ExpFloat64() * 3)
	}
	if worst > 1e-15 {
		t.Errorf("worst relative error %g, want <= 1e-15", worst)
	}
	if ExpNonPositive(0) != 1 || ExpNonPositive(-1000) != 0 {
		t.Errorf("exp(0) = %v, exp(-1000) = %v", ExpNonPositive(0), ExpNonPositive(-1000))
	}
}

var sink [1024]float64

// BenchmarkExpNonPositive and BenchmarkMathExp compare the two on kernel-like arguments
// (the ratio is the speed-up ExpNonPositive's doc states).
func BenchmarkExpNonPositive(b *testing.B) {
	xs := kernelArgs()
	for i := 0; b.Loop(); i++ {
		sink[i&1023] = ExpNonPositive(xs[i&1023])
	}
}

func BenchmarkMathExp(b *testing.B) {
	xs := kernelArgs()
	for i := 0; b.Loop(); i++ {
		sink[i&1023] = math.Exp(xs[i&1023])
	}
}

// kernelArgs are 1024 arguments -|a-b|^2/2 of unit-variance 5-dimensional points.
func kernelArgs() []float64 {
	rng := rand.New(rand.NewPCG(1, 1))
	xs := make([]float64, 1024)
	for i := range xs {
		s := 0.0
		for range 5 {
			v := rng.NormFloat64() - rng.NormFloat64()
			s += v * v
		}
		xs[i] = -s / 2
	}
	return xs
}
