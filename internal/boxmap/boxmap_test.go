package boxmap

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/optimize"
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

// LBFGS minimises through the change of variables (a quadratic on the box [0, 4] with its
// minimum at 3) and stops with the status function's error.
func TestLBFGS(t *testing.T) {
	f := func(u, grad []float64) float64 {
		x, dxdu := Map(0, 4, u[0])
		if grad != nil {
			grad[0] = 2 * (x - 3) * dxdu
		}
		return (x - 3) * (x - 3)
	}
	res, err := LBFGS(f, nil, []float64{0}, &optimize.Settings{GradientThreshold: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := Map(0, 4, res.X[0]); math.Abs(x-3) > 1e-6 {
		t.Errorf("minimum at x = %v, want 3", x)
	}
	stop := errors.New("stop")
	calls := 0
	_, err = LBFGS(func(u, grad []float64) float64 { calls++; return f(u, grad) },
		func() (optimize.Status, error) {
			if calls > 2 {
				return optimize.Failure, stop
			}
			return optimize.NotTerminated, nil
		}, []float64{0}, nil)
	if !errors.Is(err, stop) {
		t.Errorf("status error: got %v", err)
	}
}
