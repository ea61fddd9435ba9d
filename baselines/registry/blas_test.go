// goptuna v0.9.0's TPE draws from math/rand's process-wide source; goptuna-tpe re-seeds it,
// which needs this setting (see goptuna.TPE).

//go:debug randseednop=0

package registry_test

import (
	"os"
	"testing"

	"dpgibo/internal/blasinfo"
)

// With the build tag openblas the tests run on OpenBLAS, as the runner does, on a kernel set
// whose results repeat (blasinfo.PrepareTests).
func TestMain(m *testing.M) {
	blasinfo.PrepareTests()
	os.Exit(m.Run())
}
