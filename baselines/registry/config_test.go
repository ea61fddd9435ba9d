package registry_test

import (
	"math"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines/gibo"
	"dpgibo/baselines/registry"
)

// A method's own config reaches the method that takes its type, and any other method
// refuses it.
func TestConfigReachesTheMethodThatTakesIt(t *testing.T) {
	v := gibo.Variant{Shrink: algo.SignalShrink, Release: algo.ReleaseFallback, FallbackSNR: 0.3}
	m, err := registry.New("dpgibo", registry.Options{Mu: 1, Config: v})
	if err != nil {
		t.Fatal(err)
	}
	s := m.(gibo.DPGIBO).Settings
	if s.Shrink != algo.SignalShrink || s.Release != algo.ReleaseFallback || s.FallbackSNR != 0.3 {
		t.Errorf("dpgibo's settings with %+v: shrink %v, release %v, fallback SNR %v", v, s.Shrink, s.Release, s.FallbackSNR)
	}
	if got := v.Label(); got != "shrink=signal,release=fallback,fallback_snr=0.3" {
		t.Errorf("label %q", got)
	}
	for _, name := range []string{"random", "dp-rnm", "gibo"} {
		if _, err := registry.New(name, registry.Options{Mu: math.Inf(1), Config: v}); err == nil || !strings.Contains(err.Error(), "takes no config") {
			t.Errorf("%s with a DP-GIBO variant: %v", name, err)
		}
	}
}
