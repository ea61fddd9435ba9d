package svr

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// TestScaleRowsBitIdentical checks scaleRows, which handles four rows side by side, against
// its one-row-at-a-time definition bit for bit, on row counts that leave every remainder
// and with a row stride wider than the row.
func TestScaleRowsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	const p, stride = 13, 17
	for _, rows := range []int{0, 1, 3, 4, 5, 6, 7, 8, 11} {
		x := blas64.General{Rows: rows, Cols: p, Stride: stride, Data: make([]float64, rows*stride)}
		for i := range x.Data {
			x.Data[i] = rng.NormFloat64() * 3
		}
		inv := make([]float64, p)
		for j := range inv {
			inv[j] = 1 / (0.1 + rng.Float64())
		}
		dst, norms := make([]float64, rows*p), make([]float64, rows)
		scaleRows(dst, norms, x, inv)
		for i := 0; i < rows; i++ {
			s := 0.0
			for j := 0; j < p; j++ {
				u := x.Data[i*stride+j] * inv[j]
				if dst[i*p+j] != u {
					t.Fatalf("rows=%d: u[%d][%d] = %v, want %v", rows, i, j, dst[i*p+j], u)
				}
				s += u * u
			}
			if math.Float64bits(norms[i]) != math.Float64bits(s) {
				t.Fatalf("rows=%d: norm %d = %v, want %v", rows, i, norms[i], s)
			}
		}
	}
}

// TestSumKernelRowsBitIdentical checks sumKernelRows, which sums four rows side by side,
// against b + sum_k coef_k K_rk taken one row at a time, on row counts that leave every
// remainder.
func TestSumKernelRowsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 10))
	const nSV = 37
	s := &SVR{nSV: nSV, coef: make([]float64, nSV), bias: 0.3}
	for k := range s.coef {
		s.coef[k] = rng.NormFloat64()
	}
	for _, rows := range []int{0, 1, 2, 3, 4, 5, 9, 10} {
		K := make([]float64, rows*nSV)
		for i := range K {
			K[i] = rng.Float64()
		}
		dst := make([]float64, rows)
		s.sumKernelRows(dst, K)
		for r := range dst {
			f := s.bias
			for k, c := range s.coef {
				f += c * K[r*nSV+k]
			}
			if math.Float64bits(dst[r]) != math.Float64bits(f) {
				t.Fatalf("rows=%d: row %d sums to %v, want %v", rows, r, dst[r], f)
			}
		}
	}
}
