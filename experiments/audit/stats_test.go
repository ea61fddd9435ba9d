package audit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestClopperPearsonClosedForms(t *testing.T) {
	// For k = 0 the upper bound solves (1-p)^N = 1-confidence; for k = N the lower bound
	// solves p^N = 1-confidence.
	for _, tc := range []struct {
		trials     int
		confidence float64
	}{{10, 0.975}, {200, 0.95}, {5000, 0.99}} {
		up, err := clopperPearsonUpper(0, tc.trials, tc.confidence)
		if err != nil {
			t.Fatal(err)
		}
		want := 1 - math.Pow(1-tc.confidence, 1/float64(tc.trials))
		if math.Abs(up-want) > 1e-9 {
			t.Errorf("upper(0, %d, %v) = %v, want %v", tc.trials, tc.confidence, up, want)
		}
		lo, err := clopperPearsonLower(tc.trials, tc.trials, tc.confidence)
		if err != nil {
			t.Fatal(err)
		}
		want = math.Pow(1-tc.confidence, 1/float64(tc.trials))
		if math.Abs(lo-want) > 1e-9 {
			t.Errorf("lower(%d, %d, %v) = %v, want %v", tc.trials, tc.trials, tc.confidence, lo, want)
		}
	}
}

func TestClopperPearsonDefinition(t *testing.T) {
	// The upper bound u is the p at which P(Binomial(N, p) <= k) = 1-confidence.
	const trials, conf = 60, 0.95
	for _, k := range []int{1, 7, 30, 59} {
		u, err := clopperPearsonUpper(k, trials, conf)
		if err != nil {
			t.Fatal(err)
		}
		cdf := distuv.Binomial{N: trials, P: u}.CDF(float64(k))
		if math.Abs(cdf-(1-conf)) > 1e-6 {
			t.Errorf("k=%d: P(Bin(%d, %v) <= k) = %v, want %v", k, trials, u, cdf, 1-conf)
		}
		l, err := clopperPearsonLower(k, trials, conf)
		if err != nil {
			t.Fatal(err)
		}
		tail := 1 - distuv.Binomial{N: trials, P: l}.CDF(float64(k-1))
		if math.Abs(tail-(1-conf)) > 1e-6 {
			t.Errorf("k=%d: P(Bin(%d, %v) >= k) = %v, want %v", k, trials, l, tail, 1-conf)
		}
	}
}

func TestClopperPearsonCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials, p, conf, reps = 40, 0.23, 0.9, 4000
	miss := 0
	for r := 0; r < reps; r++ {
		k := 0
		for i := 0; i < trials; i++ {
			if rng.Float64() < p {
				k++
			}
		}
		u, err := clopperPearsonUpper(k, trials, conf)
		if err != nil {
			t.Fatal(err)
		}
		if p > u {
			miss++
		}
	}
	// Clopper-Pearson is conservative: the miss rate is at most 1-conf (plus sampling error).
	if rate := float64(miss) / reps; rate > 1-conf+3*math.Sqrt((1-conf)*conf/reps) {
		t.Errorf("upper bound missed p in %.3f of replicates, want <= %v", rate, 1-conf)
	}
}

func TestClopperPearsonRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		k, n int
		conf float64
	}{{-1, 10, 0.9}, {11, 10, 0.9}, {0, 0, 0.9}, {1, 10, 1}, {1, 10, 0}} {
		if _, err := clopperPearsonUpper(tc.k, tc.n, tc.conf); err == nil {
			t.Errorf("ClopperPearsonUpper(%d, %d, %v): no error", tc.k, tc.n, tc.conf)
		}
	}
}

func TestGDPSeparationOfGaussianShift(t *testing.T) {
	// N(0,1) against N(mu,1): the threshold test at any c has separation exactly mu.
	for _, mu := range []float64{0.3, 1, 2.5} {
		for _, c := range []float64{-1, 0.2, 1.7} {
			alpha := 1 - distuv.UnitNormal.CDF(c)
			beta := distuv.UnitNormal.CDF(c - mu)
			if got := gdpSeparation(alpha, beta); math.Abs(got-mu) > 1e-9 {
				t.Errorf("mu=%v c=%v: separation %v", mu, c, got)
			}
		}
	}
}

func gaussianPair(rng *rand.Rand, runs int, shift float64) (x, xp []float64) {
	x = make([]float64, runs)
	xp = make([]float64, runs)
	for i := range x {
		x[i] = 3 + 2*rng.NormFloat64()
		xp[i] = 3 + 2*(rng.NormFloat64()+shift)
	}
	return x, xp
}

func TestEstimateMuOnGaussianShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, mu := range []float64{0.5, 1, 2} {
		x, xp := gaussianPair(rng, 6000, mu)
		est, err := EstimateMu(x, xp, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(est.MuHat-mu) > 0.15 {
			t.Errorf("mu=%v: mu_hat = %v", mu, est.MuHat)
		}
		if est.MuLB > mu || est.MuLB < mu-0.3 {
			t.Errorf("mu=%v: mu_lb = %v, want in [mu-0.3, mu]", mu, est.MuLB)
		}
		if !est.Above {
			t.Errorf("mu=%v: chose the test in the wrong direction", mu)
		}
		// Mirrored outputs must choose the other direction with the same bound.
		mirror, err := EstimateMu(xp, x, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if mirror.Above || math.Abs(mirror.MuLB-est.MuLB) > 0.1 {
			t.Errorf("mu=%v: mirrored audit Above=%v mu_lb=%v, original %v", mu, mirror.Above, mirror.MuLB, est.MuLB)
		}
	}
}

func TestEstimateMuLowerBoundCoverage(t *testing.T) {
	// Over many small audits of a mechanism with separation exactly 1, mu_lb must exceed 1
	// in at most about 5% of them (it is a 95% lower confidence bound).
	rng := rand.New(rand.NewPCG(5, 6))
	const reps, runs = 150, 300
	over := 0
	for r := 0; r < reps; r++ {
		x, xp := gaussianPair(rng, runs, 1)
		est, err := EstimateMu(x, xp, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if est.MuLB > 1 {
			over++
		}
	}
	if rate := float64(over) / reps; rate > 0.05+3*math.Sqrt(0.05*0.95/reps) {
		t.Errorf("mu_lb exceeded the true mu in %.3f of audits", rate)
	}
}

func TestEstimateMuSeparatesEqualAndShifted(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, xp := gaussianPair(rng, 400, 0)
	same, err := EstimateMu(x, xp, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if same.MuLB > 0.5 {
		t.Errorf("identical distributions gave mu_lb = %v", same.MuLB)
	}
	x, xp = gaussianPair(rng, 400, 2.5)
	shifted, err := EstimateMu(x, xp, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if shifted.MuLB <= 1 {
		t.Errorf("separation 2.5 at R=400 gave mu_lb = %v, want > 1", shifted.MuLB)
	}
}

func TestEstimateMuRejectsBadInput(t *testing.T) {
	if _, err := EstimateMu([]float64{1, 2}, []float64{1, 2, 3, 4}, 0.95); err == nil {
		t.Error("too few runs: no error")
	}
	if _, err := EstimateMu([]float64{1, 2, math.NaN(), 4}, []float64{1, 2, 3, 4}, 0.95); err == nil {
		t.Error("NaN statistic: no error")
	}
	if _, err := EstimateMu([]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}, 1.5); err == nil {
		t.Error("confidence 1.5: no error")
	}
}
