//go:build openblas

package algo

/*
#cgo LDFLAGS: -lopenblas -llapacke
#include <cblas.h>
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// BLASBackend names the BLAS and LAPACK implementation compiled in.
const BLASBackend = "openblas"

func init() {
	blas64.Use(blasnetlib.Implementation{})
	lapack64.Use(lapacknetlib.Implementation{})
}

// SetBLASThreads sets the number of threads OpenBLAS uses. Runners that already run one
// worker per core call SetBLASThreads(1) so that workers do not oversubscribe the cores.
func SetBLASThreads(n int) {
	if n < 1 {
		n = 1
	}
	C.openblas_set_num_threads(C.int(n))
}
