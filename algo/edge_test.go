package algo

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"dpgibo/accounting"
)

// Edge cases of the library's contract: each gives an error or a documented value, never a
// silent NaN or an empty run.
func TestMaxEvalsBelowTheFirstBatchIsAnError(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(1, 2)), 5, 3, 0.5)
	theta0 := []float64{0.5, 0.5, 0.5}
	for _, tc := range []struct {
		name string
		s    Settings
	}{
		{"fixed batch", Settings{Mu: 1, Iters: 3, MaxEvals: 3}},                   // batch d+1 = 4
		{"adaptive batch", Settings{Mu: 1, Iters: 3, BiasTol: 1e-9, MaxEvals: 2}}, // grows to MaxBatch 16
	} {
		res, err := Minimize(context.Background(), obj, theta0, tc.s, rand.New(rand.NewPCG(1, 1)), nil)
		if err == nil || !strings.Contains(err.Error(), "MaxEvals") {
			t.Errorf("%s: got result %+v, error %v; want an error naming MaxEvals", tc.name, res, err)
		}
		if res.Evals != 0 {
			t.Errorf("%s: %d evaluations charged before the error", tc.name, res.Evals)
		}
	}
}

func TestLedgerIsDefinedEverywhere(t *testing.T) {
	for _, mu := range []float64{1500, 1e4, 1e8} {
		l := accounting.NewLedger(mu, 20)
		if !l.Private || math.IsNaN(l.Epsilon) || l.Epsilon < mu*mu/2 {
			t.Errorf("mu = %v: ledger %+v; want a private ledger with epsilon >= mu^2/2", mu, l)
		}
		if d := accounting.GDPDelta(mu, l.Epsilon); math.Abs(d-accounting.DefaultDelta) > 1e-3*accounting.DefaultDelta && d > accounting.DefaultDelta {
			t.Errorf("mu = %v: delta(epsilon) = %v, want <= %v", mu, d, accounting.DefaultDelta)
		}
	}
	if l := accounting.NewLedger(1e200, 20); !math.IsInf(l.Epsilon, 1) {
		t.Errorf("mu = 1e200: epsilon %v, want +Inf (beyond float64)", l.Epsilon)
	}
	// A run stopped before its first release released nothing: epsilon 0.
	if l := accounting.NewLedger(0, 0); math.IsNaN(l.Epsilon) || l.Epsilon != 0 {
		t.Errorf("mu = 0: epsilon %v, want 0", l.Epsilon)
	}
}

// A ledger survives JSON: every field, CalibrationMu included, so that a reloaded ledger
// still composes to its Mu.
func TestLedgerJSONRoundTrip(t *testing.T) {
	calibrated := withCalibration(accounting.NewLedger(0.9, 10), 0.2, 6)
	for _, l := range []accounting.Ledger{accounting.NonPrivateLedger(), accounting.NewLedger(0.5, 10), newSplitLedger(0.9, 0.3, 10), calibrated} {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("%+v: %v", l, err)
		}
		if !l.Private && !strings.Contains(string(b), `"Mu":"+Inf"`) {
			t.Errorf("non-private ledger encodes as %s; want Mu spelled \"+Inf\" as in the CSVs", b)
		}
		var back accounting.Ledger
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Errorf("round trip %s: got %+v, want %+v", b, back, l)
		}
		if l.Private {
			if composed := accounting.ComposeGDP(back.GradientMu, back.CountMu, back.CalibrationMu); math.Abs(composed-back.Mu) > 1e-12 {
				t.Errorf("reloaded %s composes to %v, not its Mu %v", b, composed, back.Mu)
			}
		}
	}
	var l accounting.Ledger
	if err := json.Unmarshal([]byte(`{"Mu":"lots"}`), &l); err == nil {
		t.Error("a ledger with Mu \"lots\" decoded without error")
	}
}

func TestBadKernelIsReportedAlone(t *testing.T) {
	for _, k := range []RBF{{Lengthscale: -1, Variance: 1}, {Lengthscale: math.NaN(), Variance: 1}, {Lengthscale: math.Inf(1), Variance: 1}} {
		_, err := Settings{Mu: 1, Kernel: k}.resolved(unitFacts(2))
		if err == nil || !strings.Contains(err.Error(), "Kernel") {
			t.Errorf("kernel %+v: got %v, want an error naming Kernel", k, err)
			continue
		}
		if strings.Contains(err.Error(), "LocalRadius") {
			t.Errorf("kernel %+v: error %q also names LocalRadius, which was not set", k, err)
		}
	}
	if _, err := (Settings{Mu: 1, LocalRadius: -1}).resolved(unitFacts(2)); err == nil || !strings.Contains(err.Error(), "LocalRadius") {
		t.Errorf("LocalRadius -1: got %v, want an error naming it", err)
	}
}
