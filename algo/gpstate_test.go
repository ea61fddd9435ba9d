package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// grownState returns a state whose factor was built by block updates of uneven sizes (so
// that both L and its transpose copy went through reserve and grow), at theta = 0.
func grownState(t *testing.T, rng *rand.Rand, d int, sizes ...int) *gradState {
	t.Helper()
	st := newGradState(RBF{Lengthscale: 1, Variance: 1}, 0.01, d)
	st.setTheta(make([]float64, d))
	for _, b := range sizes {
		if err := st.grow(randMat(rng, b, d, 0.8).RawMatrix()); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// The solves must equal gonum's Dtrsm bit for bit in the pure-Go build (the design's
// results, and so every CSV, do not move), for one column and for several, and agree to
// rounding in the openblas build.
func TestSolvesMatchTrsm(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	st := grownState(t, rng, 4, 1, 7, 1, 50, 3, 1, 20)
	m := st.m
	for _, n := range []int{1, 2, 15, 64} {
		x := make([]float64, m*n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for _, tc := range []struct {
			name  string
			solve func(blas64.General)
			trans blas.Transpose
		}{{"L", st.solveL, blas.NoTrans}, {"L^T", st.solveLT, blas.Trans}} {
			got := append([]float64(nil), x...)
			want := append([]float64(nil), x...)
			tc.solve(blas64.General{Rows: m, Cols: n, Stride: n, Data: got})
			if n == 1 && !gonumOrderSolves {
				blas64.Trsm(blas.Left, tc.trans, 1, st.lower(), blas64.General{Rows: m, Cols: 1, Stride: 1, Data: want})
			} else {
				blas64.Trsm(blas.Left, tc.trans, 1, st.lower(), blas64.General{Rows: m, Cols: n, Stride: n, Data: want})
			}
			for i := range got {
				if (gonumOrderSolves && got[i] != want[i]) || math.Abs(got[i]-want[i]) > 1e-9*(1+math.Abs(want[i])) {
					t.Fatalf("solve with %s, %d columns: entry %d is %v, Dtrsm gives %v", tc.name, n, i, got[i], want[i])
				}
			}
		}
	}
	// The transposed copy holds L^T exactly.
	for i := 0; i < m; i++ {
		for k := 0; k <= i; k++ {
			if a, b := st.chol[i*st.capacity+k], st.cholT[k*st.capacity+i]; a != b {
				t.Fatalf("L[%d,%d] = %v but L^T[%d,%d] = %v", i, k, a, k, i, b)
			}
		}
	}
}
