package fastexp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// kernelRowScalar is KernelRow's definition, one value at a time.
func kernelRowScalar(dst, cross, shift []float64, base float64) {
	for k := range dst {
		dst[k] = ExpNonPositive(min(base+shift[k]+cross[k], 0))
	}
}

// TestKernelRowBitIdentical checks that KernelRow returns the scalar loop's bits (NaN for
// NaN) on every kind of argument, on lengths around the vector width and the chunk size,
// and in place. In a build without GOEXPERIMENT=simd both sides are the scalar loop; CI
// runs this test in both builds.
func TestKernelRowBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	draw := func(i int) float64 {
		switch i % 8 {
		case 0:
			return -rng.Float64() * 800 // around the -708 cut-off
		case 1:
			return -rng.ExpFloat64() * 3 // kernel-like
		case 2:
			return rng.NormFloat64() * 1e-3 // both signs near 0
		case 3:
			return -rng.Float64() * 1e-300
		case 4:
			return []float64{math.NaN(), math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), -708, -708.0000001, -1e300}[rng.IntN(8)]
		default:
			return math.Float64frombits(rng.Uint64()) // any bits, NaNs and infinities included
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 255, 256, 257, 263, 1000, 4099} {
		cross, shift := make([]float64, n), make([]float64, n)
		for k := range cross {
			cross[k], shift[k] = draw(k), draw(k+3)
			if k%3 == 0 {
				shift[k] = -rng.ExpFloat64()
			}
		}
		for _, base := range []float64{0, -0.3, -rng.ExpFloat64() * 10, math.NaN()} {
			want, got := make([]float64, n), make([]float64, n)
			kernelRowScalar(want, cross, shift, base)
			KernelRow(got, cross, shift, base)
			inPlace := append([]float64(nil), cross...)
			KernelRow(inPlace, inPlace, shift, base)
			for k := range want {
				for name, v := range map[string]float64{"KernelRow": got[k], "in place": inPlace[k]} {
					if math.Float64bits(v) != math.Float64bits(want[k]) && !(math.IsNaN(v) && math.IsNaN(want[k])) {
						t.Fatalf("n=%d base=%v k=%d (cross %v, shift %v): %s %v (%#x), scalar %v (%#x)",
							n, base, k, cross[k], shift[k], name, v, math.Float64bits(v), want[k], math.Float64bits(want[k]))
					}
				}
			}
		}
	}
	t.Logf("KernelRow path: %s", Vectorised())
}

// BenchmarkKernelRow and BenchmarkKernelRowScalar time one 512-value kernel row (the size
// of the SVR prediction's rows) by KernelRow and by the scalar loop.
func BenchmarkKernelRow(b *testing.B) {
	dst, cross, shift := kernelRowArgs()
	for b.Loop() {
		KernelRow(dst, cross, shift, -0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(dst)), "ns/value")
}

func BenchmarkKernelRowScalar(b *testing.B) {
	dst, cross, shift := kernelRowArgs()
	for b.Loop() {
		kernelRowScalar(dst, cross, shift, -0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(dst)), "ns/value")
}

func kernelRowArgs() (dst, cross, shift []float64) {
	xs := kernelArgs()
	dst, cross, shift = make([]float64, 512), make([]float64, 512), make([]float64, 512)
	for k := range cross {
		cross[k], shift[k] = xs[k]/2, xs[k+512]/2
	}
	return dst, cross, shift
}

// TestScaledExpBitIdentical checks ScaledExp against its scalar definition, as
// TestKernelRowBitIdentical does for KernelRow.
func TestScaledExpBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{0, 5, 8, 257, 1031} {
		args := make([]float64, n)
		for k := range args {
			switch k % 4 {
			case 0:
				args[k] = -rng.Float64() * 800
			case 1:
				args[k] = -rng.ExpFloat64() * 3
			case 2:
				args[k] = rng.NormFloat64()
			default:
				args[k] = math.Float64frombits(rng.Uint64())
			}
		}
		for _, scale := range []float64{1, 0.37, 2.5e3, math.Inf(1)} {
			got := append([]float64(nil), args...)
			ScaledExp(got, scale)
			for k, x := range args {
				want := scale * ExpNonPositive(min(x, 0))
				if math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
					t.Fatalf("n=%d scale=%v x=%v: ScaledExp %v, scalar %v", n, scale, x, got[k], want)
				}
			}
		}
	}
}

// TestKernelSumsBitIdentical checks KernelSums against its definition, one row at a time,
// on row counts around the vector width, support-vector counts around the chunk size, a
// stride wider than the rows, and arguments of every kind.
func TestKernelSumsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	for _, rows := range []int{0, 1, 7, 8, 9, 17, 130} {
		for _, nSV := range []int{0, 1, 31, 32, 33, 100} {
			stride := rows + rng.IntN(3)
			cross := make([]float32, nSV*stride)
			for i := range cross {
				cross[i] = float32(rng.NormFloat64() * 4)
				if i%97 == 0 {
					cross[i] = float32([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1e30}[rng.IntN(4)])
				}
			}
			base, shift, coef := make([]float64, rows), make([]float64, nSV), make([]float64, nSV)
			for r := range base {
				base[r] = -rng.ExpFloat64() * 4
				if r%5 == 3 {
					base[r] = -800 * rng.Float64()
				}
			}
			for k := range shift {
				shift[k], coef[k] = -rng.ExpFloat64()*4, rng.NormFloat64()
			}
			got := make([]float64, rows)
			KernelSums(got, cross, stride, base, shift, coef, 0.25)
			for r := range got {
				want := 0.25
				for k, c := range coef {
					want += c * ExpNonPositive(min(base[r]+shift[k]+float64(cross[k*stride+r]), 0))
				}
				if math.Float64bits(got[r]) != math.Float64bits(want) && !(math.IsNaN(got[r]) && math.IsNaN(want)) {
					t.Fatalf("rows=%d nSV=%d row %d: KernelSums %v, want %v", rows, nSV, r, got[r], want)
				}
			}
		}
	}
}

// BenchmarkKernelSums times one block of the SVR prediction (128 rows, 512 support
// vectors) by KernelSums.
func BenchmarkKernelSums(b *testing.B) {
	const rows, nSV = 128, 512
	xs := kernelArgs()
	cross := make([]float32, rows*nSV)
	for i := range cross {
		cross[i] = float32(xs[i%1024] / 3)
	}
	base, shift, coef := make([]float64, rows), make([]float64, nSV), make([]float64, nSV)
	for r := range base {
		base[r] = xs[r] / 3
	}
	for k := range shift {
		shift[k], coef[k] = xs[(k+300)%1024]/3, float64(k%7)-3
	}
	dst := make([]float64, rows)
	for b.Loop() {
		KernelSums(dst, cross, rows, base, shift, coef, 0.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*nSV), "ns/value")
}
