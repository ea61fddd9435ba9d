package gpreg

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"

	"dpgibo/internal/fastexp"
)

// The kernel matrices of an evaluation use the identity
// |a/l - b/l|^2 = |a/l|^2 + |b/l|^2 - 2 <a/l, b/l>: with the inputs already scaled by
// 1/l_j, the inner products of all pairs come from one matrix product (products.go) and the ARD RBF kernel is
// variance * exp(-squared distance / 2).

// expScaled overwrites each exponent x[i] (<= 0) of a row with variance*exp(x[i]).
func expScaled(x []float64, variance float64) {
	fastexp.ExpNonPositiveSlice(x)
	for i, e := range x {
		x[i] = variance * e
	}
}

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
