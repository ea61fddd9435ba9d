package score

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
