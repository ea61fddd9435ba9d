package pin

import (
	"math"
	"testing"
)

func TestOfChangesWithOneBit(t *testing.T) {
	losses := []float64{0.5, 0.25, 1e-3, 2}
	a := Of(losses, [3]int{0, 2, 3})
	if a.Users != [3]float64{0.5, 1e-3, 2} {
		t.Fatalf("users %v", a.Users)
	}
	losses[1] = math.Nextafter(losses[1], 1)
	if b := Of(losses, [3]int{0, 2, 3}); b.Sum == a.Sum || b.Users != a.Users {
		t.Fatalf("one bit of an unchosen user must change the digest only: %v %v", a, b)
	}
	if got, want := (Losses{Sum: "ab", Users: [3]float64{0.5, 1, -2}}).String(), `{"ab", [3]float64{0x1p-01, 0x1p+00, -0x1p+01}}`; got != want {
		t.Fatalf("String %s, want %s", got, want)
	}
}

func TestCheckerExactNearAndRepeat(t *testing.T) {
	a := Losses{Sum: "a", Users: [3]float64{1, 2, 3}}
	close := Losses{Sum: "b", Users: [3]float64{1 + 1e-10, 2, 3}}
	far := Losses{Sum: "c", Users: [3]float64{1.1, 2, 3}}
	rec := Recorded{Go: []Losses{a}, OpenBLAS: []Losses{far}}

	exact := NewChecker(rec, false, true, 1e-8)
	if msg := exact.Check(0, a); msg != "" {
		t.Errorf("exact, same pin: %s", msg)
	}
	if msg := NewChecker(rec, false, true, 1e-8).Check(0, close); msg == "" {
		t.Error("exact: a pin with another digest passed")
	}
	near := NewChecker(rec, false, false, 1e-8)
	if msg := near.Check(0, close); msg != "" {
		t.Errorf("near, within tolerance: %s", msg)
	}
	if msg := near.Check(0, a); msg == "" {
		t.Error("near: a second, different result for the same theta passed")
	}
	if msg := NewChecker(rec, false, false, 1e-8).Check(0, far); msg == "" {
		t.Error("near: a loss 10% away passed at 1e-8")
	}
	if msg := NewChecker(rec, true, false, 1e-8).Check(0, far); msg != "" {
		t.Errorf("the openblas build compares with the OpenBLAS table: %s", msg)
	}
	if nan := (Losses{Users: [3]float64{math.NaN(), 2, 3}}); nan.Near(nan, 1) {
		t.Error("NaN losses agree with themselves")
	}
}
