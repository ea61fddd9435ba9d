package score

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/baselines/internal/testobj"
)

// TestCMAESBeatsRandomSearch: over 90 evaluations (15 generations of 6 in d = 3) CMA-ES
// concentrates near the minimum of a quadratic, so its mean final loss over 5 seeds is far
// below random search's.
func TestCMAESBeatsRandomSearch(t *testing.T) {
	center := []float64{0.7, -0.4, 1.1}
	cmaes, random := testobj.MeanFinalF(t, CMAES{}, center, 90), testobj.MeanFinalF(t, Random{}, center, 90)
	if cmaes >= random/10 {
		t.Errorf("CMA-ES (%.4g) is not below a tenth of random search's (%.4g)", cmaes, random)
	}
}

// TestCMAESParamsMatchTheTutorial pins the default strategy parameters at d = 10 (lambda =
// 10, mu = 5) to the formulas of table 1 of Hansen's tutorial, computed here independently.
func TestCMAESParamsMatchTheTutorial(t *testing.T) {
	p := newCMAParams(10, 10)
	if p.lambda != 10 || p.mu != 5 {
		t.Fatalf("lambda %d mu %d, want 10 and 5", p.lambda, p.mu)
	}
	pos := 0.0
	for i := range 5 {
		pos += p.weights[i]
	}
	if math.Abs(pos-1) > 1e-14 {
		t.Errorf("positive weights sum to %v, want 1", pos)
	}
	// w'_1 = ln 5.5 - ln 1; mu_eff from w'_1..w'_5.
	var s, s2 float64
	for i := 1; i <= 5; i++ {
		w := math.Log(5.5) - math.Log(float64(i))
		s += w
		s2 += w * w
	}
	muEff := s * s / s2
	if math.Abs(p.muEff-muEff) > 1e-12 {
		t.Errorf("mu_eff %v, want %v", p.muEff, muEff)
	}
	if want := 2 / (11.3*11.3 + muEff); math.Abs(p.c1-want) > 1e-15 {
		t.Errorf("c_1 %v, want %v", p.c1, want)
	}
	if want := (muEff + 2) / (10 + muEff + 5); math.Abs(p.cSigma-want) > 1e-15 {
		t.Errorf("c_sigma %v, want %v", p.cSigma, want)
	}
	if p.weights[9] >= 0 || p.weights[5] > 0 {
		t.Errorf("weights %v: the last five must be negative or zero (active CMA)", p.weights)
	}
	// The negative weights' sum is bounded by alpha_posdef: 1 - c1 - cmu + cmu*sum(w) >= 0
	// keeps the decay factor of C non-negative.
	if decay := 1 - p.c1 - p.cmu*p.weightSum; decay < 0 {
		t.Errorf("decay factor of C %v < 0", decay)
	}
}

// TestCMAESStaysInTheBoxAndUsesTheBudget: a minimum outside the box pulls samples to the
// boundary; every evaluated point is inside and the whole budget is spent (or all but an
// incomplete last generation is told).
func TestCMAESStaysInTheBoxAndUsesTheBudget(t *testing.T) {
	q := testobj.NewQuadratic([]float64{3, -3}, -1, 1, 3)
	res, err := (CMAES{}).Run(context.Background(), q, 200, rand.New(rand.NewPCG(2, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.Evals != 200 {
		t.Fatalf("%d evaluations, want 200", q.Evals)
	}
	for _, p := range q.Points {
		for _, v := range p {
			if v < -1 || v > 1 {
				t.Fatalf("evaluated %v outside [-1, 1]", p)
			}
		}
	}
	if res.Theta[0] < 0.95 || res.Theta[1] > -0.95 {
		t.Errorf("best %v, want the corner (1, -1) within 0.05", res.Theta)
	}
}

// TestCMAESRestartsOnAFlatLoss: on a constant loss the flat-history test fires after 10 +
// ceil(30 d / lambda) = 20 generations of 6 in d = 2 (120 evaluations); the restart draws a
// new mean uniformly from the box, so later evaluations leave the box centre.
func TestCMAESRestartsOnAFlatLoss(t *testing.T) {
	testobj.CheckRestartOnFlatLoss(t, CMAES{}, 126)
}

// BenchmarkCMAESRun is one CMA-ES run at fig-peers' SVR d = 103 and budget 1,040 on a cheap
// quadratic objective, so that the time is the method's own.
func BenchmarkCMAESRun(b *testing.B) { testobj.BenchmarkRuns(b, CMAES{}, 1040) }
