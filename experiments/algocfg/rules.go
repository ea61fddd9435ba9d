package algocfg

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"dpgibo/algo"
	"dpgibo/tasks"
)

// DefaultsRule is a candidate of the defaults study: it changes some of algo's defaults in
// the settings of a "library" cell (every other field left to algo), reading only public
// facts of the task (its box, dimension, users and loss bound), never its losses.
type DefaultsRule func(s algo.Settings, task tasks.Task) (algo.Settings, error)

// DefaultsRules are the defaults study's candidate rules, declared in docs/library.md
// before the study ran. A cell with Config.Rule names one of them.
var DefaultsRules = map[string]DefaultsRule{
	// shrink: revision 2 with every step shortened by the signal share of its privatised
	// gradient (algo.SignalShrink).
	"shrink": func(s algo.Settings, _ tasks.Task) (algo.Settings, error) {
		s.Shrink = algo.SignalShrink
		return s, nil
	},
	// q75: revision 2 with B calibrated to the upper quartile of the first gradient norms.
	"q75": func(s algo.Settings, _ tasks.Task) (algo.Settings, error) {
		s.Clipping = algo.ClipCalibration{Quantile: 0.75}
		return s, nil
	},
	// shrink-step2: shrink with twice revision 2's step, 2 W/sqrt(T) (W the box's median
	// side, as algo.BoxWidth).
	"shrink-step2": func(s algo.Settings, task tasks.Task) (algo.Settings, error) {
		if s.Iters < 1 {
			return s, fmt.Errorf("needs Iters >= 1, got %d", s.Iters)
		}
		s.Shrink = algo.SignalShrink
		s.Step = 2 * algo.BoxWidth(task.Bounds()) / math.Sqrt(float64(s.Iters))
		return s, nil
	},
}

// checkRule validates Config.Rule: a known rule, with Defaults "library".
func (c Config) checkRule() error {
	if c.Rule == "" {
		return nil
	}
	if _, ok := DefaultsRules[c.Rule]; !ok {
		return fmt.Errorf("unknown defaults rule %q (known: %s)", c.Rule, strings.Join(slices.Sorted(maps.Keys(DefaultsRules)), ", "))
	}
	if c.Defaults != DefaultsLibrary {
		return fmt.Errorf("defaults rule %q needs Defaults %q, got %q", c.Rule, DefaultsLibrary, c.Defaults)
	}
	return nil
}
