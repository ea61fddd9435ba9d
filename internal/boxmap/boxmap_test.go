package boxmap

import (
	"math"
	"testing"
)

// Map and Unmap are inverse inside the box, Unmap is finite on its faces, and dx/du is the
// derivative of Map.
func TestMapUnmap(t *testing.T) {
	lo, width := -2.0, 5.0
	for _, x := range []float64{-1.9, 0, 1.5, 2.9} {
		u := Unmap(lo, width, x, 1e-9)
		got, _ := Map(lo, width, u)
		if math.Abs(got-x) > 1e-12 {
			t.Errorf("Map(Unmap(%v)) = %v", x, got)
		}
	}
	for _, face := range []float64{lo, lo + width} {
		u := Unmap(lo, width, face, 1e-6)
		if math.IsInf(u, 0) || math.IsNaN(u) || math.Abs(u) > 14 {
			t.Errorf("Unmap at face %v = %v, want finite, |u| <= log(1e6)", face, u)
		}
	}
	if Unmap(1, 0, 1, 1e-9) != 0 {
		t.Error("a side of width 0 must map to u = 0")
	}
	u, h := 0.3, 1e-6
	x1, d := Map(lo, width, u)
	x2, _ := Map(lo, width, u+h)
	if fd := (x2 - x1) / h; math.Abs(fd-d) > 1e-5 {
		t.Errorf("dx/du = %v, finite difference %v", d, fd)
	}
}
