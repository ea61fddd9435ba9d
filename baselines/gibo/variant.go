package gibo

import (
	"strconv"
	"strings"

	"dpgibo/algo"
	"dpgibo/baselines"
)

// Variant is DP-GIBO's own config (a baselines.Config): the rules that act on its
// privatised gradients after their release (post-processing, no privacy spent), set over
// the settings a suite pins. A zero field leaves the setting as it is.
type Variant struct {
	// Shrink is algo.Settings.Shrink.
	Shrink algo.Shrink `json:"shrink,omitempty"`
	// Release and FallbackSNR are algo.Settings.Release and FallbackSNR.
	Release     algo.Release `json:"release,omitempty"`
	FallbackSNR float64      `json:"fallback_snr,omitempty"`
}

// Label names the variant in a row's config label: "shrink=signal", "release=fallback",
// "fallback_snr=0.3", joined by commas, in that order.
func (v Variant) Label() string {
	var parts []string
	if v.Shrink != algo.ShrinkDefault {
		parts = append(parts, "shrink="+v.Shrink.String())
	}
	if v.Release != algo.ReleaseDefault {
		parts = append(parts, "release="+v.Release.String())
	}
	if v.FallbackSNR != 0 {
		parts = append(parts, "fallback_snr="+strconv.FormatFloat(v.FallbackSNR, 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

// Apply returns s with the variant's non-zero fields set.
func (v Variant) Apply(s algo.Settings) algo.Settings {
	if v.Shrink != algo.ShrinkDefault {
		s.Shrink = v.Shrink
	}
	if v.Release != algo.ReleaseDefault {
		s.Release = v.Release
	}
	if v.FallbackSNR != 0 {
		s.FallbackSNR = v.FallbackSNR
	}
	return s
}

// ConfigType implements baselines.Configurable: DP-GIBO takes a Variant.
func (DPGIBO) ConfigType() baselines.Config { return Variant{} }
