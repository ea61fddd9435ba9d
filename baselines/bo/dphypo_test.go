package bo

import (
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/baselines/internal/search"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/selection"
)

// The projection keeps every density ratio within [c, C], sums to 1, leaves a density
// already inside unchanged and is the Euclidean projection: pi - f is the same on every
// point where f is strictly inside the bounds.
func TestProjectDensity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		n := 2 + rng.IntN(300)
		pi := make([]float64, n)
		total := 0.0
		for i := range pi {
			pi[i] = math.Exp(4 * rng.NormFloat64())
			total += pi[i]
		}
		for i := range pi {
			pi[i] /= total
		}
		f := projectDensity(pi, 0.8, 1.25)
		sum := 0.0
		shift := math.NaN()
		for i, v := range f {
			sum += v
			if r := v * float64(n); r < 0.8*(1-1e-12) || r > 1.25*(1+1e-12) {
				t.Fatalf("n %d: ratio %v outside [0.8, 1.25]", n, r)
			}
			if r := v * float64(n); r > 0.8*(1+1e-9) && r < 1.25*(1-1e-9) {
				if d := v - pi[i]; math.IsNaN(shift) {
					shift = d
				} else if math.Abs(d-shift) > 1e-12 {
					t.Fatalf("n %d: free points shifted by %v and %v", n, shift, d)
				}
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n %d: projection sums to %v", n, sum)
		}
	}
	inside := []float64{0.2, 0.3, 0.25, 0.25}
	if f := projectDensity(inside, 0.8, 1.25); !slicesClose(f, inside, 1e-12) {
		t.Errorf("a density inside the bounds moved: %v -> %v", inside, f)
	}
}

func slicesClose(a, b []float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return len(a) == len(b)
}

// Every density DP-HyPO samples from stays within [c, C] times uniform, whatever the
// released scores, and moves mass towards the candidates of low score.
func TestHyPODensityIsBounded(t *testing.T) {
	cfg, _ := selection.SelectConfig{Candidates: 64}.Resolved()
	ucb, _ := UCBConfig{}.resolved()
	q := testobj.NewQuadratic([]float64{0.5, 0.5}, -1, 1, 4)
	p, err := search.NewSearch("bo", "dp-hypo", q, 100)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	s := newHyPOSampler(cfg, ucb, 1e-4, p, rng)
	for range 30 {
		theta := s.next()
		if err := s.observe(theta, q.F(theta)+0.01*rng.NormFloat64()); err != nil {
			t.Fatal(err)
		}
		for i, w := range s.weight {
			if r := w * float64(cfg.Candidates); r < cfg.DensityLower*(1-1e-9) || r > cfg.DensityUpper*(1+1e-9) {
				t.Fatalf("candidate %d: density ratio %v outside [%v, %v]", i, r, cfg.DensityLower, cfg.DensityUpper)
			}
		}
	}
	// The candidate nearest the minimum gets the upper bound, the farthest the lower.
	near, far := 0, 0
	for i, c := range s.cands {
		if q.F(c) < q.F(s.cands[near]) {
			near = i
		}
		if q.F(c) > q.F(s.cands[far]) {
			far = i
		}
	}
	if s.weight[near] <= s.weight[far] {
		t.Errorf("the candidate nearest the minimum has density %v, the farthest %v", s.weight[near], s.weight[far])
	}
}
