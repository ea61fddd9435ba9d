package catalog

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"dpgibo/tasks"
)

func TestNewKnownTasks(t *testing.T) {
	for _, tc := range []struct {
		spec        Spec
		dim, users  int
		trainRows   int
		featureCols int
	}{
		{Spec{Name: "grouplasso", D: 3, Seed: 1}, 3, 150, 50, 15},
		{Spec{Name: "grouplasso", D: 2, Seed: 1, NTrain: 30, NVal: 20}, 2, 20, 30, 10},
		{Spec{Name: "gpreg", D: 2, Seed: 1, NTrain: 40, NVal: 30}, 2, 30, 40, 2},
		{Spec{Name: "svr", D: 13, Seed: 1, NTrain: 40, NVal: 30}, 13, 30, 40, 10},
		{Spec{Name: "logreg", Seed: 1}, 30, 284, 285, 30},
		{Spec{Name: "logreg", D: 13, Seed: 1, Data: "wine"}, 13, 89, 89, 13},
		{Spec{Name: "logreg", D: 16, Seed: 1, Data: "digits", NTrain: 300, NVal: 200}, 16, 200, 300, 64},
		{Spec{Name: "logreg", Seed: 1, Data: "anes96"}, 9, 472, 472, 9},
		{Spec{Name: "ridge", Seed: 1, Data: "randhie"}, 9, 2000, 1000, 9},
		{Spec{Name: "ridge", D: 9, Seed: 1, Data: "randhie", NTrain: 100, NVal: 50}, 9, 50, 100, 9},
	} {
		task, err := New(tc.spec)
		if err != nil {
			t.Fatalf("%+v: %v", tc.spec, err)
		}
		train, _ := task.Data()
		rows, cols := train.X.Dims()
		if task.Name() != tc.spec.Name || task.Dim() != tc.dim || task.Users() != tc.users || rows != tc.trainRows || cols != tc.featureCols {
			t.Errorf("%+v: name %s dim %d users %d train %dx%d", tc.spec, task.Name(), task.Dim(), task.Users(), rows, cols)
		}
	}
}

func TestUnknownTaskListsKnown(t *testing.T) {
	_, err := New(Spec{Name: "lasso"})
	if err == nil {
		t.Fatal("unknown task accepted")
	}
	for _, name := range Names() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %q", err, name)
		}
	}
	if !strings.Contains(err.Error(), `"lasso"`) {
		t.Errorf("error %q does not name the unknown task", err)
	}
}

func TestNames(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) || !slices.Contains(names, "grouplasso") || !slices.Contains(names, "gpreg") || !slices.Contains(names, "svr") {
		t.Fatalf("Names() = %v", names)
	}
}

func TestTaskErrorsWrapped(t *testing.T) {
	for _, spec := range []Spec{{Name: "gpreg", D: -1}, {Name: "grouplasso", D: -1}, {Name: "svr", D: 3}} {
		_, err := New(spec)
		if err == nil || !strings.Contains(err.Error(), spec.Name) {
			t.Errorf("%+v: error %v", spec, err)
		}
	}
}

func TestDimensionLimitsAreCheckedUpFront(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    int
		max  int // 0: only check that some limit is reported
	}{
		{"grouplasso", 100000, 0},
		{"gpreg", 5000, 1120},
		{"svr", 1000, 387},
		{"logreg", 31, 30},
	} {
		_, err := New(Spec{Name: tc.name, D: tc.d, Seed: 1})
		var le *tasks.LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s at d = %d: got %v, want a tasks.LimitError", tc.name, tc.d, err)
			continue
		}
		if le.D != tc.d || le.MaxD < 1 || le.MaxD >= tc.d || (tc.max > 0 && le.MaxD != tc.max) {
			t.Errorf("%s at d = %d: limit %+v", tc.name, tc.d, le)
		}
		// The message is in the user's terms: d, never a Config field the user cannot set.
		for _, field := range []string{"TrueScale", "GroupSize", "P must"} {
			if strings.Contains(err.Error(), field) {
				t.Errorf("%s: message %q names %s", tc.name, err, field)
			}
		}
		// The largest supported d builds.
		if tc.name != "grouplasso" && tc.name != "svr" {
			if _, err := New(Spec{Name: tc.name, D: le.MaxD, Seed: 1, NTrain: 20, NVal: 20}); err != nil {
				t.Errorf("%s at its largest d = %d: %v", tc.name, le.MaxD, err)
			}
		}
	}
}

func TestDataSelection(t *testing.T) {
	for _, tc := range []struct {
		spec  Spec
		label string // "" when New must fail
	}{
		{Spec{Name: "svr", D: 8, Seed: 1, NTrain: 40, NVal: 30, Data: "ctslice-sample"}, "ctslice-sample"},
		{Spec{Name: "svr", D: 8, Seed: 1, NTrain: 40, NVal: 30, Data: "ctslice-synthetic"}, "ctslice-synthetic"},
		{Spec{Name: "svr", D: 8, Seed: 1, NTrain: 40, NVal: 30, Data: "imagenet"}, ""},
		{Spec{Name: "grouplasso", D: 2, Seed: 1, Data: "ctslice-sample"}, ""},
		{Spec{Name: "gpreg", D: 2, Seed: 1, NTrain: 20, NVal: 20, Data: "synthetic"}, ""},
		{Spec{Name: "logreg", Seed: 1}, "breast-cancer"},
		{Spec{Name: "logreg", Seed: 1, Data: "breast-cancer"}, "breast-cancer"},
		{Spec{Name: "logreg", Seed: 1, Data: "wine"}, "wine"},
		{Spec{Name: "logreg", Seed: 1, Data: "digits", NTrain: 100, NVal: 100}, "digits"},
		{Spec{Name: "logreg", Seed: 1, Data: "titanic"}, ""},
		{Spec{Name: "logreg", Seed: 1, Data: "iris"}, "iris"},
		{Spec{Name: "logreg", Seed: 1, Data: "macrodata"}, "macrodata"},
		{Spec{Name: "logreg", Seed: 1, Data: "synthetic"}, "synthetic"},
		{Spec{Name: "ridge", Seed: 1, Data: "grunfeld"}, "grunfeld"},
		{Spec{Name: "ridge", Seed: 1, Data: "engel"}, "engel"},
		{Spec{Name: "logreg", Seed: 1, Data: "anes96"}, "anes96"},
		{Spec{Name: "logreg", Seed: 1, Data: "randhie"}, ""},
		{Spec{Name: "ridge", Seed: 1}, "synthetic"},
		{Spec{Name: "ridge", Seed: 1, Data: "randhie"}, "randhie"},
		{Spec{Name: "ridge", Seed: 1, Data: "anes96"}, ""},
		{Spec{Name: "ridge", Seed: 1, Data: "synthetic"}, ""},
		{Spec{Name: "bowl", Seed: 1, Data: "randhie"}, ""},
	} {
		task, err := New(tc.spec)
		switch {
		case tc.label == "" && err == nil:
			t.Errorf("%+v: accepted", tc.spec)
		case tc.label == "" && !strings.Contains(err.Error(), tc.spec.Data):
			t.Errorf("%+v: error %q does not name the data %q", tc.spec, err, tc.spec.Data)
		case tc.label != "" && err != nil:
			t.Errorf("%+v: %v", tc.spec, err)
		case tc.label != "" && task.DataLabel() != tc.label:
			t.Errorf("%+v: data label %q, want %q", tc.spec, task.DataLabel(), tc.label)
		}
	}
}

// Every task has its per-evaluation cost, positive and growing with the data it reads.
func TestEveryTaskHasAnEvaluationCost(t *testing.T) {
	for _, name := range Names() {
		small, err := EvalSeconds(Spec{Name: name, D: 5, NTrain: 100, NVal: 100})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		large, _ := EvalSeconds(Spec{Name: name, D: 5, NTrain: 400, NVal: 400})
		def, _ := EvalSeconds(Spec{Name: name})
		if !(small > 0) || !(large > small) || !(def > 0) {
			t.Errorf("%s: %g s at 100 rows, %g s at 400, %g s at the defaults", name, small, large, def)
		}
	}
	if _, err := EvalSeconds(Spec{Name: "lasso"}); err == nil || !strings.Contains(err.Error(), "gpreg") {
		t.Errorf("unknown task: %v, want an error listing the known tasks", err)
	}
}

// Every task has its static metadata, and Info.MaxD is the limit New enforces, known
// without building the task.
func TestInfoOfEveryTask(t *testing.T) {
	for _, name := range Names() {
		info, ok := Lookup(name)
		if !ok || info.Name != name || info.Title == "" || info.LossLabel == "" || info.Coord == nil || info.MaxD == nil || info.MinD < 1 {
			t.Errorf("%s: incomplete metadata %+v", name, info)
			continue
		}
		if _, err := EvalSeconds(Spec{Name: name}); err != nil {
			t.Errorf("%s: no cost: %v", name, err)
		}
		spec := Spec{Name: name, Seed: 1}
		maxD := info.MaxD(spec)
		spec.D = maxD + 1
		_, err := New(spec)
		var le *tasks.LimitError
		if !errors.As(err, &le) || le.MaxD != maxD {
			t.Errorf("%s at d = MaxD+1 = %d: got %v, want a tasks.LimitError with MaxD %d", name, spec.D, err, maxD)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup of an unknown task reports ok")
	}
	info, _ := Lookup("svr")
	if got := info.Coord(103, 101); got != "log C" || info.TitleFor("ctslice") != "Kernel SVR on ctslice" {
		t.Errorf("svr: coordinate 101 of 103 is %q, title %q", got, info.TitleFor("ctslice"))
	}
}

// logreg's d is fixed by its table: a larger d is a LimitError with that table's d, a
// smaller one an error, and the info's MaxD follows the table.
func TestLogRegDimensionPerTable(t *testing.T) {
	info, _ := Lookup("logreg")
	for _, tc := range []struct {
		data string
		d    int
	}{{"", 30}, {"breast-cancer", 30}, {"wine", 13}, {"digits", 16}, {"anes96", 9}, {"modechoice", 6}, {"iris", 4}, {"macrodata", 11}} {
		if got := info.MaxD(Spec{Name: "logreg", Data: tc.data}); got != tc.d || info.MinD > got {
			t.Errorf("data %q: MaxD %d, MinD %d, want MaxD %d", tc.data, got, info.MinD, tc.d)
		}
		_, err := New(Spec{Name: "logreg", Data: tc.data, D: tc.d + 1, NTrain: 50, NVal: 50})
		var le *tasks.LimitError
		if !errors.As(err, &le) || le.MaxD != tc.d || le.D != tc.d+1 {
			t.Errorf("data %q at d = %d: %v, want a tasks.LimitError with MaxD %d", tc.data, tc.d+1, err, tc.d)
		}
		if _, err := New(Spec{Name: "logreg", Data: tc.data, D: tc.d - 1, NTrain: 50, NVal: 50}); err == nil {
			t.Errorf("data %q at d = %d: accepted", tc.data, tc.d-1)
		}
		if _, err := New(Spec{Name: "logreg", Data: tc.data, D: tc.d, NTrain: 50, NVal: 50}); err != nil {
			t.Errorf("data %q at d = %d: %v", tc.data, tc.d, err)
		}
	}
	// MinD is the synthetic problem's 1, the smallest d of any of logreg's data.
	if info.MinD != 1 || info.TitleFor("wine") != "Logistic regression on wine" || info.TitleFor("anes96") != "Logistic regression on ANES 1996" ||
		info.TitleFor("iris") != "Logistic regression on iris" || info.TitleFor("macrodata") != "Logistic regression on US macroeconomic data" {
		t.Errorf("MinD %d, titles %q, %q, %q, %q", info.MinD, info.TitleFor("wine"), info.TitleFor("anes96"), info.TitleFor("iris"), info.TitleFor("macrodata"))
	}
	_, err := New(Spec{Name: "logreg", Data: "titanic"})
	for _, label := range []string{"titanic", "breast-cancer", "wine", "digits", "anes96", "modechoice", "iris", "macrodata", "synthetic"} {
		if err == nil || !strings.Contains(err.Error(), `"`+label+`"`) {
			t.Errorf("unknown data: error %v does not name %q", err, label)
		}
	}
}

// logreg's cost follows the table's rows and coefficients: digits (65 coefficients, 899
// training rows) costs most, wine least.
func TestLogRegCostPerTable(t *testing.T) {
	cost := func(data string) float64 {
		c, err := EvalSeconds(Spec{Name: "logreg", Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	bc, wine, digits, anes := cost(""), cost("wine"), cost("digits"), cost("anes96")
	if !(wine < bc && bc < digits) || bc != cost("breast-cancer") || !(digits > 10*bc) || !(wine < anes && anes < bc) {
		t.Errorf("cost of breast-cancer %g s, wine %g s, digits %g s, anes96 %g s", bc, wine, digits, anes)
	}
}

// ridge on randhie: d is 9, a larger d is a LimitError and a smaller one an error; its
// title names the table, the synthetic problem's does not change; its cost grows with the
// validation users and is the measured 18 microseconds at the defaults.
func TestRidgeOnRANDHIE(t *testing.T) {
	info, _ := Lookup("ridge")
	if got := info.MaxD(Spec{Name: "ridge", Data: "randhie"}); got != 9 || info.MaxD(Spec{Name: "ridge"}) != 1000 {
		t.Errorf("MaxD %d on randhie, %d on the synthetic problem", got, info.MaxD(Spec{Name: "ridge"}))
	}
	if info.TitleFor("randhie") != "Ridge regression on RAND HIE" || info.TitleFor("synthetic") != "Group ridge regression" {
		t.Errorf("titles %q and %q", info.TitleFor("randhie"), info.TitleFor("synthetic"))
	}
	_, err := New(Spec{Name: "ridge", Data: "randhie", D: 10, NTrain: 50, NVal: 50})
	var le *tasks.LimitError
	if !errors.As(err, &le) || le.MaxD != 9 || le.D != 10 {
		t.Errorf("d = 10 on randhie: %v, want a tasks.LimitError with MaxD 9", err)
	}
	if _, err := New(Spec{Name: "ridge", Data: "randhie", D: 6}); err == nil || !strings.Contains(err.Error(), "d = 6") {
		t.Errorf("d = 6 on randhie: %v", err)
	}
	if _, err := New(Spec{Name: "ridge", Data: "randhie", Precision: "float32"}); err == nil || !strings.Contains(err.Error(), "precision") {
		t.Errorf("a precision on ridge: %v", err)
	}
	_, err = New(Spec{Name: "ridge", Data: "iris"})
	for _, label := range []string{"iris", "", "randhie"} {
		if err == nil || !strings.Contains(err.Error(), `"`+label+`"`) {
			t.Errorf("unknown data: error %v does not name %q", err, label)
		}
	}
	def, _ := EvalSeconds(Spec{Name: "ridge", Data: "randhie"})
	small, _ := EvalSeconds(Spec{Name: "ridge", Data: "randhie", NVal: 100})
	if !(def > 17e-6 && def < 19e-6) || !(small < def) {
		t.Errorf("cost on randhie %g s at the defaults, %g s at 100 users", def, small)
	}
}

// logreg's synthetic problem takes any d from 1 to 100 (default 10): MaxD is 100, a larger
// d is a LimitError, every d in range builds with that many penalties, and the cost grows
// with d.
func TestLogRegSynthetic(t *testing.T) {
	info, _ := Lookup("logreg")
	if got := info.MaxD(Spec{Name: "logreg", Data: "synthetic"}); got != 100 {
		t.Errorf("MaxD %d on the synthetic problem, want 100", got)
	}
	_, err := New(Spec{Name: "logreg", Data: "synthetic", D: 101})
	var le *tasks.LimitError
	if !errors.As(err, &le) || le.MaxD != 100 || le.D != 101 || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("d = 101: %v, want a tasks.LimitError with MaxD 100", err)
	}
	if _, err := New(Spec{Name: "logreg", Data: "synthetic", D: -1}); err == nil {
		t.Error("d = -1 accepted")
	}
	for _, tc := range []struct{ d, want int }{{0, 10}, {1, 1}, {37, 37}, {100, 100}} {
		task, err := New(Spec{Name: "logreg", Data: "synthetic", D: tc.d, Seed: 1, NTrain: 30, NVal: 20})
		if err != nil {
			t.Fatalf("d = %d: %v", tc.d, err)
		}
		if task.Dim() != tc.want || task.Users() != 20 || task.DataLabel() != "synthetic" {
			t.Errorf("d = %d: Dim %d, users %d, label %q", tc.d, task.Dim(), task.Users(), task.DataLabel())
		}
	}
	small, _ := EvalSeconds(Spec{Name: "logreg", Data: "synthetic", D: 5})
	def, _ := EvalSeconds(Spec{Name: "logreg", Data: "synthetic"})
	ten, _ := EvalSeconds(Spec{Name: "logreg", Data: "synthetic", D: 10})
	large, _ := EvalSeconds(Spec{Name: "logreg", Data: "synthetic", D: 100})
	if !(small < def && def == ten && def < large) {
		t.Errorf("cost at d = 5, default, 10, 100: %g, %g, %g, %g s", small, def, ten, large)
	}
}

// ridge on grunfeld and engel: d is the table's (4 and 6), a larger d is a LimitError and a
// smaller one an error; the titles name the tables, and the cost follows the table's
// features and users.
func TestRidgeOnNewTables(t *testing.T) {
	info, _ := Lookup("ridge")
	for _, tc := range []struct {
		data, title string
		d           int
	}{
		{"grunfeld", "Ridge regression on Grunfeld investment", 4},
		{"engel", "Ridge regression on Engel food expenditure", 6},
	} {
		if got := info.MaxD(Spec{Name: "ridge", Data: tc.data}); got != tc.d || info.TitleFor(tc.data) != tc.title {
			t.Errorf("%s: MaxD %d, title %q", tc.data, got, info.TitleFor(tc.data))
		}
		_, err := New(Spec{Name: "ridge", Data: tc.data, D: tc.d + 1})
		var le *tasks.LimitError
		if !errors.As(err, &le) || le.MaxD != tc.d || le.D != tc.d+1 {
			t.Errorf("%s at d = %d: %v, want a tasks.LimitError with MaxD %d", tc.data, tc.d+1, err, tc.d)
		}
		if _, err := New(Spec{Name: "ridge", Data: tc.data, D: tc.d - 1}); err == nil || !strings.Contains(err.Error(), "not supported") {
			t.Errorf("%s at d = %d: %v", tc.data, tc.d-1, err)
		}
		task, err := New(Spec{Name: "ridge", Data: tc.data, D: tc.d, Seed: 1})
		if err != nil || task.Dim() != tc.d {
			t.Errorf("%s at d = %d: %v", tc.data, tc.d, err)
		}
	}
	randhie, _ := EvalSeconds(Spec{Name: "ridge", Data: "randhie"})
	grunfeld, _ := EvalSeconds(Spec{Name: "ridge", Data: "grunfeld"})
	engel, _ := EvalSeconds(Spec{Name: "ridge", Data: "engel"})
	if !(engel < grunfeld && grunfeld < randhie) || grunfeld != evalRidgeTableFixed+evalRidgeTableUser*110*14 {
		t.Errorf("cost on randhie %g s, grunfeld %g s, engel %g s", randhie, grunfeld, engel)
	}
	_, err := New(Spec{Name: "ridge", Data: "iris"})
	for _, label := range []string{"iris", "randhie", "grunfeld", "engel"} {
		if err == nil || !strings.Contains(err.Error(), `"`+label+`"`) {
			t.Errorf("unknown data: error %v does not name %q", err, label)
		}
	}
}
