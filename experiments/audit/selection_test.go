package audit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/accounting"
)

// The swap pair differs in user 0 only, and user 0 moves the first candidate's loss one way
// and every later one's the other way.
func TestSwapNeighbour(t *testing.T) {
	points := [][]float64{{0.1, 0.2}, {0.5, 0.9}, {0.3, 0.3}}
	losses := func(prime bool) [][]float64 {
		o, err := newSwapNeighbour(2, 4, 3, prime)
		if err != nil {
			t.Fatal(err)
		}
		var out [][]float64
		for _, theta := range points {
			dst := make([]float64, 4)
			if err := o.Losses(theta, dst); err != nil {
				t.Fatal(err)
			}
			out = append(out, dst)
		}
		if f := o.First(); f[0] != 0.1 || f[1] != 0.2 {
			t.Fatalf("first point %v", f)
		}
		return out
	}
	x, xp := losses(false), losses(true)
	for k := range points {
		want, wantPrime := 0.0, 3.0
		if k == 0 {
			want, wantPrime = 3, 0
		}
		if x[k][0] != want || xp[k][0] != wantPrime {
			t.Fatalf("evaluation %d: user 0's loss %v in X, %v in X'; want %v and %v", k, x[k][0], xp[k][0], want, wantPrime)
		}
		for i := 1; i < 4; i++ {
			if x[k][i] != 0 || xp[k][i] != 0 {
				t.Fatalf("user %d's loss is not 0", i)
			}
		}
	}
}

// The Laplace family: dp-rnm on its ten-candidate pair passes, reads close to its
// population value (0.803 of a claim of 0.807), and its control with half the noise is caught
// against that value, on a few thousand runs.
func TestSelectionAudit(t *testing.T) {
	cfg := QuickConfig()
	cfg.TrialRuns = 6000
	cfg.Mechanisms = []string{dprnm, controlDPRNMNoiseHalved}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	real, control := rows[0], rows[1]
	if real.Verdict != pass || control.Verdict != violation || !real.HolmP.Valid || control.PValue.Valid {
		t.Fatalf("dp-rnm %s (eps_lb %v, Holm p %v), control %s (eps_lb %v), want pass and violation against %v",
			real.Verdict, real.EpsLB, real.HolmP, control.Verdict, control.EpsLB, real.Population)
	}
	if math.Abs(real.Population.Value-0.8025) > 1e-3 || math.Abs(real.EpsHat.Value-0.80) > 0.2 || control.EpsHat.Value < 1.2 {
		t.Errorf("population %v, eps_hat %v and %v; want about 0.80, 0.80 and 1.58", real.Population, real.EpsHat, control.EpsHat)
	}
}

// epsSeparation is the bound a test's rates put on epsilon under (epsilon, delta)-DP,
// from both events of the test.
func TestEpsSeparation(t *testing.T) {
	for _, c := range []struct{ alpha, beta, delta, want float64 }{
		{0.1, 0.2, 0, math.Log(0.8 / 0.1)},
		{0.2, 0.1, 0, math.Log(0.8 / 0.1)},
		{0.1, 0.2, 0.05, math.Log(0.75 / 0.1)},
		{0.5, 0.5, 0, 0},
	} {
		if got := epsSeparation(c.alpha, c.beta, c.delta); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("EpsSeparation(%v, %v, %v) = %v, want %v", c.alpha, c.beta, c.delta, got, c.want)
		}
	}
	if got := epsSeparation(0.3, 0.96, 0.05); !math.IsInf(got, -1) && got > 0 {
		t.Errorf("a test within delta separates: %v", got)
	}
}

// The Laplace mechanism with scale 1 on a sensitivity-1 pair is exactly 1-DP, attained by
// tests in the tails: estimateEps's lower bound stays at or below 1 and its estimate is
// near it.
func TestEstimateEpsOnLaplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const runs = 40000
	outX, outXp := make([]float64, runs), make([]float64, runs)
	for i := range runs {
		outX[i] = rng.ExpFloat64() - rng.ExpFloat64()
		outXp[i] = 1 + rng.ExpFloat64() - rng.ExpFloat64()
	}
	est, err := estimateEps(outX, outXp, 0, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if est.EpsLB > 1 || est.EpsHat < 0.7 || est.EpsHat > 1.3 {
		t.Errorf("Laplace, eps 1: eps_hat %v, eps_lb %v", est.EpsHat, est.EpsLB)
	}
	if _, err := estimateEps(outX, outXp, 1, 0.95); err == nil {
		t.Error("delta 1 accepted")
	}
}

// The split pair moves user 0's loss by Lmax between the halves of theta_1, in opposite
// directions in X and X'.
func TestSplitNeighbour(t *testing.T) {
	x, _ := newSplitNeighbour(2, 3, 2, false)
	xp, _ := newSplitNeighbour(2, 3, 2, true)
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

// The random-count family: the geometric and negative binomial selections pass against
// their population values on the split pair, and their controls with a third of the noise
// (for the geometric selection, the dropped factor 3 of eps_0) are caught against them, at
// 1500 runs per dataset.
func TestRandomSelectionAudit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Runs = 1500
	cfg.Mechanisms = []string{dpSelectGeometric, controlPrefix + dpSelectGeometric + controlEps0DroppedSuffix,
		dpSelectNegBin, controlPrefix + dpSelectNegBin + controlNoiseThirdSuffix}
	mechs, err := mechanisms(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := auditMechanisms(context.Background(), cfg, mechs)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := accounting.EpsilonForDelta(cfg.SelectionMu, accounting.DefaultDelta)
	for _, r := range rows {
		want := pass
		if isControl(r.Mechanism) {
			want = violation
		}
		if r.Verdict != want || r.EpsClaimed.Value != eps || !math.IsNaN(r.MuClaimed) || !r.Population.Valid {
			t.Errorf("%s: eps_lb %v against population %v (claim %v): %s, want %s", r.Mechanism, r.EpsLB.Value, r.Population, r.EpsClaimed.Value, r.Verdict, want)
		}
	}
}

// The trial rows measure one trial's noise: on constant neighbours the first noisy score
// of dp-select-negbin is a Gaussian shift of 1/z (z the pinned 5.48) and that of
// dp-select-geometric a Laplace shift of eps_0 = eps/3; both pass and read close to their
// claims on 40,000 runs per dataset.
func TestTrialRows(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TrialRuns = 40000
	cfg.Mechanisms = []string{dpSelectNegBin + trialSuffix, dpSelectGeometric + trialSuffix}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	negbin, geometric := rows[0], rows[1]
	if negbin.Verdict != pass || math.Abs(negbin.MuClaimed-1/pinnedNegBinZ) > 1e-12 || math.Abs(negbin.Tightness-1) > 0.25 {
		t.Errorf("negbin trial: claim %v, mu_hat %v (%s)", negbin.MuClaimed, negbin.MuHat, negbin.Verdict)
	}
	if geometric.Verdict != pass || math.Abs(geometric.EpsClaimed.Value-pinnedEpsilon/3) > 1e-12 || geometric.LBOverClaim < 0.75 {
		t.Errorf("geometric trial: claim %v, eps_hat %v, eps_lb %v (%s)", geometric.EpsClaimed, geometric.EpsHat, geometric.EpsLB, geometric.Verdict)
	}
	t.Logf("negbin trial mu_hat/mu %.3f lb/claim %.3f; geometric trial eps_hat %.3f lb/claim %.3f", negbin.Tightness, negbin.LBOverClaim, geometric.EpsHat.Value, geometric.LBOverClaim)
}

// TestSafeReleaseAudit audits the safe release and the hybrid's start choice on their spike
// neighbours: each released choice is a threshold test of a Gaussian shift of exactly the
// claimed mu, so the rows are tight, and the controls with half the noise are caught.
func TestSafeReleaseAudit(t *testing.T) {
	cfg := QuickConfig()
	cfg.Runs = 2000
	// One DP-GIBO iteration moves the last iterate off theta0, all the release needs (the run
	// checks it): the release's noise and the start choice's do not depend on the iterations.
	cfg.Iters = 1
	cfg.Mechanisms = []string{dpgiboSafeRelease, controlSafeReleaseNoiseHalved, dpgiboHybridStart, controlHybridStartNoiseHalved}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(rows); i += 2 {
		real, control := rows[i], rows[i+1]
		if real.Verdict != pass || control.Verdict != violation {
			t.Errorf("%s %s (mu_lb %v), %s %s (mu_lb %v), want pass and violation",
				real.Mechanism, real.Verdict, real.MuLB, control.Mechanism, control.Verdict, control.MuLB)
		}
		if real.MuHat < 0.85 || real.MuHat > 1.15 {
			t.Errorf("%s mu_hat %v, want about the claim 1", real.Mechanism, real.MuHat)
		}
		t.Logf("%s: mu_hat %.3f, mu_lb %.3f; control: mu_hat %.3f, mu_lb %.3f", real.Mechanism, real.MuHat, real.MuLB, control.MuHat, control.MuLB)
	}
}
