package gpreg

import (
	"testing"

	"dpgibo/internal/blasinfo"
	"dpgibo/internal/pin"
)

// The pins are the per-user losses of the default task (d = 15, 1000 training and 1000
// validation points, seed 1) at fixed thetas (pinThetas): a speed-up must leave every bit of
// every loss unchanged. There is one table per recorded build (pinLossesGo,
// pinLossesOpenBLAS: the data and every kernel product run on the build's BLAS); each entry
// gives the SHA-256 of all losses (little-endian IEEE bits in user order) and the losses of
// users pinnedUsers in hexadecimal. On a build the pins were not recorded with (another
// OpenBLAS kernel set, another architecture) the losses must repeat and agree with the
// table of their backend to pinRelTol.
var pinnedUsers = [3]int{0, 499, 999}

// pinRelTol is the agreement asked of a build the pins were not recorded with: the exact
// GP solves of two roundings differ by 4e-12 relative at the badly conditioned thetas
// (gonum against OpenBLAS Haswell).
const pinRelTol = 1e-8

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
// evaluations at other thetas run in between (buffers reused across calls); where the pins
// do not apply (blasinfo.PinsApply) it says why and checks repetition and agreement to
// pinRelTol.
func TestLossesPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("default-size task")
	}
	exact, why := blasinfo.PinsApply()
	if !exact {
		t.Logf("%s: checking that the losses repeat and agree with the recorded ones to %g", why, pinRelTol)
	}
	check := pin.NewChecker(pin.Recorded{Go: pinLossesGo, OpenBLAS: pinLossesOpenBLAS}, blasinfo.CoreType() != "", exact, pinRelTol)
	task := mustNew(t, Config{Seed: 1})
	dst := make([]float64, task.Users())
	for round := 0; round < 2; round++ {
		for i, pt := range pinThetas {
			if err := task.Losses(pt.theta(task), dst); err != nil {
				t.Fatal(err)
			}
			if msg := check.Check(i, pin.Of(dst, pinnedUsers)); msg != "" {
				t.Errorf("round %d, theta %s: %s", round, pt.name, msg)
			}
		}
	}
}
