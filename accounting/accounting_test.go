package accounting_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"dpgibo/accounting"
)

// renyi integrates the Renyi divergence of order alpha between densities p and q over the
// pieces [cuts[i], cuts[i+1]], independently of the closed forms under test.
func renyi(alpha float64, p, q func(float64) float64, cuts []float64) float64 {
	sum := 0.0
	for i := 0; i+1 < len(cuts); i++ {
		sum += quad.Fixed(func(x float64) float64 {
			return math.Exp(alpha*math.Log(p(x)) + (1-alpha)*math.Log(q(x)))
		}, cuts[i], cuts[i+1], 2000, nil, 0)
	}
	return math.Log(sum) / (alpha - 1)
}

// The Gaussian and Laplace mechanisms' RDP curves are the Renyi divergences between their
// outputs on neighbours (means 0 and 1, the sensitivity), integrated numerically.
func TestRDPCurvesMatchTheDivergences(t *testing.T) {
	for _, z := range []float64{0.8, 1, 2.5} {
		p := distuv.Normal{Mu: 0, Sigma: z}
		q := distuv.Normal{Mu: 1, Sigma: z}
		for _, a := range []float64{1.5, 2, 5, 16} {
			got, want := accounting.GaussianRDP(a, z), renyi(a, p.Prob, q.Prob, []float64{-40 * z, 0.5, 1 + 40*z})
			if math.Abs(got-want) > 1e-6*math.Max(1, want) {
				t.Errorf("Gaussian z %v order %v: %v, integrated %v", z, a, got, want)
			}
		}
	}
	for _, b := range []float64{0.5, 1, 3} {
		p := distuv.Laplace{Mu: 0, Scale: b}
		q := distuv.Laplace{Mu: 1, Scale: b}
		for _, a := range []float64{1.5, 2, 5, 16} {
			got, want := accounting.LaplaceRDP(a, b), renyi(a, p.Prob, q.Prob, []float64{-60 * b, 0, 1, 1 + 60*b})
			if math.Abs(got-want) > 1e-6*math.Max(1, want) {
				t.Errorf("Laplace b %v order %v: %v, integrated %v", b, a, got, want)
			}
		}
	}
	if !(accounting.LaplaceRDP(1e4, 0.01) < 100.01) || math.IsInf(accounting.LaplaceRDP(1e4, 0.01), 0) {
		t.Errorf("Laplace at large order over a small scale: %v, want finite, at most eps = 100", accounting.LaplaceRDP(1e4, 0.01))
	}
}

// Pure eps-DP to mu-GDP: 0.807-DP is 1-GDP; the Gaussian trade-off function stays below
// randomised response's and meets it at the kink, so no smaller mu holds.
func TestPureToGDP(t *testing.T) {
	if mu, _ := accounting.PureToGDP(0.807); math.Abs(mu-1) > 1e-3 {
		t.Errorf("accounting.PureToGDP(0.807) = %v, want 1 to 1e-3", mu)
	}
	if mu, _ := accounting.PureToGDP(0); mu != 0 {
		t.Errorf("accounting.PureToGDP(0) = %v", mu)
	}
	for _, eps := range []float64{0.1, 0.807, 2, 5} {
		mu, err := accounting.PureToGDP(eps)
		if err != nil {
			t.Fatal(err)
		}
		g := func(a float64) float64 {
			return distuv.UnitNormal.CDF(distuv.UnitNormal.Quantile(1-a) - mu)
		}
		rr := func(a float64) float64 {
			return math.Max(0, math.Max(1-math.Exp(eps)*a, math.Exp(-eps)*(1-a)))
		}
		for a := 0.001; a < 1; a += 0.001 {
			if g(a) > rr(a)+1e-12 {
				t.Fatalf("eps %v: G_mu(%v) = %v above randomised response's %v", eps, a, g(a), rr(a))
			}
		}
		kink := 1 / (1 + math.Exp(eps))
		if math.Abs(g(kink)-rr(kink)) > 1e-9 {
			t.Errorf("eps %v: at the kink G_mu %v, randomised response %v: mu is not the smallest", eps, g(kink), rr(kink))
		}
	}
	if _, err := accounting.PureToGDP(math.NaN()); err == nil {
		t.Error("accounting.PureToGDP(NaN) gave no error")
	}
}

// RDP to (eps, delta): for the Gaussian mechanism (exactly 1/z-GDP) the conversion is an
// upper bound on the exact epsilon, and at most Mironov's conversion at the same orders; for
// a pure eps-DP curve it returns about eps.
func TestRDPToEpsDelta(t *testing.T) {
	const delta = 1e-5
	for _, z := range []float64{0.5, 1, 3} {
		eps, order, err := accounting.RDPToEpsDelta(func(a float64) float64 { return accounting.GaussianRDP(a, z) }, delta)
		if err != nil {
			t.Fatal(err)
		}
		exact, _ := accounting.EpsilonForDelta(1/z, delta)
		mironov := math.Inf(1)
		for _, a := range accounting.Orders {
			mironov = math.Min(mironov, accounting.GaussianRDP(a, z)+math.Log(1/delta)/(a-1))
		}
		if !(eps >= exact) || !(eps <= mironov) || order <= 1 {
			t.Errorf("z %v: eps %v at order %v, want between the exact %v and Mironov's %v", z, eps, order, exact, mironov)
		}
	}
	eps, _, err := accounting.RDPToEpsDelta(func(float64) float64 { return 1.5 }, delta)
	if err != nil || eps < 1.5-0.01 || eps > 1.5+0.01 {
		t.Errorf("a pure 1.5-DP curve converts to %v (%v), want 1.5 to 0.01", eps, err)
	}
	if _, _, err := accounting.RDPToEpsDelta(func(float64) float64 { return math.NaN() }, delta); err == nil {
		t.Error("a NaN curve gave no error")
	}
	if _, _, err := accounting.RDPToEpsDelta(func(float64) float64 { return 1 }, 0); err == nil {
		t.Error("delta 0 gave no error")
	}
}

// accounting.PureWithinGDP inverts accounting.PureToGDP, and an epsilon-DP mechanism at that epsilon is mu-GDP
// with no room to spare: at eps slightly above, accounting.PureToGDP exceeds mu.
func TestPureWithinGDP(t *testing.T) {
	if eps, _ := accounting.PureWithinGDP(1); math.Abs(eps-0.807) > 1e-3 {
		t.Errorf("accounting.PureWithinGDP(1) = %v, want 0.807 to 1e-3", eps)
	}
	for _, mu := range []float64{0, 0.1, 0.5, 1, 2, 5} {
		eps, err := accounting.PureWithinGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := accounting.PureToGDP(eps)
		if math.Abs(back-mu) > 1e-9*(1+mu) {
			t.Errorf("accounting.PureToGDP(accounting.PureWithinGDP(%v)) = %v", mu, back)
		}
		if above, _ := accounting.PureToGDP(eps * 1.001); mu > 0 && !(above > mu) {
			t.Errorf("mu %v: accounting.PureToGDP(%v) = %v is not above mu", mu, eps*1.001, above)
		}
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := accounting.PureWithinGDP(bad); err == nil {
			t.Errorf("accounting.PureWithinGDP(%v) gave no error", bad)
		}
	}
}
