package fastexp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ExpNonPositiveSlice gives exactly ExpNonPositive's bits on every kind of argument (kernel
// values, the ends of the range, -708 and its neighbours, signed zeros, tiny values, NaN)
// and for every length (vector body and scalar tail).
func TestExpNonPositiveSliceBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	xs := []float64{0, math.Copysign(0, -1), -1e-300, -5e-324, -708, math.Nextafter(-708, 0), math.Nextafter(-708, -1000),
		-709, -745, -1000, math.Inf(-1), -0.5, -1, -math.Ln2, -math.Ln2 / 512, math.NaN()}
	for i := 0; i < 100_000; i++ {
		switch i % 3 {
		case 0:
			xs = append(xs, -708*rng.Float64())
		case 1:
			xs = append(xs, -rng.ExpFloat64()*3)
		default:
			xs = append(xs, -math.Ldexp(rng.Float64(), -rng.IntN(60)))
		}
	}
	for n := 0; n <= len(xs); n += 1 + n/7 {
		got := append([]float64(nil), xs[:n]...)
		ExpNonPositiveSlice(got)
		for i, x := range xs[:n] {
			want := ExpNonPositive(x)
			if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
				t.Fatalf("n=%d: exp(%v) = %v (%x), ExpNonPositive %v (%x)", n, x, got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
		}
	}
}

// BenchmarkExpNonPositiveSlice is the per-value cost of the slice form on the arguments of
// BenchmarkExpNonPositive.
func BenchmarkExpNonPositiveSlice(b *testing.B) {
	xs := kernelArgs()
	buf := make([]float64, len(xs))
	for b.Loop() {
		copy(buf, xs)
		ExpNonPositiveSlice(buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/value")
}
