package svr

import (
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/internal/blasinfo"
	"dpgibo/internal/pin"
)

// The pins are the per-user losses of the default task on the stand-in (n_train = 1000,
// p = 100, n_val = 9000, seed 1) at fixed thetas, recorded from the implementation the
// speed-ups of Losses started from: a speed-up must leave every bit of every loss unchanged.
// Each entry gives the SHA-256 of all losses (little-endian IEEE bits in user order) and
// three users' losses in hexadecimal. There is one table per recorded build and precision
// (pinLossesGo and pinLosses32Go, pinLossesOpenBLAS and pinLosses32OpenBLAS). On a build the
// pins were not recorded with (another OpenBLAS kernel set, another architecture) the
// losses must repeat and agree with the tables of their backend to pinRelTol.
var pinnedUsers = [3]int{0, 4500, 8999}

// pinRelTol is the agreement asked of a build the pins were not recorded with. SMO stops
// once the KKT gap is below 1e-3, and another rounding can change which pair it updates, so
// two builds may stop at different iterates: gonum and OpenBLAS Haswell give losses up to
// 2.7% apart (theta centre), float32 cross products on two OpenBLAS kernel sets 3e-5.
const pinRelTol = 5e-2

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
// precisions of the prediction's cross products, also when evaluations at other thetas run
// in between (buffers reused across fits); where the pins do not apply
// (blasinfo.PinsApply) it says why and checks repetition and agreement to pinRelTol.
func TestLossesPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("default-size task")
	}
	exact, why := blasinfo.PinsApply()
	if !exact {
		t.Logf("%s: checking that the losses repeat and agree with the recorded ones to %g", why, pinRelTol)
	}
	openblas := blasinfo.CoreType() != ""
	for _, prec := range []struct {
		name string
		pins pin.Recorded
	}{
		{PrecisionFloat64, pin.Recorded{Go: pinLossesGo, OpenBLAS: pinLossesOpenBLAS}},
		{PrecisionFloat32, pin.Recorded{Go: pinLosses32Go, OpenBLAS: pinLosses32OpenBLAS}},
	} {
		task, err := New(Config{Standin: true, Seed: 1, PredictPrecision: prec.name})
		if err != nil {
			t.Fatal(err)
		}
		check := pin.NewChecker(prec.pins, openblas, exact, pinRelTol)
		dst := make([]float64, task.Users())
		for round := 0; round < 2; round++ {
			for i, pt := range pinThetas {
				if err := task.Losses(pt.theta(task), dst); err != nil {
					t.Fatal(err)
				}
				if msg := check.Check(i, pin.Of(dst, pinnedUsers)); msg != "" {
					t.Errorf("%s, round %d, theta %s (%d SVs, %d SMO steps): %s",
						prec.name, round, pt.name, task.model.SupportVectors(), task.model.Iterations(), msg)
				}
			}
		}
	}
}
