package algo

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGradientMean is line 7 of Algorithm 1 at the size of the SVR experiment after
// ten iterations: m = 1040 design points, d = 103, n = 9000 users.
func BenchmarkGradientMean(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const m, d, n = 1040, 103, 9000
	D := randMat(rng, m, d, 0.3)
	Y := randMat(rng, n, m, 1)
	theta := make([]float64, d)
	k := RBF{Lengthscale: 1, Variance: 1}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		GradientMean(k, 1e-4, D, Y, theta)
	}
}

// BenchmarkAcquisition is one evaluation of alpha and its gradient for a block of
// b = 104 points against m = 1040 kept points in d = 103.
func BenchmarkAcquisition(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const m, bs, d = 1040, 104, 103
	D := randMat(rng, m, d, 0.3)
	theta := make([]float64, d)
	st := newGradState(RBF{Lengthscale: 1, Variance: 1}, 1e-4, d)
	if err := st.reset(D.RawMatrix()); err != nil {
		b.Fatal(err)
	}
	st.setTheta(theta)
	z := randMat(rng, bs, d, 0.3).RawMatrix().Data
	grad := make([]float64, bs*d)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := st.block(z, bs, grad); !ok {
			b.Fatal("not positive definite")
		}
	}
}

// benchDesign times one design step (lines 4-5) at an iterate after `iters` earlier
// iterations (warm start available): with a fixed batch of d+1 points for the zero
// Settings, or as configured by base.
func benchDesign(b *testing.B, d, iters int, base ...Settings) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := Settings{Mu: 1}
	if len(base) > 0 {
		s = base[0]
	}
	lo, hi := make([]float64, d), make([]float64, d)
	for j := range lo {
		lo[j], hi[j] = -6, 0
	}
	set, err := s.resolved(publicFacts{d: d, width: boxWidth(lo, hi), lossScale: 1})
	if err != nil {
		b.Fatal(err)
	}
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = -3
	}
	st := newGradState(set.Kernel, set.noiseVar(), d)
	g := &designer{set: set, d: d, lo: lo, hi: hi, st: st, rng: rng, llo: make([]float64, d), lhi: make([]float64, d)}
	for t := 0; t < iters; t++ {
		st.setTheta(theta)
		res, err := g.chooseBatch(theta)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.grow(rowsOf(res.z, res.b, d)); err != nil {
			b.Fatal(err)
		}
		g.remember(theta, res.z)
		theta[0] += 0.1
	}
	st.setTheta(theta)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.chooseBatch(theta); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDesignStepD20(b *testing.B)  { benchDesign(b, 20, 5) }
func BenchmarkDesignStepD103(b *testing.B) { benchDesign(b, 103, 3) }

// BenchmarkDesignStepAdaptiveSigma1 is noise-misspec's costliest setting: d = 15, an
// adaptive batch (BiasTol 0.5) with the surrogate told sigma = 1, so every step fills the
// capped batch of 64 points; after 8 iterations the kept design holds 512 points.
func BenchmarkDesignStepAdaptiveSigma1(b *testing.B) {
	benchDesign(b, 15, 8, Settings{Mu: 1, BiasTol: 0.5, NoiseStd: 1})
}
