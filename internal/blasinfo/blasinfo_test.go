package blasinfo

import (
	"strings"
	"testing"
)

func TestSelfCheckPassesAndCatchesAlignmentDependence(t *testing.T) {
	if err := SelfCheck(); err != nil {
		t.Fatalf("backend %s: %v", Backend(), err)
	}
	for _, call := range []string{"ddot", "dgemv", "dgemm", "dpotrf"} {
		SelfCheckHook = func(name string, offset int, result []float64) {
			if name == call && offset == 5 {
				result[len(result)-1] *= 1 + 1e-15
			}
		}
		err := SelfCheck()
		SelfCheckHook = nil
		if err == nil || !strings.Contains(err.Error(), call+" gives different bits") || !strings.Contains(err.Error(), "offset 40 bytes") || !strings.Contains(err.Error(), Backend()) {
			t.Errorf("%s differing at one alignment: %v", call, err)
		}
	}
}

func TestFallbackCores(t *testing.T) {
	for core, want := range map[string]bool{"Prescott": true, "PRESCOTT": true, "Core2": true, "Haswell": false, "SkylakeX": false, "Cooperlake": false, "Zen": false, "": false} {
		if got := IsFallback(core); got != want {
			t.Errorf("IsFallback(%q) = %v", core, got)
		}
	}
}
