package selection

import (
	"math"
	"testing"
)

func TestSelectionNoiseStd(t *testing.T) {
	// sqrt(m) Lmax/(n mu): the L2 sensitivity of m clipped means over mu.
	if got, want := SelectionNoiseStd(6.9, 89, 2, 0.5), math.Sqrt2*6.9/(89*0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("SelectionNoiseStd(6.9, 89, 2, 0.5) = %v, want %v", got, want)
	}
	if got := SelectionNoiseStd(3, 50, 11, 2); math.Abs(got-math.Sqrt(11)*3/100) > 1e-15 {
		t.Errorf("SelectionNoiseStd(3, 50, 11, 2) = %v, want %v", got, math.Sqrt(11)*3/100)
	}
	if got := SelectionNoiseStd(3, 50, 11, math.Inf(1)); got != 0 {
		t.Errorf("no noise at mu = +Inf, got %v", got)
	}
}
