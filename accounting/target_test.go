package accounting

import (
	"math"
	"strings"
	"testing"
)

// Calibration rounds toward more noise: the pure epsilon for mu is mu-GDP as PureToGDP
// computes it, exactly, where PureWithinGDP's is not at mu = 1; and the next epsilon up is
// not, so nothing is given away beyond rounding.
func TestPureWithinGDPExact(t *testing.T) {
	for _, mu := range []float64{0.01, 0.5, 1, 2, 3.7, 8} {
		eps, err := PureWithinGDPExact(mu)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := PureToGDP(eps)
		if m > mu {
			t.Errorf("mu %v: epsilon %v is %v-GDP, above mu", mu, eps, m)
		}
		if raw := mustPure(t, mu); eps > raw || raw-eps > 1e-13*raw {
			t.Errorf("mu %v: epsilon %v, PureWithinGDP %v: rounded by more than a few ulps, or up", mu, eps, raw)
		}
		if up, _ := PureToGDP(math.Nextafter(eps, math.Inf(1))); up <= mu && eps != mustPure(t, mu) {
			t.Errorf("mu %v: epsilon %v stepped down past the largest that is mu-GDP", mu, eps)
		}
	}
	if eps, err := PureWithinGDPExact(math.Inf(1)); err != nil || !math.IsInf(eps, 1) {
		t.Errorf("mu = +Inf: %v, %v; want +Inf", eps, err)
	}
}

func mustPure(t *testing.T, mu float64) float64 {
	t.Helper()
	eps, err := PureWithinGDP(mu)
	if err != nil {
		t.Fatal(err)
	}
	return eps
}

// GDPWithin is the largest mu whose epsilon at delta meets the target, checked exactly, and
// the next float64 up does not meet it (or gives the same epsilon only by the 1e-12
// resolution of EpsilonForDelta's bisection).
func TestGDPWithin(t *testing.T) {
	for _, tc := range []EpsDelta{{1, 1e-5}, {3, 1e-6}, {4.38, 1e-5}, {0.1, 1e-3}, {10, 1e-9}} {
		mu, err := GDPWithin(tc)
		if err != nil {
			t.Fatal(err)
		}
		eps, _ := EpsilonForDelta(mu, tc.Delta)
		if eps > tc.Epsilon {
			t.Errorf("%+v: mu %v gives epsilon %v, above the target", tc, mu, eps)
		}
		if tc.Epsilon-eps > 1e-9*tc.Epsilon {
			t.Errorf("%+v: mu %v gives epsilon %v, far below the target: mu is not the largest", tc, mu, eps)
		}
		if GDPDelta(mu, tc.Epsilon) > tc.Delta*(1+1e-9) {
			t.Errorf("%+v: mu %v has delta %v at the target epsilon", tc, mu, GDPDelta(mu, tc.Epsilon))
		}
	}
	// mu = 1 is (4.38, 1e-5)-DP (EpsilonForDelta); the inverse gives it back.
	e1, _ := EpsilonForDelta(1, 1e-5)
	if mu, _ := GDPWithin(EpsDelta{e1, 1e-5}); math.Abs(mu-1) > 1e-9 {
		t.Errorf("GDPWithin(EpsilonForDelta(1)) = %v, want 1", mu)
	}
}

func TestEpsDeltaCheck(t *testing.T) {
	for _, tc := range []struct {
		t    EpsDelta
		want string
	}{
		{EpsDelta{0, 1e-5}, "Epsilon must be positive"},
		{EpsDelta{math.NaN(), 1e-5}, "Epsilon must be positive"},
		{EpsDelta{1, 0}, "Delta must lie in (0, 1)"},
		{EpsDelta{1, 1}, "Delta must lie in (0, 1)"},
	} {
		err := tc.t.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error containing %q", tc.t, err, tc.want)
		}
		if _, err := GDPWithin(tc.t); err == nil {
			t.Errorf("GDPWithin(%+v) accepted it", tc.t)
		}
	}
	if err := (EpsDelta{1, 1e-5}).Check(); err != nil {
		t.Error(err)
	}
}
