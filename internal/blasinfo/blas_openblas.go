//go:build openblas

package blasinfo

/*
#cgo LDFLAGS: -lopenblas -llapacke
#include <cblas.h>
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// replacedEnv is the environment variable through which a re-executed process learns which
// core it replaced (ReplaceFallbackCore); it also stops a second re-execution.
const replacedEnv = "DPGIBO_OPENBLAS_REPLACED"

// replacementCore is the kernel set the project's binaries use instead of a fallback one:
// RecordedCore where the CPU has AVX2 and FMA, else Sandybridge (AVX) or Nehalem, whose
// kernels give the same bits at every alignment as well.
func replacementCore() string {
	switch {
	case runtime.GOARCH != "amd64":
		return ""
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return RecordedCore
	case cpu.X86.HasAVX:
		return "Sandybridge"
	default:
		return "Nehalem"
	}
}

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

// ReplaceFallbackCore re-executes the calling program once with OPENBLAS_CORETYPE set to
// replacementCore when OpenBLAS picked a generic fallback kernel set (IsFallback; OpenBLAS
// reads the variable only when it loads, so a running process cannot change its kernels).
// It does not return when it re-executes. A core the user chose with OPENBLAS_CORETYPE is
// kept unless force is true (test binaries, whose checks need repeatable results, pass
// true). Only the project's own programs call it: library code never re-executes its host.
// After the re-execution Replaced names the core that was replaced.
func ReplaceFallbackCore(force bool) error {
	core := CoreType()
	if !IsFallback(core) || os.Getenv(replacedEnv) != "" {
		return nil
	}
	if _, set := os.LookupEnv("OPENBLAS_CORETYPE"); set && !force {
		return nil
	}
	target := replacementCore()
	if target == "" {
		return nil
	}
	exe, err := os.Executable()
	if err == nil {
		env := append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
			return strings.HasPrefix(kv, "OPENBLAS_CORETYPE=") || strings.HasPrefix(kv, replacedEnv+"=")
		}), "OPENBLAS_CORETYPE="+target, replacedEnv+"="+core)
		err = syscall.Exec(exe, os.Args, env) // returns only on failure
	}
	return fmt.Errorf("OpenBLAS picked its generic %s kernels, which are not repeatable; re-executing with OPENBLAS_CORETYPE=%s: %w", core, target, err)
}

// Replaced is the fallback core that ReplaceFallbackCore replaced in this process ("" if
// none).
func Replaced() string {
	if os.Getenv(replacedEnv) == "" || os.Getenv("OPENBLAS_CORETYPE") == "" {
		return ""
	}
	return os.Getenv(replacedEnv)
}

func selfCheckFix() string {
	if target := replacementCore(); target != "" {
		return "run with OPENBLAS_CORETYPE=" + target + ", or without OpenBLAS (DPGIBO_BLAS=go ./run_all.sh, or a build without -tags openblas)"
	}
	return "set OPENBLAS_CORETYPE to another kernel set this CPU runs, or run without OpenBLAS (DPGIBO_BLAS=go ./run_all.sh, or a build without -tags openblas)"
}
