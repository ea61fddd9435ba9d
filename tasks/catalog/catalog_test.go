package catalog

import (
	"slices"
	"strings"
	"testing"
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
