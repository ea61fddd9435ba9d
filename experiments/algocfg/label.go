package algocfg

import (
	"slices"
	"strconv"
	"strings"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
)

// Label is the config label of the rows of method's cells in a block labelled blockLabel
// that sweeps sweep ("" for none; value is the cell's value), whose methods' own config is
// config (nil for none) and whose settings are c: the block's label, "sweep=value" when the
// method reads the swept parameter, the config's Label when the method takes it, and, for
// DP-GIBO and GIBO, "adaptive", "defaults=NAME" and "rule=NAME" as c has them, the
// non-empty parts joined by commas. The runner labels every row with it, and a reader of
// the CSVs builds the label it looks for with it from typed values (a manifest's blocks),
// so that no label is ever parsed.
func Label(blockLabel, sweep string, value float64, method string, config baselines.Config, c Config) string {
	parts := []string{blockLabel}
	if sweep != "" && Reads(method, sweep) {
		parts = append(parts, sweep+"="+strconv.FormatFloat(value, 'g', -1, 64))
	}
	if m, ok := registry.Lookup(method); ok && config != nil && registry.Takes(m, config) {
		parts = append(parts, config.Label())
	}
	if Local(method) {
		if c.AdaptiveClip != nil {
			parts = append(parts, "adaptive")
		}
		if c.Defaults != "" {
			parts = append(parts, "defaults="+c.Defaults)
		}
		if c.Rule != "" {
			parts = append(parts, "rule="+c.Rule)
		}
	}
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), ",")
}

// Reads reports whether method reads the swept parameter param (baselines.Sweeper); a
// method that does not is run once per sweep and its cells do not record the parameter. A
// name the registry does not hold, or a method that is not a Sweeper, reads everything.
func Reads(method, param string) bool {
	m, ok := registry.Lookup(method)
	if !ok {
		return true
	}
	sw, ok := m.(baselines.Sweeper)
	return !ok || sw.Sweeps(param)
}
