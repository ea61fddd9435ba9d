package toy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The centres of seed 1 are the README example's: drawn with rand.NewPCG(1, 2) in its
// order, x then y per user.
func TestSeedOneDrawsTheExamplesCentres(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	data := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < DefaultUsers; i++ {
		x, y := -2+0.5*data.NormFloat64(), -4+0.5*data.NormFloat64()
		if task.centres[i] != [Dim]float64{x, y} {
			t.Fatalf("user %d: centre %v, want (%v, %v)", i, task.centres[i], x, y)
		}
	}
}

// The optimum is a stationary point of the mean loss below every user's centre's mean loss
// and the start's, and the start lies far from it.
func TestOptimum(t *testing.T) {
	task, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	opt := task.Optimum()
	grad := make([]float64, Dim)
	task.meanGrad(grad, opt)
	if g := math.Hypot(grad[0], grad[1]); g > 1e-8 {
		t.Fatalf("gradient norm %v at the optimum %v", g, opt)
	}
	dst := make([]float64, task.Users())
	if err := task.Losses(opt, dst); err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, v := range dst {
		if !(v >= 0 && v <= task.LossBound()) {
			t.Fatalf("loss %v outside [0, %v]", v, task.LossBound())
		}
		mean += v / float64(len(dst))
	}
	if math.Abs(mean-task.FStar()) > 1e-12 {
		t.Fatalf("FStar %v, mean loss at the optimum %v", task.FStar(), mean)
	}
	// A small move in any direction raises the mean loss: a minimum, not a saddle.
	for _, dir := range [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}} {
		p := []float64{opt[0] + 1e-3*dir[0], opt[1] + 1e-3*dir[1]}
		if task.mean(p) <= task.FStar() {
			t.Fatalf("mean loss %v at %v is not above FStar %v", task.mean(p), p, task.FStar())
		}
	}
	start := task.Start()
	if d := math.Hypot(start[0]-opt[0], start[1]-opt[1]); d < 3 {
		t.Fatalf("start %v lies only %v from the optimum %v", start, d, opt)
	}
	if task.mean(start) < task.FStar()+0.3 {
		t.Fatalf("start's mean loss %v is close to FStar %v", task.mean(start), task.FStar())
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New(Config{Users: -1}); err == nil {
		t.Fatal("negative users accepted")
	}
	task, err := New(Config{Seed: 3, Users: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := task.Losses([]float64{0}, make([]float64, 7)); err == nil {
		t.Fatal("theta of one value accepted")
	}
	if err := task.Losses([]float64{math.NaN(), 0}, make([]float64, 7)); err == nil {
		t.Fatal("NaN theta gave finite losses without an error")
	}
}
