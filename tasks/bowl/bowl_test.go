package bowl

import (
	"math"
	"testing"
)

// The optimum is the mean centre: f there is FStar, lower than anywhere nearby, and every
// loss lies in [0, LossBound].
func TestOptimumAndBound(t *testing.T) {
	task, err := New(Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	n, d := task.Users(), task.Dim()
	if n != DefaultUsers || d != DefaultD {
		t.Fatalf("n = %d, d = %d", n, d)
	}
	f := func(theta []float64) float64 {
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
	opt := task.Optimum()
	if math.Abs(f(opt)-task.FStar()) > 1e-15 {
		t.Errorf("f(optimum) = %v, FStar %v", f(opt), task.FStar())
	}
	for j := range opt {
		for _, h := range []float64{-0.05, 0.05} {
			x := append([]float64(nil), opt...)
			x[j] += h
			// f(opt + h e_j) = f* + h^2/d exactly for this quadratic.
			if got, want := f(x), task.FStar()+h*h/float64(d); math.Abs(got-want) > 1e-12 {
				t.Errorf("f(optimum %+v e_%d) = %v, want %v", h, j, got, want)
			}
		}
	}
	corner := make([]float64, d)
	f(corner)
	if _, err := New(Config{D: -1}); err == nil {
		t.Error("D = -1 accepted")
	}
	if err := task.Losses(opt[:1], make([]float64, n)); err == nil {
		t.Error("a short theta accepted")
	}
}
