package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/experiments/fstar"
	"dpgibo/internal/records"
)

// TestFStarIsBelowEveryQuickLoss checks fstar.csv of the quick reference run: one row per
// data setting, and no loss of any run below its setting's f*.
func TestFStarIsBelowEveryQuickLoss(t *testing.T) {
	dir := reference(t)
	stars, err := records.ReadFile[records.FStar](filepath.Join(dir, "fstar.csv"))
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[[5]string]records.FStar{}
	for _, s := range stars {
		k := fstarRowKey(s.Task, s.Data, s.D, s.NUsers, s.NTrain)
		if _, dup := byKey[k]; dup {
			t.Errorf("fstar.csv repeats %v", k)
		}
		byKey[k] = s
	}
	figs, _ := suiteFigures(SuiteQuick, "")
	checked := 0
	for _, f := range figs {
		if f.Theta {
			continue
		}
		rows, err := records.ReadFile[records.Row](filepath.Join(dir, f.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			s, ok := byKey[fstarRowKey(r.Task, r.Data, r.D, r.NUsers, r.NTrain)]
			if !ok {
				t.Fatalf("%s: no f* for %s on %s d = %d, %d users, n_train = %d", f.Name, r.Task, r.Data, r.D, r.NUsers, r.NTrain)
			}
			if r.Loss < s.FStar {
				t.Errorf("%s: %s seed %d iteration %d has loss %.17g below f* = %.17g", f.Name, r.Method, r.Seed, r.Iter, r.Loss, s.FStar)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no rows checked")
	}
}

// TestFStarIsBelowShortRunsAtPaperSettings runs GIBO and random search briefly at the
// paper's group LASSO settings and checks their losses against the committed f*.
func TestFStarIsBelowShortRunsAtPaperSettings(t *testing.T) {
	figs, err := suiteFigures(SuitePaper, "fig1")
	if err != nil {
		t.Fatal(err)
	}
	b := figs[0].Blocks[0]
	b.Algo.Iters = 5
	for _, d := range b.Dims {
		for _, m := range []string{"gibo", "random"} {
			for seed := 1; seed <= 2; seed++ {
				spec, _ := cellFor(SuitePaper, b, d, 0, m, seed, "")
				out, err := runCell(context.Background(), spec, defaultTaskFactory, defaultMethodFactory, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				r := out.rows[0]
				e, ok := fstar.BySetting()[fstar.Setting{Task: r.Task, Data: r.Data, D: r.D, NUsers: r.NUsers, NTrain: r.NTrain, DataSeed: spec.DataSeed}]
				if !ok {
					t.Fatalf("no committed f* for group LASSO d = %d", d)
				}
				for _, r := range out.rows {
					if r.Loss < e.FStar {
						t.Errorf("d = %d, %s seed %d: loss %.17g below f* %.17g", d, m, seed, r.Loss, e.FStar)
					}
				}
			}
		}
	}
}

// TestFStarFileLeavesOutUnknownSettingsAndKeepsOthers writes fstar.csv for a plan with a
// setting that has no committed f*: it is left out with one warning, and rows of an earlier
// fstar.csv for settings the run did not touch are kept.
func TestFStarFileLeavesOutUnknownSettingsAndKeepsOthers(t *testing.T) {
	out := t.TempDir()
	figs := []figureSpec{{Name: "odd", Blocks: []blockSpec{{Task: "grouplasso", Dims: []int{2, 3}, NTrain: 30, NVal: 41, DataSeed: 1,
		Methods: []string{"random"}, Seeds: 1, Algo: algoConfig{Iters: 2}}}}}
	// d = 2 with 41 users has no committed f*; an earlier file holds another setting.
	earlier := []records.FStar{{Task: "gpreg", Data: "synthetic", D: 7, NUsers: 9, NTrain: 9, FStar: 0.5, ThetaSource: "earlier run"}}
	data, err := records.Marshal(earlier)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "fstar.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	o := runOptions{Suite: SuiteQuick, Out: out, Workers: 1, Quiet: true, Stderr: &warn}
	p, err := makePlan(SuiteQuick, figs, "")
	if err != nil {
		t.Fatal(err)
	}
	r := &cellRunner{Out: o.Out, Workers: 1, NewTask: defaultTaskFactory, NewMethod: defaultMethodFactory, Warnings: &warn}
	todo, err := r.Todo(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Execute(context.Background(), p, todo); err != nil {
		t.Fatal(err)
	}
	if err := r.Merge(p); err != nil {
		t.Fatal(err)
	}
	got, err := records.ReadFile[records.FStar](filepath.Join(out, "fstar.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != earlier[0] {
		t.Errorf("fstar.csv = %+v, want only the earlier run's row", got)
	}
	if n := strings.Count(warn.String(), "no committed f*"); n != 1 || !strings.Contains(warn.String(), "2 setting(s)") {
		t.Errorf("warnings: %q", warn.String())
	}
}
