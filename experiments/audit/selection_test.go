package audit

import (
	"context"
	"testing"
)

// The swap pair differs in user 0 only, and user 0 moves the two candidates' losses in
// opposite directions.
func TestSwapNeighbour(t *testing.T) {
	losses := func(prime bool) [2][]float64 {
		o, err := NewSwapNeighbour(2, 4, 3, prime)
		if err != nil {
			t.Fatal(err)
		}
		var out [2][]float64
		for k, theta := range [][]float64{{0.1, 0.2}, {0.5, 0.9}} {
			out[k] = make([]float64, 4)
			if err := o.Losses(theta, out[k]); err != nil {
				t.Fatal(err)
			}
		}
		if f := o.First(); f[0] != 0.1 || f[1] != 0.2 {
			t.Fatalf("first point %v", f)
		}
		if err := o.Losses([]float64{0, 0}, make([]float64, 4)); err == nil {
			t.Fatal("a third evaluation gave no error")
		}
		return out
	}
	x, xp := losses(false), losses(true)
	if x[0][0] != 3 || x[1][0] != 0 || xp[0][0] != 0 || xp[1][0] != 3 {
		t.Fatalf("user 0: X %v %v, X' %v %v", x[0][0], x[1][0], xp[0][0], xp[1][0])
	}
	for k := range 2 {
		for i := 1; i < 4; i++ {
			if x[k][i] != 0 || xp[k][i] != 0 {
				t.Fatalf("user %d's loss is not 0", i)
			}
		}
	}
}

// dp-rnm passes its audit and the quartered-noise control is caught (mu_lb above the
// claim), on a small number of runs.
func TestSelectionAudit(t *testing.T) {
	cfg := QuickConfig()
	cfg.Runs = 4000
	cfg.Mechanisms = []string{DPRNM, ControlDPRNMNoiseQuartered}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Verdict != Pass || rows[1].Verdict != Violation {
		t.Fatalf("dp-rnm %s (mu_lb %v), control %s (mu_lb %v), want pass and violation",
			rows[0].Verdict, rows[0].MuLB, rows[1].Verdict, rows[1].MuLB)
	}
	// The swap pair gives dp-rnm a separation of 2 Phi^-1(1 - q), q the chance the
	// higher-loss candidate wins: 0.50 at Mu = 1, well below the claim; the control's 1.83.
	if rows[0].MuHat > 0.8 || rows[1].MuHat < 1.4 {
		t.Errorf("mu_hat %v and %v, want about 0.50 and 1.83", rows[0].MuHat, rows[1].MuHat)
	}
}
