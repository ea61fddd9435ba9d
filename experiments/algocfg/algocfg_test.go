package algocfg

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/gibo"
	"dpgibo/tasks/bowl"
	"dpgibo/tasks/catalog"
)

// A spec hands algo the pinned values of its defaults explicitly, and its own design
// options where it has them.
func TestSettingsPinAlgoDefaults(t *testing.T) {
	task, err := bowl.New(bowl.Config{D: 2, Users: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	spec := Config{Iters: 2, Batch: 3, Clip: 1, Step: 0.5, Lengthscale: 1, AdaptiveClip: &AdaptiveClip{}}.Spec(2, nil)
	s, err := spec.Settings(task, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := algo.AdaptiveClip{Quantile: 0.5, Rate: 0.2, CountShare: 0.1, Start: 1}
	if s.DesignStarts != 3 || s.DesignEvals != 60 || s.DesignRefine != algo.RefineJoint || s.MaxKept >= 0 || s.PriorMean != algo.PriorUserMean ||
		s.StepRule != algo.AdaGrad || s.Shrink != algo.NoShrink || s.Release != algo.ReleaseLast || s.Kernel.Variance != 1 || s.MaxBatch != 12 ||
		s.Clipping != want || s.LocalRadius != 2 || !s.NonPrivateDiagnostics {
		t.Errorf("settings of a cell at the pinned values: %+v (clipping %+v)", s, s.Clipping)
	}
	spec.Design = &Design{Starts: 2, Evals: 40, GreedyOnly: true, MaxKept: 9}
	spec.PriorMean = priorZero
	spec.AdaptiveClip = &AdaptiveClip{Rate: 0.5}
	if s, err = spec.Settings(task, 1); err != nil {
		t.Fatal(err)
	}
	want.Rate = 0.5
	if s.DesignStarts != 2 || s.DesignEvals != 40 || s.DesignRefine != algo.RefineNone || s.MaxKept != 9 || s.PriorMean != algo.PriorZero || s.Clipping != want {
		t.Errorf("settings of a cell with its own design: %+v (clipping %+v)", s, s.Clipping)
	}
}

// The encoding leaves the pinned values out, fills b and the cap from d, keeps the theta
// coordinates inside the box's dimension and labels what the rows need to tell apart.
func TestSpecEncodesOnlyWhatDiffersFromThePins(t *testing.T) {
	c := Config{Iters: 4, BiasTol: 0.1, Clip: 1, Step: 0.5, Lengthscale: 1, PriorMean: pinnedPriorMean,
		Design: &Design{Starts: 3, Evals: 60}, AdaptiveClip: &AdaptiveClip{Quantile: 0.5, Rate: 0.3}}
	s := c.Spec(3, []int{0, -1, 7})
	if s.Design != nil || s.PriorMean != "" || *s.AdaptiveClip != (AdaptiveClip{Rate: 0.3}) || s.MaxBatch != 16 || s.Batch != 0 ||
		s.Budget() != 64 || !reflect.DeepEqual(s.ThetaCoords, []int{0, 2}) || !s.Diagnostics {
		t.Errorf("spec %+v", s)
	}
	lib := Config{Iters: 4, Defaults: DefaultsLibrary, Rule: "q75"}.Spec(3, nil)
	if lib.Batch != 4 || lib.Budget() != 16 || lib.DefaultsRevision != DefaultsRevision {
		t.Errorf("library spec %+v", lib)
	}
	// A library cell pins the step rule and the release every revision so far used, so that
	// a revision that changes algo's defaults for them moves no earlier cell.
	task, err := bowl.New(bowl.Config{D: 3, Users: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	set, err := lib.Settings(task, 1)
	if err != nil || set.Shrink != algo.NoShrink || set.Release != algo.ReleaseLast {
		t.Errorf("library settings: shrink %v, release %v, %v", set.Shrink, set.Release, err)
	}
}

// A block that would leave a scale setting or an unknown design value to algo is rejected
// before any cell runs.
func TestCheckLeavesNothingToAlgoDefaults(t *testing.T) {
	base := Config{Iters: 2, Clip: 1, Mu: 1, Step: 0.3, Lengthscale: 1}
	dpgibo := []string{"dpgibo"}
	if err := base.Check(dpgibo, ""); err != nil {
		t.Fatalf("valid settings: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Step = 0 }, "Step and Lengthscale"},
		{func(c *Config) { c.Lengthscale = 0 }, "Step and Lengthscale"},
		{func(c *Config) { c.Clip = 0 }, "Clip set or swept"},
		{func(c *Config) { c.PriorMean = "mean" }, "unknown prior mean"},
		{func(c *Config) { c.PriorMean, c.Standardise = priorZero, true }, "standardising needs"},
		{func(c *Config) { c.Design = &Design{Starts: -1} }, "design options"},
		{func(c *Config) { c.AdaptiveClip = &AdaptiveClip{Rate: -1} }, "adaptive clipping"},
		{func(c *Config) { c.Defaults = "mine" }, "unknown defaults"},
		{func(c *Config) { c.Defaults, c.Rule = DefaultsLibrary, "q99" }, "q99"},
		{func(c *Config) { c.Defaults, c.Rule = DefaultsBefore, "q75" }, DefaultsLibrary},
		{func(c *Config) { c.DefaultsRevision = Revision2 }, "needs Defaults"},
		{func(c *Config) { c.Defaults, c.DefaultsRevision = DefaultsLibrary, 1 }, "unknown defaults revision"},
	} {
		c := base
		tc.edit(&c)
		if err := c.Check(dpgibo, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("settings %+v: %v, want an error containing %q", c, err, tc.want)
		}
	}
	c := base
	c.Clip = 0
	if err := c.Check(dpgibo, "clip"); err != nil {
		t.Errorf("swept clip: %v", err)
	}
	c = base
	c.Step = 0
	if err := c.Check([]string{"random"}, ""); err != nil {
		t.Errorf("random search needs no Step: %v", err)
	}
	if err := (Config{Iters: 2, Defaults: DefaultsLibrary, Rule: "q75"}).Check(dpgibo, ""); err != nil {
		t.Errorf("library defaults with a rule: %v", err)
	}
}

// The "before" variant pins revision 1's defaults, as algo computed them: on ridge (W = 10,
// S = 9, d = 6, T = 20) l = 10/6, B = 9/(4 l), Step = 10/(2 sqrt 20), no calibration.
func TestDefaultsBeforeSettings(t *testing.T) {
	task, err := catalog.New(catalog.Spec{Name: "ridge", D: 6, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	spec := Config{Iters: 20, Mu: 1, Defaults: DefaultsBefore}.Spec(6, nil)
	s, err := spec.Settings(task, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := 10.0 / 6
	if s.Kernel.Lengthscale != l || s.LocalRadius != 2*l || s.Clipping != algo.FixedClip(0.25*9/l) || s.Step != 10/(2*math.Sqrt(20)) ||
		s.Batch != 7 || s.StepRule != algo.AdaGrad {
		t.Errorf("before settings %+v", s)
	}
	s.Mu = 1
	resolved, err := s.WithDefaults(task)
	if err != nil {
		t.Fatal(err)
	}
	if resolved.Clipping != s.Clipping || resolved.Step != s.Step {
		t.Errorf("algo's defaults changed the pinned before settings: %+v", resolved)
	}
}

// Every candidate rule builds settings that algo accepts for a private run, changes what it
// says and nothing else of revision 2's resolved settings.
func TestDefaultsRules(t *testing.T) {
	task, err := bowl.New(bowl.Config{D: 3, Users: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	base := algo.Settings{Iters: 16, NonPrivateDiagnostics: true}
	rev2, err := withMu(base).WithDefaults(task)
	if err != nil {
		t.Fatal(err)
	}
	for name, rule := range DefaultsRules {
		s, err := rule(base, task)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := withMu(s).WithDefaults(task)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := rev2
		switch name {
		case "shrink":
			want.Shrink = algo.SignalShrink
		case "shrink-step2":
			want.Shrink, want.Step = algo.SignalShrink, 2*rev2.Step
			if math.Abs(want.Step-2*1/math.Sqrt(16)) > 1e-15 {
				t.Fatalf("revision 2's step %v on the unit box at T = 16, want 0.25", rev2.Step)
			}
		case "q75":
			c := rev2.Clipping.(algo.ClipCalibration)
			c.Quantile = 0.75
			want.Clipping = c
		default:
			t.Fatalf("rule %s has no expectation in this test", name)
		}
		if !settingsEqual(got, want) {
			t.Errorf("%s: settings %+v, want %+v", name, got, want)
		}
	}
}

func withMu(s algo.Settings) algo.Settings { s.Mu = 1; return s }

func settingsEqual(a, b algo.Settings) bool {
	ca, cb := a.Clipping, b.Clipping
	a.Clipping, b.Clipping = nil, nil
	return ca == cb && a.Shrink == b.Shrink && a.Step == b.Step && a.Kernel == b.Kernel && a.Batch == b.Batch && a.LocalRadius == b.LocalRadius
}

// Revision 3 of algo's defaults is the study's q75 rule on revision 2: a current "library"
// spec and a revision-2 spec with rule q75 give settings that resolve to the same values,
// and a revision-2 spec without a rule calibrates to the lower quartile.
func TestRevision3IsTheQ75RuleOnRevision2(t *testing.T) {
	task, err := catalog.New(catalog.Spec{Name: "bowl", D: 3, NVal: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	resolved := func(c Config) algo.Settings {
		spec := c.Spec(3, nil)
		s, err := spec.Settings(task, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = withMu(s).WithDefaults(task); err != nil {
			t.Fatal(err)
		}
		return s
	}
	lib := Config{Iters: 4, Mu: 1, Defaults: DefaultsLibrary}
	rule, rev2 := lib, lib
	rule.DefaultsRevision, rule.Rule = Revision2, "q75"
	rev2.DefaultsRevision = Revision2
	a, b, c := resolved(lib), resolved(rule), resolved(rev2)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("revision 3 %+v\nq75 on revision 2 %+v", a, b)
	}
	qa := a.Clipping.(algo.ClipCalibration).Quantile
	qc := c.Clipping.(algo.ClipCalibration).Quantile
	if qa != 0.75 || qc != 0.25 {
		t.Errorf("quantiles: revision 3 %v, revision 2 %v; want 0.75 and 0.25", qa, qc)
	}
}

// A label names what its cells differ in, in the runner's order, from typed values: the
// block's label, the swept value where the method reads it, the method's own config where
// it takes one, and DP-GIBO's settings; a method that reads neither gets the block's label
// alone.
func TestLabel(t *testing.T) {
	lib := Config{Defaults: DefaultsLibrary, Rule: "q75", AdaptiveClip: &AdaptiveClip{}}
	v := gibo.Variant{Release: algo.ReleaseFallback, FallbackSNR: 0.2}
	for _, tc := range []struct {
		block, sweep, method string
		config               baselines.Config
		want                 string
	}{
		{"", "mu", "dpgibo", nil, "mu=0.5,adaptive,defaults=library,rule=q75"},
		{"currency=gdp", "mu", "dpgibo", v, "currency=gdp,mu=0.5,release=fallback,fallback_snr=0.2,adaptive,defaults=library,rule=q75"},
		{"currency=gdp", "mu", "dp-rnm", v, "currency=gdp,mu=0.5"},
		{"step=0.5", "mu", "random", nil, "step=0.5"},
		{"", "", "gibo", nil, "adaptive,defaults=library,rule=q75"},
	} {
		if got := Label(tc.block, tc.sweep, 0.5, tc.method, tc.config, lib); got != tc.want {
			t.Errorf("Label(%q, %q, 0.5, %s, %v) = %q, want %q", tc.block, tc.sweep, tc.method, tc.config, got, tc.want)
		}
	}
}
