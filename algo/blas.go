package algo

import (
	"fmt"
	"sync"

	"dpgibo/internal/blasinfo"
)

// The linear algebra of a run goes through gonum's blas64 and lapack64. In the default
// build that is gonum's pure Go; a program built with the build tag openblas (cgo, with
// OpenBLAS and LAPACKE installed: Debian's libopenblas-dev and liblapacke-dev) runs it on
// OpenBLAS instead, with no code of its own: importing algo makes the switch and links
// -lopenblas -llapacke. Result.BLAS names what ran.

// blasWarning is checked once per process: "" when the build's BLAS gives the same bits for
// the same data wherever the data sit in memory (blasinfo.SelfCheck), else the warning
// every Result and Forecast carries. Library code never changes the kernels itself: OpenBLAS
// reads OPENBLAS_CORETYPE only when the program starts.
var blasWarning = sync.OnceValue(checkBLAS)

// checkBLAS runs the check behind blasWarning.
func checkBLAS() string {
	if err := blasinfo.SelfCheck(); err != nil {
		why := ""
		if core := blasinfo.CoreType(); blasinfo.IsFallback(core) {
			why = fmt.Sprintf(" (OpenBLAS does not know this CPU and fell back to its generic %s kernels)", core)
		}
		return fmt.Sprintf("algo: runs with the same seed will not repeat%s: %v", why, err)
	}
	return ""
}
