package ridge

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The fitted coefficients solve the penalised normal equations, the losses are the clipped
// squared errors, and the penalties matter: a moderate one beats both extremes of the box.
func TestRidgeFitAndLosses(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, n := task.Dim(), task.Users()
	mean := func(theta []float64) float64 {
		dst := make([]float64, n)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range dst {
			if v < 0 || v > task.LossBound() {
				t.Fatalf("loss %v outside [0, %v]", v, task.LossBound())
			}
			s += v
		}
		return s / float64(n)
	}
	theta := make([]float64, d)
	for g := range theta {
		theta[g] = -1 + 0.5*float64(g)
	}
	mean(theta)
	// (X^T X + diag(lambda)) beta = X^T y.
	p := d * task.cfg.GroupSize
	lhs := mat.NewVecDense(p, nil)
	lhs.MulVec(task.gram, task.beta)
	for j := 0; j < p; j++ {
		lhs.SetVec(j, lhs.AtVec(j)+math.Exp(theta[j/task.cfg.GroupSize])*task.beta.AtVec(j))
	}
	for j := 0; j < p; j++ {
		if math.Abs(lhs.AtVec(j)-task.xty.AtVec(j)) > 1e-9*(1+math.Abs(task.xty.AtVec(j))) {
			t.Fatalf("normal equation %d: %v vs %v", j, lhs.AtVec(j), task.xty.AtVec(j))
		}
	}
	all := func(v float64) []float64 {
		out := make([]float64, d)
		for g := range out {
			out[g] = v
		}
		return out
	}
	lowest, highest, mid := mean(all(ThetaLo)), mean(all(ThetaHi)), math.Inf(1)
	for v := ThetaLo; v <= ThetaHi; v += 0.5 {
		mid = math.Min(mid, mean(all(v)))
	}
	if !(mid < lowest && mid < highest) {
		t.Errorf("a common penalty inside the box (%.4f) should beat both ends (%.4f, %.4f)", mid, lowest, highest)
	}
	if _, err := New(Config{Informative: 9}); err == nil {
		t.Error("more informative groups than groups accepted")
	}
}
