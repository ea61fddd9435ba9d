//go:build openblas

package blasinfo

/*
#cgo LDFLAGS: -lopenblas -llapacke
#include <cblas.h>
*/
import "C"

import (
	"strings"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// Backend names the BLAS and LAPACK implementation compiled in:
// "openblas VERSION core=CORE", where CORE is the kernel set OpenBLAS picked for this CPU
// (it changes the last bits of results; OPENBLAS_CORETYPE=CORE forces it).
func Backend() string {
	version := ""
	if f := strings.Fields(Config()); len(f) > 1 && f[0] == "OpenBLAS" {
		version = " " + f[1]
	}
	return "openblas" + version + " core=" + CoreType()
}

// Config is OpenBLAS's build description (openblas_get_config), e.g.
// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64".
func Config() string { return strings.TrimSpace(C.GoString(C.openblas_get_config())) }

// CoreType is the CPU kernel set OpenBLAS selected at start-up
// (openblas_get_corename), which the environment variable OPENBLAS_CORETYPE forces.
func CoreType() string { return strings.TrimSpace(C.GoString(C.openblas_get_corename())) }

func init() {
	blas64.Use(blasnetlib.Implementation{})
	blas32.Use(blasnetlib.Implementation{})
	lapack64.Use(lapacknetlib.Implementation{})
}

// SetThreads sets the number of threads OpenBLAS uses. Runners that already run one
// worker per core call SetThreads(1) so that workers do not oversubscribe the cores.
func SetThreads(n int) {
	if n < 1 {
		n = 1
	}
	C.openblas_set_num_threads(C.int(n))
}
