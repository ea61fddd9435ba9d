package logreg

import (
	"math"
	"slices"
	"sort"
	"testing"
)

func filled(v float64) []float64 {
	theta := make([]float64, Features)
	for j := range theta {
		theta[j] = v
	}
	return theta
}

// The fit is the minimiser: the penalised objective's gradient vanishes there, and a small
// move of any coefficient raises the objective.
func TestFitIsTheMinimiser(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{-6, -1, 3} {
		theta := filled(v)
		theta[0], theta[7] = ThetaLo, ThetaHi
		if err := task.fit(theta); err != nil {
			t.Fatal(err)
		}
		w := slices.Clone(task.w.RawVector().Data)
		best := task.objective(theta, w)
		for j := range w {
			for _, h := range []float64{-1e-4, 1e-4} {
				moved := slices.Clone(w)
				moved[j] += h
				if o := task.objective(theta, moved); o < best-1e-12 {
					t.Fatalf("theta %v: moving coefficient %d by %v lowers the objective from %v to %v", v, j, h, best, o)
				}
			}
		}
	}
}

// Losses lie in [0, LossBound], repeat at the same theta and seed, and a moderate penalty
// fits the validation users better than the strongest; a few users carry most of the loss.
func TestLosses(t *testing.T) {
	task, err := New(Config{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	n := task.Users()
	if task.Dim() != 30 || n != DefaultNVal || task.LossBound() != -math.Log(PMin) {
		t.Fatalf("d %d, users %d, bound %v", task.Dim(), n, task.LossBound())
	}
	mean := func(theta []float64) (float64, []float64) {
		dst := make([]float64, n)
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range dst {
			if !(v >= 0 && v <= task.LossBound()) {
				t.Fatalf("a loss %v outside [0, %v]", v, task.LossBound())
			}
			s += v / float64(n)
		}
		return s, dst
	}
	moderate, losses := mean(filled(0))
	again, _ := mean(filled(0))
	strong, _ := mean(filled(ThetaHi))
	if moderate != again {
		t.Errorf("the same theta gave mean losses %v and %v", moderate, again)
	}
	// The strongest penalty leaves about the intercept: near the log loss of the base rate.
	if !(moderate < 0.5*strong) || !(strong > 0.3 && strong < 0.7) {
		t.Errorf("mean validation loss %v at lambda = 1, %v at lambda = e^6", moderate, strong)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(losses)))
	top, total := 0.0, 0.0
	for i, v := range losses {
		if i < n/20 {
			top += v
		}
		total += v
	}
	if !(top > 0.5*total) {
		t.Errorf("the worst 5%% of users carry %.2f of the validation loss, want most of it", top/total)
	}
	if _, err := New(Config{NTrain: 400, NVal: 300}); err == nil {
		t.Error("a split of 700 rows of a 569-row table was accepted")
	}
}
