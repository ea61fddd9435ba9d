//go:build openblas

package blasinfo

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	blasnetlib "gonum.org/v1/netlib/blas/netlib"
	lapacknetlib "gonum.org/v1/netlib/lapack/netlib"
)

// childEnv makes the test binary act as a program that calls ReplaceFallbackCore: "runner"
// as the project's commands do (force false), "tests" as test binaries do (force true).
const childEnv = "BLASINFO_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		err := ReplaceFallbackCore(mode == "tests")
		fmt.Printf("core=%s replaced=%s selfcheck-ok=%v err=%v\n", CoreType(), Replaced(), SelfCheck() == nil, err)
		os.Exit(0)
	}
	PrepareTests()
	os.Exit(m.Run())
}

func child(t *testing.T, mode string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, childEnv+"="+mode)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", mode, env, err, out)
	}
	return strings.TrimSpace(string(out))
}

// OpenBLAS's generic Prescott kernels fail the self-check; a test binary replaces them by
// re-executing itself, a command keeps the core a user chose (and its self-check stops it).
func TestFallbackCoreReplacedOnce(t *testing.T) {
	target := replacementCore()
	if target == "" {
		t.Skip("no replacement kernel set off amd64")
	}
	if got, want := child(t, "tests", "OPENBLAS_CORETYPE=Prescott", replacedEnv+"="), fmt.Sprintf("core=%s replaced=Prescott selfcheck-ok=true err=<nil>", target); got != want {
		t.Errorf("test binary on Prescott: %q, want %q", got, want)
	}
	if got, want := child(t, "runner", "OPENBLAS_CORETYPE=Prescott", replacedEnv+"="), "core=Prescott replaced= selfcheck-ok=false err=<nil>"; got != want {
		t.Errorf("command with OPENBLAS_CORETYPE=Prescott chosen: %q, want %q", got, want)
	}
	if got, want := child(t, "tests", "OPENBLAS_CORETYPE=Haswell", replacedEnv+"="), "core=Haswell replaced= selfcheck-ok=true err=<nil>"; got != want {
		t.Errorf("test binary on Haswell: %q, want %q", got, want)
	}
}

func TestUsePureGoSwitchesBack(t *testing.T) {
	if _, ok := blas64.Implementation().(blasnetlib.Implementation); !ok {
		t.Fatalf("the openblas build runs blas64 on %T", blas64.Implementation())
	}
	UsePureGo()
	defer func() {
		blas64.Use(blasnetlib.Implementation{})
		lapack64.Use(lapacknetlib.Implementation{})
	}()
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Errorf("after UsePureGo blas64 runs on %T", blas64.Implementation())
	}
}
