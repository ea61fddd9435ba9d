package gpreg

import (
	"testing"

	"dpgibo/internal/pin"
)

// The pins are the per-user losses of the default task (d = 15, 1000 training and 1000
// validation points, seed 1) at fixed thetas (pinThetas), recorded from the implementation
// on gonum: a speed-up must leave every bit of every loss unchanged. Each entry of
// pinLossesBLAS (one table per build, because the data and every kernel product run on the
// build's BLAS) gives the SHA-256 of all losses (little-endian IEEE bits in user order) and
// the losses of users pinnedUsers in hexadecimal.
var pinnedUsers = [3]int{0, 499, 999}

func constantTheta(v float64) func(*Task) []float64 {
	return func(task *Task) []float64 {
		theta := make([]float64, task.Dim())
		for j := range theta {
			theta[j] = v
		}
		return theta
	}
}

// pinThetas are the thetas of the pins: the truth, the box centre, a mixed point and both
// ends of the range that matters (very short length-scales: K close to the noise diagonal;
// long ones: K badly conditioned, so any change of rounding shows).
var pinThetas = []struct {
	name  string
	theta func(task *Task) []float64
}{
	{"truth", func(task *Task) []float64 { return task.TrueTheta() }},
	{"centre", constantTheta(0)},
	{"mixed", func(task *Task) []float64 {
		theta := make([]float64, task.Dim())
		for j := range theta {
			theta[j] = -1.5 + 0.25*float64(j%11)
		}
		return theta
	}},
	{"short", constantTheta(-2.5)},
	{"long", constantTheta(2.5)},
}

// TestLossesPinned checks that Losses reproduces the pinned losses bit for bit, also when
// evaluations at other thetas run in between (buffers reused across calls).
func TestLossesPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("default-size task")
	}
	task := mustNew(t, Config{Seed: 1})
	dst := make([]float64, task.Users())
	for round := 0; round < 2; round++ {
		for i, pt := range pinThetas {
			if err := task.Losses(pt.theta(task), dst); err != nil {
				t.Fatal(err)
			}
			want := pinLossesBLAS[i]
			if got := pin.Of(dst, pinnedUsers); got != want {
				t.Errorf("round %d, theta %s: losses changed:\n  got  %v\n  want %v", round, pt.name, got, want)
			}
		}
	}
}
