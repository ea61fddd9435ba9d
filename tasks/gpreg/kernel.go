package gpreg

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"dpgibo/internal/fastexp"
)

// The kernel matrices of an evaluation use the identity
// |a/l - b/l|^2 = |a/l|^2 + |b/l|^2 - 2 <a/l, b/l>: with the inputs already scaled by
// 1/l_j, the inner products of all pairs come from one BLAS call (Dsyrk for the training
// Gram matrix, Dgemm for validation against training) and the ARD RBF kernel is
// variance * exp(-squared distance / 2).

// rowSqNorms writes the squared norm of each row of x into dst.
func rowSqNorms(dst []float64, x blas64.General) {
	for i := range dst {
		row := x.Data[i*x.Stride : i*x.Stride+x.Cols]
		s := 0.0
		for _, v := range row {
			s += v * v
		}
		dst[i] = s
	}
}

// gramUpper writes the upper triangle of variance*exp(-|x_a - x_b|^2/2) + noiseVar*[a == b]
// into dst (n x n, n rows of x); norms is scratch of length n.
func gramUpper(dst blas64.Symmetric, x blas64.General, variance, noiseVar float64, norms []float64) {
	n := x.Rows
	norms = norms[:n]
	rowSqNorms(norms, x)
	dst.Uplo = blas.Upper
	blas64.Syrk(blas.NoTrans, -2, x, 0, dst)
	forRows(n, n*n/2, func(a int) {
		row := dst.Data[a*dst.Stride : a*dst.Stride+n]
		row[a] = variance + noiseVar
		na := norms[a]
		for b := a + 1; b < n; b++ {
			row[b] = -0.5 * max(0, row[b]+na+norms[b])
		}
		fastexp.ScaledExp(row[a+1:], variance)
	})
}

// crossKernel writes variance*exp(-|a_r - b_c|^2/2) into dst (a.Rows x b.Rows); norms is
// scratch of length a.Rows + b.Rows.
func crossKernel(dst, a, b blas64.General, variance float64, norms []float64) {
	na, nb := norms[:a.Rows], norms[a.Rows:a.Rows+b.Rows]
	rowSqNorms(na, a)
	rowSqNorms(nb, b)
	blas64.Gemm(blas.NoTrans, blas.Trans, -2, a, b, 0, dst)
	forRows(a.Rows, a.Rows*b.Rows, func(r int) {
		row := dst.Data[r*dst.Stride : r*dst.Stride+b.Rows]
		nr := na[r]
		for c := range row {
			row[c] = -0.5 * max(0, row[c]+nr+nb[c])
		}
		fastexp.ScaledExp(row, variance)
	})
}

// minParallelEntries is the number of kernel entries below which forRows stays serial.
const minParallelEntries = 1 << 15

// forRows calls row(r) for r = 0..n-1. The element-wise exponentials dominate an
// evaluation once the BLAS calls are fast, so for matrices of at least minParallelEntries
// entries the rows are shared among GOMAXPROCS goroutines, worker w taking rows w, w+P,
// w+2P, ... (which also balances the triangle of the Gram matrix). Every entry is computed
// by the same expression whatever the split, so results do not depend on GOMAXPROCS.
func forRows(n, entries int, row func(r int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	if workers <= 1 || entries < minParallelEntries {
		for r := 0; r < n; r++ {
			row(r)
		}
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(first int) {
			defer wg.Done()
			for r := first; r < n; r += workers {
				row(r)
			}
		}(w)
	}
	wg.Wait()
}
