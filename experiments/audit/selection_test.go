package audit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/algo"
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

// EpsSeparation is the bound a test's rates put on epsilon under (epsilon, delta)-DP,
// from both events of the test.
func TestEpsSeparation(t *testing.T) {
	for _, c := range []struct{ alpha, beta, delta, want float64 }{
		{0.1, 0.2, 0, math.Log(0.8 / 0.1)},
		{0.2, 0.1, 0, math.Log(0.8 / 0.1)},
		{0.1, 0.2, 0.05, math.Log(0.75 / 0.1)},
		{0.5, 0.5, 0, 0},
	} {
		if got := EpsSeparation(c.alpha, c.beta, c.delta); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("EpsSeparation(%v, %v, %v) = %v, want %v", c.alpha, c.beta, c.delta, got, c.want)
		}
	}
	if got := EpsSeparation(0.3, 0.96, 0.05); !math.IsInf(got, -1) && got > 0 {
		t.Errorf("a test within delta separates: %v", got)
	}
}

// The Laplace mechanism with scale 1 on a sensitivity-1 pair is exactly 1-DP, attained by
// tests in the tails: EstimateEps's lower bound stays at or below 1 and its estimate is
// near it.
func TestEstimateEpsOnLaplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const runs = 40000
	outX, outXp := make([]float64, runs), make([]float64, runs)
	for i := range runs {
		outX[i] = rng.ExpFloat64() - rng.ExpFloat64()
		outXp[i] = 1 + rng.ExpFloat64() - rng.ExpFloat64()
	}
	est, err := EstimateEps(outX, outXp, 0, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if est.EpsLB > 1 || est.EpsHat < 0.7 || est.EpsHat > 1.3 {
		t.Errorf("Laplace, eps 1: eps_hat %v, eps_lb %v", est.EpsHat, est.EpsLB)
	}
	if _, err := EstimateEps(outX, outXp, 1, 0.95); err == nil {
		t.Error("delta 1 accepted")
	}
}

// The split pair moves user 0's loss by Lmax between the halves of theta_1, in opposite
// directions in X and X'.
func TestSplitNeighbour(t *testing.T) {
	x, _ := NewSplitNeighbour(2, 3, 2, false)
	xp, _ := NewSplitNeighbour(2, 3, 2, true)
	dst := make([]float64, 3)
	for _, c := range []struct {
		theta0       float64
		inX, inPrime float64
	}{{0.2, 2, 0}, {0.5, 0, 2}, {0.9, 0, 2}} {
		x.Losses([]float64{c.theta0, 0.3}, dst)
		a := dst[0]
		if dst[1] != 0 || dst[2] != 0 {
			t.Errorf("users 1, 2 have losses %v", dst[1:])
		}
		xp.Losses([]float64{c.theta0, 0.3}, dst)
		if a != c.inX || dst[0] != c.inPrime {
			t.Errorf("theta_1 = %v: user 0's loss %v in X, %v in X', want %v and %v", c.theta0, a, dst[0], c.inX, c.inPrime)
		}
	}
	if err := x.Losses([]float64{0.1}, dst); err == nil {
		t.Error("a theta of the wrong length accepted")
	}
}

// dp-select-geometric passes at its claimed (epsilon, delta) and its noiseless control is
// caught, at 1500 runs per dataset.
func TestGeometricSelectionAudit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Runs = 1500
	cfg.Mechanisms = []string{DPSelectGeometric, ControlPrefix + DPSelectGeometric + ControlSelectionSuffix}
	mechs, err := Mechanisms(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := AuditMechanisms(context.Background(), cfg, mechs)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := algo.EpsilonForDelta(cfg.SelectionMu, algo.DefaultDelta)
	for _, r := range rows {
		want := Pass
		if IsControl(r.Mechanism) {
			want = Violation
		}
		if r.Verdict != want || r.EpsClaimed.Value != eps || !math.IsNaN(r.MuClaimed) {
			t.Errorf("%s: eps_lb %v against %v: %s, want %s", r.Mechanism, r.EpsLB.Value, r.EpsClaimed.Value, r.Verdict, want)
		}
	}
}

// TestSafeReleaseAudit audits the safe release and the hybrid's start choice on their spike
// neighbours: each released choice is a threshold test of a Gaussian shift of exactly the
// claimed mu, so the rows are tight, and the controls with half the noise are caught.
func TestSafeReleaseAudit(t *testing.T) {
	cfg := QuickConfig()
	cfg.Runs = 2000
	cfg.Mechanisms = []string{DPGIBOSafeRelease, ControlSafeReleaseNoiseHalved, DPGIBOHybridStart, ControlHybridStartNoiseHalved}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(rows); i += 2 {
		real, control := rows[i], rows[i+1]
		if real.Verdict != Pass || control.Verdict != Violation {
			t.Errorf("%s %s (mu_lb %v), %s %s (mu_lb %v), want pass and violation",
				real.Mechanism, real.Verdict, real.MuLB, control.Mechanism, control.Verdict, control.MuLB)
		}
		if real.MuHat < 0.85 || real.MuHat > 1.15 {
			t.Errorf("%s mu_hat %v, want about the claim 1", real.Mechanism, real.MuHat)
		}
		t.Logf("%s: mu_hat %.3f, mu_lb %.3f; control: mu_hat %.3f, mu_lb %.3f", real.Mechanism, real.MuHat, real.MuLB, control.MuHat, control.MuLB)
	}
}
