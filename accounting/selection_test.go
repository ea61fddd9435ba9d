package accounting_test

import (
	"math"
	"testing"

	"dpgibo/accounting"
)

// The truncated negative binomial's table sums to 1 and has the closed-form mean, at most
// the mean asked for and within 1e-9 of it; the Poisson distribution likewise.
func TestTrialsDistributions(t *testing.T) {
	for _, mean := range []float64{2, 60, 1040} {
		for _, eta := range []float64{0, 0.5, 1, 2} {
			tr, err := accounting.TruncatedNegBin(eta, mean)
			if err != nil {
				t.Fatal(err)
			}
			checkTable(t, tr, mean)
			if m := tr.Mean(); m > mean || m < mean*(1-1e-9) {
				t.Errorf("eta %v mean %v: closed-form mean %v", eta, mean, m)
			}
		}
		tr, err := accounting.Poisson(mean)
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, tr, mean)
		if p0 := 1 - tr.Tail(0); math.Abs(p0-math.Exp(-mean)) > 1e-12 {
			t.Errorf("Poisson(%v): P(K = 0) = %v, want e^-mean = %v", mean, p0, math.Exp(-mean))
		}
	}
	// Geometric: P(K > n) = (1 - gamma)^n.
	g, _ := accounting.TruncatedNegBin(1, 60)
	for _, n := range []int{0, 1, 10, 600} {
		if want := math.Pow(1-g.Gamma, float64(n)); math.Abs(g.Tail(n)-want) > 1e-12*want+1e-16 {
			t.Errorf("geometric tail at %d: %v, want %v", n, g.Tail(n), want)
		}
	}
}

// checkTable sums k P(K = k) from the tails (E[K] = sum_n P(K > n)) and checks it against
// the closed-form mean, and that P(K > n) falls.
func checkTable(t *testing.T, tr accounting.Trials, mean float64) {
	t.Helper()
	sum := 0.0
	prev := 1.0
	for n := 0; ; n++ {
		tail := tr.Tail(n)
		if tail > prev {
			t.Fatalf("eta %v gamma %v mean %v: P(K > %d) = %v rises from %v", tr.Eta, tr.Gamma, tr.PoissonMean, n, tail, prev)
		}
		if tail == 0 {
			break
		}
		sum += tail
		prev = tail
	}
	if math.Abs(sum-tr.Mean()) > 1e-9*mean {
		t.Errorf("eta %v mean %v: sum of the tails %v, closed-form mean %v", tr.Eta, mean, sum, tr.Mean())
	}
}

// Cap is the smallest n whose tail is within the mass; Draw inverts the distribution
// function and respects the limit.
func TestCapAndDraw(t *testing.T) {
	tr, _ := accounting.TruncatedNegBin(2, 60)
	n, err := tr.Cap(1e-7)
	if err != nil {
		t.Fatal(err)
	}
	if !(tr.Tail(n) <= 1e-7 && tr.Tail(n-1) > 1e-7) {
		t.Errorf("Cap(1e-7) = %d with tails %v, %v", n, tr.Tail(n-1), tr.Tail(n))
	}
	for _, k := range []int{1, 2, 30, 200} {
		// Just above P(K <= k-1) the draw is k; at P(K <= k) itself it is k+1.
		below := 1 - tr.Tail(k-1)
		if got := tr.Draw(below+1e-12, 1<<30); got != k {
			t.Errorf("Draw just above P(K <= %d): %d, want %d", k-1, got, k)
		}
	}
	if got := tr.Draw(1-1e-15, 100); got != 100 {
		t.Errorf("Draw near 1 with limit 100: %d", got)
	}
	if _, err := tr.Cap(0); err == nil {
		t.Error("Cap(0) accepted")
	}
	for _, bad := range [][2]float64{{-1, 10}, {math.NaN(), 10}, {1, 1}, {1, math.Inf(1)}} {
		if _, err := accounting.TruncatedNegBin(bad[0], bad[1]); err == nil {
			t.Errorf("TruncatedNegBin(%v, %v) accepted", bad[0], bad[1])
		}
	}
	if _, err := accounting.Poisson(0); err == nil {
		t.Error("Poisson(0) accepted")
	}
}

// papernotSteinkeTheorem2 is Papernot and Steinke's Theorem 2 for Gaussian trials of noise
// multiplier z, written out independently of SelectionRDP: rho = 1/(2 z^2), and for
// alpha^ >= 1 the term (1+eta)((alpha^-1) rho + log(1/gamma)/alpha^), minimised in closed
// form at alpha^ = max(1, sqrt(log(1/gamma)/rho)).
func papernotSteinkeTheorem2(alpha, z float64, tr accounting.Trials) float64 {
	rho := 1 / (2 * z * z)
	logInvGamma := math.Log(1 / tr.Gamma)
	hat := math.Max(1, math.Sqrt(logInvGamma/rho))
	return alpha*rho + (1+tr.Eta)*((hat-1)*rho+logInvGamma/hat) + math.Log(tr.Mean())/(alpha-1)
}

// At C = c = 1 the DP-HyPO bound (Wang et al., Theorem 1) is Papernot and Steinke's
// Theorem 2: SelectionRDP agrees with the closed form to the resolution of its grid of
// alpha^ (never below it, since a grid minimum is an upper bound); a density ratio r adds
// exactly (alpha/(alpha-1) + 1 + eta) log r.
func TestSelectionRDPReducesToPapernotSteinke(t *testing.T) {
	for _, eta := range []float64{0.5, 1, 2} {
		tr, _ := accounting.TruncatedNegBin(eta, 275)
		for _, z := range []float64{0.7, 3, 20} {
			uniform, err := accounting.SelectionRDP(accounting.GaussianTrial(z), tr, 1)
			if err != nil {
				t.Fatal(err)
			}
			adaptive, err := accounting.SelectionRDP(accounting.GaussianTrial(z), tr, 1.25/0.8)
			if err != nil {
				t.Fatal(err)
			}
			for _, alpha := range []float64{1.5, 4, 30} {
				got, want := uniform(alpha), papernotSteinkeTheorem2(alpha, z, tr)
				if got < want-1e-12 || got > want+2e-3*math.Max(1, want) {
					t.Errorf("eta %v z %v alpha %v: %v, Theorem 2 %v", eta, z, alpha, got, want)
				}
				extra := (alpha/(alpha-1) + 1 + eta) * math.Log(1.25/0.8)
				if d := adaptive(alpha) - got; math.Abs(d-extra) > 1e-12 {
					t.Errorf("eta %v z %v alpha %v: density ratio adds %v, want %v", eta, z, alpha, d, extra)
				}
			}
		}
	}
}

// The Poisson bound (Theorem 6) written out: rho alpha + m deltaHat + log(m)/(alpha-1) with
// deltaHat the Gaussian trial's delta at e^epsHat = 1 + 1/(alpha-1).
func TestSelectionRDPPoisson(t *testing.T) {
	tr, _ := accounting.Poisson(60)
	curve, err := accounting.SelectionRDP(accounting.GaussianTrial(4), tr, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, alpha := range []float64{2, 9} {
		want := alpha/32 + 60*accounting.GDPDelta(0.25, math.Log1p(1/(alpha-1))) + math.Log(60)/(alpha-1)
		if got := curve(alpha); math.Abs(got-want) > 1e-12 {
			t.Errorf("alpha %v: %v, want %v", alpha, got, want)
		}
	}
	if _, err := accounting.SelectionRDP(accounting.GaussianTrial(4), tr, 2); err == nil {
		t.Error("the Poisson bound accepted a density ratio")
	}
	if _, err := accounting.SelectionRDP(accounting.GaussianTrial(4), tr, 0.5); err == nil {
		t.Error("a density ratio below 1 accepted")
	}
}

// Noise multipliers of the selections, pinned against an independent computation (pure
// Python, continuous minimisation over both orders, run once outside the project): the
// project's grid of orders is an upper bound on the continuous minimum, so its noise is at
// least the fixture's and, the grid being fine, within 0.5% of it.
func TestSmallestNoiseFixtures(t *testing.T) {
	const convDelta = 0.9e-5
	for _, c := range []struct {
		name        string
		eta, mean   float64
		ratio       float64
		eps, wantZ  float64
		poissonMean float64
	}{
		{name: "negbin eta 2, mu 0.5", eta: 2, mean: 60, ratio: 1, eps: 1.993091, wantZ: 6.247379},
		{name: "negbin eta 2, mu 1", eta: 2, mean: 1040, ratio: 1, eps: 4.377178, wantZ: 3.593493},
		{name: "DP-HyPO C 1.25 c 0.8, mu 0.5", eta: 1, mean: 60, ratio: 1.25 / 0.8, eps: 1.993091, wantZ: 15.813923},
		{name: "DP-HyPO C 1.25 c 0.8, mu 1", eta: 1, mean: 1040, ratio: 1.25 / 0.8, eps: 4.377178, wantZ: 4.207732},
		{name: "Poisson, mu 0.5", poissonMean: 1040, ratio: 1, eps: 1.993091, wantZ: 20.613449},
		{name: "Poisson, mu 1", poissonMean: 60, ratio: 1, eps: 4.377178, wantZ: 4.507579},
		// The audit's settings (mean 20, mu 0.5; experiments/audit's pinnedSelections, which
		// computes its population values from these numbers, never from the plans).
		{name: "audit: negbin eta 2, mu 0.5", eta: 2, mean: 20, ratio: 1, eps: 1.993091, wantZ: 5.4828127},
		{name: "audit: DP-HyPO C 1.25 c 0.8, mu 0.5", eta: 1, mean: 20, ratio: 1.25 / 0.8, eps: 1.993091, wantZ: 14.2243099},
		{name: "audit: Poisson, mu 0.5", poissonMean: 20, ratio: 1, eps: 1.993091, wantZ: 5.2722214},
	} {
		var tr accounting.Trials
		var err error
		if c.poissonMean > 0 {
			tr, err = accounting.Poisson(c.poissonMean)
		} else {
			tr, err = accounting.TruncatedNegBin(c.eta, c.mean)
		}
		if err != nil {
			t.Fatal(err)
		}
		epsAt := func(z float64) (float64, error) {
			curve, err := accounting.SelectionRDP(accounting.GaussianTrial(z), tr, c.ratio)
			if err != nil {
				return 0, err
			}
			e, _, err := accounting.RDPToEpsDelta(curve, convDelta)
			return e, err
		}
		z, err := accounting.SmallestNoise(epsAt, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		if z < c.wantZ*(1-1e-6) || z > c.wantZ*1.005 {
			t.Errorf("%s: noise multiplier %v, independent %v", c.name, z, c.wantZ)
		}
		// Smallest: the guarantee holds at z and fails just below it.
		at, _ := epsAt(z)
		below, _ := epsAt(z * (1 - 1e-6))
		if !(at <= c.eps && below > c.eps) {
			t.Errorf("%s: epsilon %v at z, %v just below; target %v", c.name, at, below, c.eps)
		}
	}
	if _, err := accounting.SmallestNoise(func(float64) (float64, error) { return 10, nil }, 1); err == nil {
		t.Error("an unreachable epsilon accepted")
	}
}

// DP-HyPO's bound against references that do not come from SelectionRDP.
//
// At C = c it is Papernot and Steinke's Theorem 2: at the pinned noise multiplier of the
// truncated negative binomial (eta 2, mean 60, mu 0.5 at delta 1e-5, fixture of
// TestSmallestNoiseFixtures), SelectionRDP with density ratio 1 agrees with the theorem's
// closed form (papernotSteinkeTheorem2) at every order, and both give the fixture's epsilon.
//
// At C/c = 1.25/0.8 = 1.5625 it equals the value derived step by step in docs/library.md
// ("DP-HyPO's bound, derived"), at DP-HyPO's pinned noise multiplier z = 15.813923, eta 1,
// mean 60 (gamma = 1/60 exactly) and order alpha = 10, each term computed here by hand.
func TestHyPOBoundAgainstIndependentReferences(t *testing.T) {
	const convDelta = 0.9e-5
	tr, err := accounting.TruncatedNegBin(2, 60)
	if err != nil {
		t.Fatal(err)
	}
	const zNegBin, epsNegBin = 6.247379, 1.993091
	uniform, err := accounting.SelectionRDP(accounting.GaussianTrial(zNegBin), tr, 1)
	if err != nil {
		t.Fatal(err)
	}
	theorem := func(alpha float64) float64 { return papernotSteinkeTheorem2(alpha, zNegBin, tr) }
	for _, alpha := range accounting.Orders {
		if got, want := uniform(alpha), theorem(alpha); got < want-1e-12 || got > want+2e-3*math.Max(1, want) {
			t.Fatalf("C = c, alpha %v: %v, Papernot and Steinke's Theorem 2 %v", alpha, got, want)
		}
	}
	for name, curve := range map[string]func(float64) float64{"SelectionRDP": uniform, "Theorem 2": theorem} {
		eps, _, err := accounting.RDPToEpsDelta(curve, convDelta)
		if err != nil {
			t.Fatal(err)
		}
		if eps < epsNegBin*(1-1e-6) || eps > epsNegBin*1.005 {
			t.Errorf("C = c, %s at the pinned z: epsilon %v, fixture %v", name, eps, epsNegBin)
		}
	}

	// C/c = 1.5625, by hand (docs/library.md gives the same steps).
	hypo, err := accounting.TruncatedNegBin(1, 60)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(hypo.Gamma-1.0/60) > 1e-12 {
		t.Fatalf("eta 1, mean 60: gamma %v, want 1/60 (a geometric K has mean 1/gamma)", hypo.Gamma)
	}
	const (
		z     = 15.813923
		alpha = 10.0
		rho   = 1 / (2 * z * z) // 0.00199938..., the trial's RDP is alpha rho
		// The trial's RDP at alpha: 10 rho.
		trialTerm = alpha * rho
		// (1+eta) min over alpha^ of ((alpha^-1) rho + log(1/gamma)/alpha^), at
		// alpha^ = sqrt(log 60/rho) = 45.25...: 2 (2 sqrt(rho log 60) - rho).
		logInvGamma = 4.0943445622221 // log 60
		// (alpha/(alpha-1) + 1 + eta) log(C/c) = (10/9 + 2) log 1.5625.
		densityTerm = (10.0/9 + 2) * 0.44628710262841953
		// log E[K]/(alpha-1) = log 60 / 9.
		meanTerm = logInvGamma / 9
	)
	stopTerm := 2 * (2*math.Sqrt(rho*logInvGamma) - rho)
	want := trialTerm + stopTerm + densityTerm + meanTerm
	if math.Abs(want-2.2213) > 1e-4 {
		t.Fatalf("the hand computation gives %v, docs/library.md 2.2213", want)
	}
	adaptive, err := accounting.SelectionRDP(accounting.GaussianTrial(z), hypo, 1.25/0.8)
	if err != nil {
		t.Fatal(err)
	}
	// SelectionRDP minimises over the grid of alpha^ (accounting.Orders): never below the
	// continuous minimum, and within the grid's resolution of it.
	if got := adaptive(alpha); got < want-1e-9 || got > want+2e-3 {
		t.Errorf("C/c = 1.5625, alpha 10: SelectionRDP %v, by hand %v", got, want)
	}
}
