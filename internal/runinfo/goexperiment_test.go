package runinfo

import (
	"slices"
	"strings"
	"testing"
)

// The manifest's go_experiment is what the binary was built with: "simd" is in it exactly
// when the goexperiment.simd build tag was set (builtWithSIMD, from a file per tag).
func TestGoExperimentRecorded(t *testing.T) {
	got := GoExperiment()
	if has := slices.Contains(strings.Split(got, ","), "simd"); has != builtWithSIMD {
		t.Errorf("GoExperiment() = %q; the build tag goexperiment.simd is %v", got, builtWithSIMD)
	}
}
