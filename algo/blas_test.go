package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"dpgibo/internal/blasinfo"
)

// With the build tag openblas the tests run on OpenBLAS, as the runner does, on a kernel set
// whose results repeat (blasinfo.PrepareTests).
func TestMain(m *testing.M) {
	blasinfo.PrepareTests()
	os.Exit(m.Run())
}

// Result names the BLAS that ran, and kernels whose results depend on where the data sit
// in memory are reported in every Result's warnings.
func TestResultNamesBLASAndWarnsOfUnrepeatableKernels(t *testing.T) {
	res, err := Minimize(context.Background(), linearUsers{slopes: []float64{0.5, 1, 2, 3}, d: 1}, []float64{0},
		Settings{Mu: 2, Iters: 2, Batch: 1, Clipping: FixedClip(1)}, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.BLAS != blasinfo.Backend() || res.BLAS == "" {
		t.Errorf("Result.BLAS %q, want %q", res.BLAS, blasinfo.Backend())
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "will not repeat") {
			t.Errorf("a warning of unrepeatable kernels on %s: %s", res.BLAS, w)
		}
	}
	blasinfo.SelfCheckHook = func(call string, offset int, result []float64) {
		if call == "dgemv" && offset == 1 {
			result[0] = math.Nextafter(result[0], 1)
		}
	}
	defer func() { blasinfo.SelfCheckHook = nil }()
	if w := checkBLAS(); !strings.Contains(w, "will not repeat") || !strings.Contains(w, "dgemv") || !strings.Contains(w, blasinfo.Backend()) {
		t.Errorf("alignment-dependent dgemv: warning %q", w)
	}
}
