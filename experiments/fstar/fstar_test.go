package fstar

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/stat"

	"dpgibo/tasks/bowl"
	"dpgibo/tasks/catalog"
)

// TestCommittedFStarIsAttainedAtItsTheta re-evaluates every committed f* at its theta: the
// value is a loss some theta in the box attains, not a number typed in.
func TestCommittedFStarIsAttainedAtItsTheta(t *testing.T) {
	if len(committed) == 0 {
		t.Fatal("no committed f*")
	}
	for _, e := range committed {
		if testing.Short() && e.NUsers > 200 && e.Task != "grouplasso" {
			continue
		}
		spec := catalog.Spec{Name: e.Task, D: e.D, Seed: e.DataSeed, NTrain: e.NTrain, NVal: e.NUsers}
		if e.Data != "synthetic" && e.Data != "ctslice" || e.Task == "logreg" {
			spec.Data = e.Data // a table (logreg, ridge), the svr stand-in, or logreg's generator
		}
		if e.Task == "svr" {
			// Searched before the precision study, with float64 cross products (float32,
			// the default since, moves these f* by at most 5e-7 relative).
			spec.Precision = "float64"
		}
		task, err := catalog.New(spec)
		if err != nil {
			t.Fatalf("%s: %v", e.Setting, err)
		}
		if task.DataLabel() != e.Data {
			t.Logf("%s: data here is %s; skipped", e.Setting, task.DataLabel())
			continue
		}
		lo, hi := task.Bounds()
		for j, v := range e.Theta {
			if v < lo[j] || v > hi[j] {
				t.Fatalf("%s: theta[%d] = %v outside [%v, %v]", e.Setting, j, v, lo[j], hi[j])
			}
		}
		losses := make([]float64, task.Users())
		if err := task.Losses(e.Theta, losses); err != nil {
			t.Fatalf("%s: %v", e.Setting, err)
		}
		// GP regression's data depends on the BLAS in the last bits.
		if got := stat.Mean(losses, nil); math.Abs(got-e.FStar) > 1e-9*math.Abs(e.FStar) {
			t.Errorf("%s: f(theta*) = %.17g, committed f* = %.17g", e.Setting, got, e.FStar)
		}
		if e.Source == "" {
			t.Errorf("%s: no theta source", e.Setting)
		}
	}
}

// The committed table is exactly what writeTable writes of it: the file is generated, and
// writing it back (as -suite=fstar does after each setting) moves no value.
func TestCommittedTableIsWhatWriteTableWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.go")
	if err := writeTable(path, BySetting()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("table.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("table.go differs from WriteTable's output of the committed table")
	}
}

// Where the optimum is known exactly (tasks/bowl), the search found it.
func TestCommittedFStarOfTheBowlIsExact(t *testing.T) {
	found := false
	for _, e := range committed {
		if e.Task != bowl.Name {
			continue
		}
		found = true
		task, err := bowl.New(bowl.Config{D: e.D, Users: e.NUsers, Seed: e.DataSeed})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := e.FStar, task.FStar(); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: committed f* %.12g, exact %.12g", e.Setting, got, want)
		}
	}
	if !found {
		t.Error("no committed f* of the bowl")
	}
}
