package svr

import (
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/internal/pin"
)

// The pins are the per-user losses of the default task on the stand-in (n_train = 1000,
// p = 100, n_val = 9000, seed 1) at fixed thetas, recorded from the implementation the
// speed-ups of Losses started from: a speed-up must leave every bit of every loss unchanged.
// Each entry gives the SHA-256 of all losses (little-endian IEEE bits in user order) and
// three users' losses in hexadecimal. The values depend on the BLAS (pinLossesBLAS, one
// table per build).
var pinnedUsers = [3]int{0, 4500, 8999}

// pinThetas are the thetas of the pins: the benchmark's two points, the box centre, a point
// drawn uniformly from the box and a narrow kernel with a large C and a thin tube (most
// training points support vectors, many SMO steps).
var pinThetas = []struct {
	name  string
	theta func(task *Task) []float64
}{
	{"bench-C1", func(task *Task) []float64 { return benchTheta(task, 1) }},
	{"bench-C3", func(task *Task) []float64 { return benchTheta(task, 3) }},
	{"centre", centre},
	{"uniform", func(task *Task) []float64 {
		rng := rand.New(rand.NewPCG(7, 7))
		lo, hi := task.Bounds()
		theta := make([]float64, len(lo))
		for j := range theta {
			theta[j] = lo[j] + (hi[j]-lo[j])*rng.Float64()
		}
		return theta
	}},
	{"narrow", func(task *Task) []float64 {
		p := task.Config().P
		theta := make([]float64, p+3)
		for j := 0; j < p; j++ {
			theta[j] = -0.5
		}
		theta[p], theta[p+1], theta[p+2] = math.Log(0.02), math.Log(3), math.Log(0.5)
		return theta
	}},
}

// TestLossesPinned checks that Losses reproduces the pinned losses bit for bit, for both
// precisions of the prediction's cross products (pinLossesBLAS for float64, pinLosses32BLAS
// for float32), also when evaluations at other thetas run in between (buffers reused
// across fits).
func TestLossesPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("default-size task")
	}
	for _, prec := range []struct {
		name string
		pins []pin.Losses
	}{{PrecisionFloat64, pinLossesBLAS}, {PrecisionFloat32, pinLosses32BLAS}} {
		task, err := New(Config{Standin: true, Seed: 1, PredictPrecision: prec.name})
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, task.Users())
		for round := 0; round < 2; round++ {
			for i, pt := range pinThetas {
				if err := task.Losses(pt.theta(task), dst); err != nil {
					t.Fatal(err)
				}
				if got := pin.Of(dst, pinnedUsers); got != prec.pins[i] {
					t.Errorf("%s, round %d, theta %s (%d SVs, %d SMO steps): losses changed:\n  got  %#v\n  want %#v",
						prec.name, round, pt.name, task.model.SupportVectors(), task.model.Iterations(), got, prec.pins[i])
				}
			}
		}
	}
}
