package algo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// startCPU starts measuring the process's CPU time (all threads); the function it returns
// reports it per operation as the metric cpu-ns/op. On a machine shared with other work,
// wall time per operation (ns/op) mostly measures the competition; CPU time much less so.
func startCPU(b *testing.B) (stop func()) {
	t0, ok := processCPU()
	return func() {
		if t1, ok1 := processCPU(); ok && ok1 && b.N > 0 {
			b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
		}
	}
}

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
	set, err := s.resolved(publicFacts{d: d, width: BoxWidth(lo, hi), lossScale: 1})
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
	stop := startCPU(b)
	defer stop()
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

// Noise-misspec's worst case: d = 15, the surrogate told sigma = 1, an adaptive batch capped
// at 64 points, and the design of the run's last iteration, which keeps 24 x 64 = 1536
// points. Running 24 design steps to build it would cost far more than the step timed, so
// the kept design is laid out like a run's: iteration t's 64 points lie within the local
// box of theta_t (uniform, half the local radius per coordinate), and theta moves by 0.1
// per iteration along the first coordinate. The previous iteration's points are the warm
// starts.
const (
	worstD     = 15
	worstBatch = 64
	worstIters = 24
)

func worstCaseDesign() (set Settings, pts, prev, theta []float64) {
	set, err := Settings{Mu: 1, BiasTol: 0.5, NoiseStd: 1, Kernel: RBF{Lengthscale: 1, Variance: 1}}.resolved(
		publicFacts{d: worstD, width: 6, lossScale: 1})
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	theta = make([]float64, worstD)
	for j := range theta {
		theta[j] = -3
	}
	half := set.LocalRadius / 2
	for t := 0; t < worstIters; t++ {
		for p := 0; p < worstBatch; p++ {
			for j := 0; j < worstD; j++ {
				pts = append(pts, theta[j]+half*(2*rng.Float64()-1))
			}
		}
		theta[0] += 0.1
	}
	prev = make([]float64, worstBatch*worstD)
	last := pts[(worstIters-1)*worstBatch*worstD:]
	for i := range prev {
		prev[i] = last[i] - (theta[i%worstD] - 0.1*float64(1-min(i%worstD, 1)))
	}
	return set, pts, prev, theta
}

func worstCaseState(b *testing.B) (*designer, []float64) {
	set, pts, prev, theta := worstCaseDesign()
	st := newGradState(set.Kernel, set.noiseVar(), worstD)
	if err := st.reset(rowsOf(pts, len(pts)/worstD, worstD)); err != nil {
		b.Fatal(err)
	}
	st.setTheta(theta)
	lo, hi := make([]float64, worstD), make([]float64, worstD)
	for j := range lo {
		lo[j], hi[j] = -6, 0
	}
	g := &designer{set: set, d: worstD, lo: lo, hi: hi, st: st, rng: rand.New(rand.NewPCG(9, 10)),
		llo: make([]float64, worstD), lhi: make([]float64, worstD), prev: prev}
	g.setLocalBox(theta)
	return g, theta
}

// BenchmarkAcquisitionWorstCase is one acquisition evaluation against noise-misspec's
// worst-case design (1536 kept points, d = 15): a single candidate point (the greedy growth
// evaluates thousands of these per iteration), with and without the gradient, and the
// whole capped batch of 64 points with its gradient (the joint refinement).
func BenchmarkAcquisitionWorstCase(b *testing.B) {
	for _, c := range []struct {
		name  string
		batch int
		grad  bool
	}{{"b=1/value", 1, false}, {"b=1/gradient", 1, true}, {"b=64/gradient", worstBatch, true}} {
		b.Run(c.name, func(b *testing.B) {
			g, theta := worstCaseState(b)
			z := make([]float64, c.batch*worstD)
			for i := range z {
				z[i] = math.Min(math.Max(theta[i%worstD]+g.prev[i], g.llo[i%worstD]), g.lhi[i%worstD])
			}
			var grad []float64
			if c.grad {
				grad = make([]float64, len(z))
			}
			b.ResetTimer()
			stop := startCPU(b)
			for i := 0; i < b.N; i++ {
				if _, ok := g.st.block(z, c.batch, grad); !ok {
					b.Fatal("not positive definite")
				}
			}
			stop()
		})
	}
}

// BenchmarkDesignStepWorstCase is one complete design step (Algorithm 1, lines 4-5) at
// noise-misspec's worst case: 1536 kept points, d = 15, the adaptive batch growing to its
// cap of 64 greedily added points, then the joint refinement of all 64.
func BenchmarkDesignStepWorstCase(b *testing.B) {
	g, theta := worstCaseState(b)
	b.ResetTimer()
	stop := startCPU(b)
	defer stop()
	for i := 0; i < b.N; i++ {
		res, err := g.chooseBatch(theta)
		if err != nil {
			b.Fatal(err)
		}
		if res.b != worstBatch {
			b.Fatalf("batch of %d points, want the cap %d", res.b, worstBatch)
		}
	}
}
