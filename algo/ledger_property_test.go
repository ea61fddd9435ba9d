package algo

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"dpgibo/accounting"
)

// Every configuration's ledger adds up: the parts' Mu^2 sum to Mu^2 (to 1e-12), a complete
// run reports exactly the Mu it was given (not its parts' composition, whose last bit depends
// on the split and on fused multiply-add), their releases to Releases and to the releases a run actually drew (T gradients, T clip counts
// with adaptive clipping, the calibration's noisy counts), every part is mu-GDP, Epsilon is
// the GDP formula's at Delta, and the ledger survives JSON. Runs stopped early by the
// callback compose only what they released.
func TestLedgerAddsUp(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(4, 4)), 40, 2, 0.3)
	const iters = 5
	for _, c := range []struct {
		name string
		s    Settings
	}{
		{"fixed clip", Settings{Clipping: FixedClip(1)}},
		{"calibrated", Settings{}},
		{"calibrated, 3 queries", Settings{Clipping: ClipCalibration{Queries: 3}}},
		{"adaptive", Settings{Clipping: AdaptiveClip{Start: 1}}},
		{"adaptive and calibrated", Settings{Clipping: AdaptiveClip{Calibration: &ClipCalibration{}}}},
	} {
		for _, mu := range []float64{0.2, 0.7, 1, 3} {
			for _, stopAt := range []int{0, 2} {
				s := c.s
				s.Mu, s.Iters, s.Step = mu, iters, 0.5
				stop := errors.New("stop")
				var cb Callback
				if stopAt > 0 {
					cb = func(it Iteration) error {
						if it.Iter == stopAt {
							return stop
						}
						return nil
					}
				}
				res, err := Minimize(context.Background(), obj, []float64{-1, 1}, s, rand.New(rand.NewPCG(5, 5)), cb)
				if err != nil && !errors.Is(err, stop) {
					t.Fatalf("%s, mu %v: %v", c.name, mu, err)
				}
				l := res.Ledger
				sumSq, releases := 0.0, 0
				for _, p := range l.Parts {
					if p.Accounting != accounting.GDP || !(p.Mu > 0) {
						t.Errorf("%s, mu %v: part %+v", c.name, mu, p)
					}
					sumSq += p.Mu * p.Mu
					releases += p.Releases
				}
				if math.Abs(sumSq-l.Mu*l.Mu) > 1e-12*l.Mu*l.Mu || releases != l.Releases {
					t.Errorf("%s, mu %v: parts %+v compose to %v^2 over %d releases; ledger Mu %v over %d", c.name, mu, l.Parts, math.Sqrt(sumSq), releases, l.Mu, l.Releases)
				}
				done := res.Iters
				drawn := done + len(calibrationCounts(res))
				if isAdaptive(s) {
					drawn += done
				}
				if l.Releases != drawn {
					t.Errorf("%s, mu %v, %d iterations: %d releases in the ledger, %d drawn", c.name, mu, done, l.Releases, drawn)
				}
				if done == iters && l.Mu != mu {
					t.Errorf("%s: a complete run reports Mu %v, was given %v", c.name, l.Mu, mu)
				}
				if done < iters && !(l.Mu < mu) {
					t.Errorf("%s: a run stopped after %d of %d iterations composes to %v, not below %v", c.name, done, iters, l.Mu, mu)
				}
				if eps, _ := accounting.EpsilonForDelta(l.Mu, l.Delta); eps != l.Epsilon {
					t.Errorf("%s, mu %v: Epsilon %v, the GDP formula gives %v", c.name, mu, l.Epsilon, eps)
				}
				b, err := json.Marshal(l)
				if err != nil {
					t.Fatal(err)
				}
				var back accounting.Ledger
				if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, l) {
					t.Errorf("%s, mu %v: JSON round trip %s gives %+v, %v", c.name, mu, b, back, err)
				}
			}
		}
	}
}

// calibrationCounts are the counts ClipCalibration released in res (nil without it).
func calibrationCounts(res Result) []float64 {
	if res.Calibration == nil {
		return nil
	}
	return res.Calibration.Counts
}

// isAdaptive reports whether s's clipping rule is AdaptiveClip.
func isAdaptive(s Settings) bool {
	_, ok := s.Clipping.(AdaptiveClip)
	return ok
}

// A pure-DP ledger reports its epsilon at delta 0 and the tight mu-GDP it implies, and
// round-trips through JSON part and all.
func TestPureLedger(t *testing.T) {
	l, err := accounting.NewPureLedger("selection", 0.807)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Private || l.Epsilon != 0.807 || l.Delta != 0 || math.Abs(l.Mu-1) > 1e-3 || l.Releases != 1 {
		t.Fatalf("ledger %+v", l)
	}
	p := l.Parts[0]
	if len(l.Parts) != 1 || p.Accounting != accounting.PureDP || p.Epsilon != 0.807 || p.Mu != l.Mu || p.Name != "selection" {
		t.Fatalf("parts %+v", l.Parts)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back accounting.Ledger
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, l) {
		t.Fatalf("round trip %s: %+v, %v", b, back, err)
	}
	if _, err := accounting.NewPureLedger("selection", math.NaN()); err == nil {
		t.Fatal("NaN epsilon accepted")
	}
}
