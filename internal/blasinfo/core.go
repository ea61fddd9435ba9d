package blasinfo

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// RecordedCore is the OpenBLAS kernel set with which the committed reproduction, the
// openblas pins and the openblas quick-suite digests were computed. Any x86-64 CPU with
// AVX2 and FMA runs it (OPENBLAS_CORETYPE=Haswell).
const RecordedCore = "Haswell"

// fallbackCores are OpenBLAS's generic x86-64 kernel sets. A DYNAMIC_ARCH build of OpenBLAS
// falls back to Prescott on a CPU it does not know (a CPU newer than the library); its
// level-1 and level-2 kernels round differently at different alignments of the same data,
// so results change from one run to the next. The older generic sets share those kernels.
var fallbackCores = []string{"Prescott", "Katmai", "Coppermine", "Northwood", "Banias", "Core2", "Penryn", "Dunnington", "Atom"}

// IsFallback reports whether core (an OpenBLAS core name, as CoreType returns it) is one of
// OpenBLAS's generic x86-64 fallback kernel sets, which the project does not run on.
func IsFallback(core string) bool {
	return slices.ContainsFunc(fallbackCores, func(c string) bool { return strings.EqualFold(c, core) })
}

// PinsApply reports whether results of this build are the ones the committed bit-for-bit
// pins and digests were recorded with: the pure-Go build on amd64 (on other architectures
// the compiler fuses multiplications and additions that amd64 keeps apart, and gonum's
// kernels are Go code rather than assembly), or OpenBLAS's RecordedCore on amd64. Where
// they do not apply, why says so in one line.
func PinsApply() (ok bool, why string) {
	if runtime.GOARCH != "amd64" {
		return false, "pins are recorded on amd64; this is " + runtime.GOARCH + ", where results agree to rounding only"
	}
	if core := CoreType(); core != "" && !strings.EqualFold(core, RecordedCore) {
		return false, "pins are recorded with OpenBLAS core " + RecordedCore + "; this run uses core " + core + ", which agrees to rounding only"
	}
	return true, ""
}

// PrepareTests is called by TestMain of every package whose tests run on the build's BLAS,
// before m.Run: the tests check results bit for bit (two runs, workers, shards, resume), so
// a fallback kernel set is replaced even when OPENBLAS_CORETYPE chose it (the test binary
// re-executes itself once, see ReplaceFallbackCore), and the binary stops with one line if
// the kernels still fail SelfCheck.
func PrepareTests() {
	if err := ReplaceFallbackCore(true); err != nil {
		fmt.Fprintln(os.Stderr, "blasinfo:", err)
		os.Exit(1)
	}
	if err := SelfCheck(); err != nil {
		fmt.Fprintln(os.Stderr, "blasinfo:", err)
		os.Exit(1)
	}
	if core := Replaced(); core != "" {
		fmt.Fprintf(os.Stderr, "blasinfo: OpenBLAS's generic %s kernels replaced by %s for these tests\n", core, CoreType())
	}
}

// UsePureGo switches gonum's blas64, blas32 and lapack64 back to gonum's own Go code,
// whatever the build: for programs whose outputs must be the same bytes on every machine
// and build (the figures and verdicts from committed CSVs).
func UsePureGo() {
	blas64.Use(gonum.Implementation{})
	blas32.Use(gonum.Implementation{})
	lapack64.Use(lapackgonum.Implementation{})
}
