package svr

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scalarOnly runs f with the solver's vector paths switched off: the loops as written in
// selectUp, selectLow and updateResid, the reference of TestSMOVectorPathsBitIdentical.
func scalarOnly(f func()) {
	saved := vectorSMO
	vectorSMO = false
	defer func() { vectorSMO = saved }()
	f()
}

// TestSMOVectorPathsBitIdentical checks selectUp, selectLow and updateResid (vector paths
// in a GOEXPERIMENT=simd build on AVX-512) against their scalar loops, on random solver
// states rich in ties: values drawn from a few levels (so that equal maxima, equal gains
// and signed zeros occur), alphas at 0, at C and between, every length around the vector
// width.
func TestSMOVectorPathsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	var s smo
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(70)
		if trial%100 == 0 {
			n = 1000 + rng.IntN(9)
		}
		C := []float64{1, 3, 0.5}[trial%3]
		eps := []float64{0, 0.1, 0.25}[rng.IntN(3)]
		if trial%7 == 1 {
			eps = 0
		}
		levels := 1 + rng.IntN(6)
		resid, alpha, alphaStar, diag, ki, kj := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for k := range resid {
			resid[k] = float64(rng.IntN(2*levels+1)-levels) * 0.125
			if rng.IntN(20) == 0 {
				resid[k] = math.Copysign(0, -1)
			}
			if trial%7 == 1 {
				resid[k] = []float64{0, math.Copysign(0, -1), 0.5}[rng.IntN(3)] // signed zeros at the minimum
			}
			if trial%2 == 0 && rng.IntN(3) == 0 {
				resid[k] = rng.NormFloat64() // else only lattice values: ties at the extremes
			}
			pick := func() float64 {
				switch rng.IntN(3) {
				case 0:
					return 0
				case 1:
					return C
				}
				return rng.Float64() * C
			}
			alpha[k], alphaStar[k] = pick(), pick()
			diag[k] = 1
			ki[k], kj[k] = float64(rng.IntN(5))*0.25, rng.Float64()
			if rng.IntN(10) == 0 {
				ki[k] = 1 // eta = 0: tau
			}
		}
		up, low, iUp, iStar := selectUp(resid, alpha, alphaStar, C, eps)
		var wUp, wLow float64
		var wI int
		var wStar bool
		scalarOnly(func() { wUp, wLow, wI, wStar = selectUp(resid, alpha, alphaStar, C, eps) })
		if !same(up, wUp) || !same(low, wLow) || iUp != wI || iStar != wStar {
			t.Fatalf("trial %d (n=%d): selectUp = %v %v %d %v, want %v %v %d %v", trial, n, up, low, iUp, iStar, wUp, wLow, wI, wStar)
		}
		if iUp < 0 {
			continue
		}
		s.resize(n)
		b, eta, j, jStar := s.selectLow(resid, alpha, alphaStar, diag, ki, diag[iUp], up, C, eps)
		var wb, weta float64
		var wj int
		var wjStar bool
		scalarOnly(func() { wb, weta, wj, wjStar = s.selectLow(resid, alpha, alphaStar, diag, ki, diag[iUp], up, C, eps) })
		if !same(b, wb) || !same(eta, weta) || j != wj || jStar != wjStar {
			t.Fatalf("trial %d (n=%d): selectLow = %v %v %d %v, want %v %v %d %v", trial, n, b, eta, j, jStar, wb, weta, wj, wjStar)
		}
		got, want := append([]float64(nil), resid...), append([]float64(nil), resid...)
		delta := rng.Float64()
		updateResid(got, ki, kj, delta)
		scalarOnly(func() { updateResid(want, ki, kj, delta) })
		for m := range got {
			if !same(got[m], want[m]) {
				t.Fatalf("trial %d: updateResid[%d] = %v, want %v", trial, m, got[m], want[m])
			}
		}
	}
	t.Logf("vector paths: %v", vectorSMO)
}
