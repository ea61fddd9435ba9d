// Package artefacts gates the tests that check committed artefacts against the code that
// made them: the committed PNGs pixel for pixel, every figure in every format, the quick
// suite's digests. They take most of the test suite's time and move only when results do,
// so `go test ./...` runs them when the environment variable DPGIBO_ARTEFACTS is 1; .ci/run
// always sets it. A contributor's default run keeps a smoke test of each instead.
package artefacts

import (
	"os"
	"testing"
)

// Env is the environment variable that asks for the artefact checks ("1").
const Env = "DPGIBO_ARTEFACTS"

// Requested reports whether the artefact checks are asked for.
func Requested() bool { return os.Getenv(Env) == "1" }

// Check skips t unless the artefact checks are asked for.
func Check(t testing.TB) {
	t.Helper()
	if !Requested() {
		t.Skipf("an artefact check: runs with %s=1 (.ci/run sets it)", Env)
	}
}
