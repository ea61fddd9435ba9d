package runner

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"

	"dpgibo/algo"
	"dpgibo/tasks/bowl"
)

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

func TestCheckRule(t *testing.T) {
	if err := checkRule(AlgoConfig{Defaults: DefaultsLibrary, Rule: "q75"}); err != nil {
		t.Fatal(err)
	}
	if err := checkRule(AlgoConfig{Defaults: DefaultsLibrary, Rule: "q99"}); err == nil || !strings.Contains(err.Error(), "q99") {
		t.Fatalf("unknown rule: error %v", err)
	}
	if err := checkRule(AlgoConfig{Defaults: DefaultsBefore, Rule: "q75"}); err == nil || !strings.Contains(err.Error(), DefaultsLibrary) {
		t.Fatalf("rule without library defaults: error %v", err)
	}
}

// A "library" cell with a rule runs to its end through RunCell with the method's real
// constructor (the rule sees the settings before dpgibo sets Mu).
func TestRunCellWithEveryRule(t *testing.T) {
	for name := range DefaultsRules {
		spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dpgibo", Seed: 1, Budget: 6, Mu: 1, Iters: 2, Batch: 3,
			Defaults: DefaultsLibrary, DefaultsRevision: AlgoDefaultsRevision, Rule: name}
		out, err := runCell(context.Background(), spec, newFakeTask, defaultMethodFactory, "", nil)
		if err != nil {
			t.Fatalf("rule %s: %v", name, err)
		}
		if len(out.Rows) == 0 {
			t.Fatalf("rule %s: no rows", name)
		}
	}
}

// Revision 3 of algo's defaults is the study's q75 rule on revision 2: a current "library"
// cell and a revision-2 cell with rule q75 hand dpgibo settings that resolve to the same
// values (so they compute the same thing; comparing two runs' outputs bit for bit would
// fail under BLAS kernels that do not repeat themselves), and a revision-2 cell without a
// rule calibrates to the lower quartile.
func TestRevision3IsTheQ75RuleOnRevision2(t *testing.T) {
	task, err := defaultTaskFactory(TaskSpec{Name: "bowl", D: 3, NVal: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	base := cellSpec{Suite: "test", Task: "bowl", D: 3, NVal: 200, DataSeed: 1, Method: "dpgibo", Seed: 3, Budget: 16, Mu: 1, Iters: 4, Batch: 4, Defaults: DefaultsLibrary}
	resolved := func(c cellSpec) algo.Settings {
		errStop := errors.New("captured")
		var got registry.Options
		_, err := runCell(context.Background(), c, defaultTaskFactory, func(_ string, o registry.Options) (baselines.Method, error) {
			got = o
			return nil, errStop
		}, "", nil)
		if !errors.Is(err, errStop) {
			t.Fatalf("RunCell: %v", err)
		}
		s := got.Settings
		s.Mu = got.Mu
		if s, err = s.WithDefaults(task); err != nil {
			t.Fatal(err)
		}
		return s
	}
	current, rule, rev2 := base, base, base
	current.DefaultsRevision = AlgoDefaultsRevision
	rule.DefaultsRevision, rule.Rule = Revision2, "q75"
	rev2.DefaultsRevision = Revision2
	a, b, c := resolved(current), resolved(rule), resolved(rev2)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("revision 3 %+v\nq75 on revision 2 %+v", a, b)
	}
	qa := a.Clipping.(algo.ClipCalibration).Quantile
	qc := c.Clipping.(algo.ClipCalibration).Quantile
	if qa != 0.75 || qc != 0.25 {
		t.Errorf("quantiles: revision 3 %v, revision 2 %v; want 0.75 and 0.25", qa, qc)
	}
}
