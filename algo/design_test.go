package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// designAt runs one design step with settings s at theta after a kept design D (rows of
// pts), from a seeded RNG, and returns the batch and the kept design.
func designAt(t *testing.T, s Settings, pts []float64, d int, theta []float64, seed uint64) (designResult, *mat.Dense) {
	t.Helper()
	s.Kernel = RBF{Lengthscale: 1, Variance: 1}
	set, err := s.resolved(publicFacts{d: d, width: 4, lossScale: 1})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := make([]float64, d), make([]float64, d)
	for j := range lo {
		lo[j], hi[j] = -2, 2
	}
	st := newGradState(set.Kernel, set.noiseVar(), d)
	m := len(pts) / d
	if err := st.reset(rowsOf(pts, m, d)); err != nil {
		t.Fatal(err)
	}
	st.setTheta(theta)
	g := &designer{set: set, d: d, lo: lo, hi: hi, st: st, rng: rand.New(rand.NewPCG(seed, 1)),
		llo: make([]float64, d), lhi: make([]float64, d)}
	res, err := g.chooseBatch(theta)
	if err != nil {
		t.Fatal(err)
	}
	if st.m != m {
		t.Fatalf("chooseBatch left %d points in the state, want the %d of D", st.m, m)
	}
	return res, mat.NewDense(m, d, append([]float64(nil), pts...))
}

// The design reports the acquisition value of the batch it returns; the adaptive batch meets
// BiasTol unless capped; the joint refinement never raises alpha above the greedy batch's
// (same seed, so the same greedy batch), and DesignRefine = RefineNone returns that greedy batch.
func TestDesignRefineNoneAndRefinement(t *testing.T) {
	const d = 3
	rng := rand.New(rand.NewPCG(21, 22))
	pts := randMat(rng, 6, d, 0.5).RawMatrix().Data
	theta := []float64{0.2, -0.1, 0.3}
	for _, tc := range []struct {
		name string
		s    Settings
	}{
		{"adaptive", Settings{Mu: 1, BiasTol: 0.8, NoiseStd: 0.1}},
		{"adaptive capped", Settings{Mu: 1, BiasTol: 1e-6, MaxBatch: 4, NoiseStd: 0.1}},
		{"fixed", Settings{Mu: 1, Batch: 4, NoiseStd: 0.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			greedy := tc.s
			greedy.DesignRefine = RefineNone
			full, D := designAt(t, tc.s, pts, d, theta, 5)
			only, _ := designAt(t, greedy, pts, d, theta, 5)
			for _, r := range []struct {
				name string
				res  designResult
			}{{"refined", full}, {"greedy only", only}} {
				want, err := Acquisition(RBF{Lengthscale: 1, Variance: 1}, 0.01, D, mat.NewDense(r.res.b, d, r.res.z), theta, nil)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(r.res.alpha-want) > 1e-9*math.Abs(want) {
					t.Fatalf("%s: reported alpha %v, acquisition of the batch is %v", r.name, r.res.alpha, want)
				}
				if tc.s.BiasTol > 0 && !r.res.capped && r.res.alpha > tc.s.BiasTol {
					t.Fatalf("%s: alpha %v above BiasTol %v without the cap", r.name, r.res.alpha, tc.s.BiasTol)
				}
			}
			if full.b != only.b {
				t.Fatalf("batch sizes %d (refined) and %d (greedy only) differ", full.b, only.b)
			}
			if full.alpha > only.alpha {
				t.Fatalf("refinement raised alpha from %v to %v", only.alpha, full.alpha)
			}
		})
	}
}
