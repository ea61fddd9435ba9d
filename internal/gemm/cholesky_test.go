package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
)

// spd returns an n x n symmetric positive definite matrix (stride lda) with condition
// number of order n.
func spd(rng *rand.Rand, n, lda int) []float64 {
	g := randMatrix(rng, n, n, 0)
	a := make([]float64, (n-1)*lda+n)
	var w Workspace
	c := Matrix{Rows: n, Cols: n, Stride: lda, Data: a}
	w.MulNT(1.0/float64(n), g, g, c, Full)
	for i := 0; i < n; i++ {
		a[i*lda+i] += 1
	}
	return a
}

// CholeskyUpper agrees with gonum's Dpotrf to rounding, reproduces A as U^T U, leaves the
// strict lower triangle alone and rejects an indefinite matrix.
func TestCholeskyUpper(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 5, 64, 65, 200, 333} {
		lda := n + 3
		a := spd(rng, n, lda)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				a[i*lda+j] = math.NaN() // never read
			}
		}
		ref := append([]float64(nil), a...)
		orig := append([]float64(nil), a...)
		var w Workspace
		if !w.CholeskyUpper(n, a, lda) {
			t.Fatalf("n=%d: positive definite matrix rejected", n)
		}
		if !(lapackgonum.Implementation{}).Dpotrf(blas.Upper, n, ref, lda) {
			t.Fatal("gonum rejected the matrix")
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j < i {
					if !math.IsNaN(a[i*lda+j]) {
						t.Fatalf("n=%d: lower entry (%d, %d) written", n, i, j)
					}
					continue
				}
				if d := math.Abs(a[i*lda+j] - ref[i*lda+j]); d > 1e-12*math.Max(1, math.Abs(ref[i*lda+j])) {
					t.Fatalf("n=%d: U[%d][%d] = %v, gonum %v", n, i, j, a[i*lda+j], ref[i*lda+j])
				}
				if j >= i { // (U^T U)_ij
					s := 0.0
					for l := 0; l <= i; l++ {
						s += a[l*lda+i] * a[l*lda+j]
					}
					if d := math.Abs(s - orig[i*lda+j]); d > 1e-12*float64(n) {
						t.Fatalf("n=%d: (U^T U)[%d][%d] = %v, A = %v", n, i, j, s, orig[i*lda+j])
					}
				}
			}
		}
	}
	n := 150
	a := spd(rng, n, n)
	a[100*n+100] = -5
	var w Workspace
	if w.CholeskyUpper(n, a, n) {
		t.Error("indefinite matrix accepted")
	}
}

// BenchmarkCholeskyUpper factorises the 1000 x 1000 matrix size of GP regression's
// training kernel matrix, against gonum's Dpotrf.
func BenchmarkCholeskyUpper(b *testing.B) {
	const n = 1000
	src := spd(rand.New(rand.NewPCG(1, 1)), n, n)
	a := make([]float64, len(src))
	var w Workspace
	b.Run("gemm", func(b *testing.B) {
		for b.Loop() {
			copy(a, src)
			w.CholeskyUpper(n, a, n)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		for b.Loop() {
			copy(a, src)
			(lapackgonum.Implementation{}).Dpotrf(blas.Upper, n, a, n)
		}
	})
}
