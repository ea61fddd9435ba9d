package runner_test

import (
	"context"
	"path/filepath"
	"testing"

	"dpgibo/baselines/registry"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/tasks/catalog"

	"dpgibo/experiments/fstar"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
)

// TestFStarIsBelowEveryQuickLoss checks fstar.csv of the quick reference run: one row per
// data setting, and no loss of any run below its setting's f*.
func TestFStarIsBelowEveryQuickLoss(t *testing.T) {
	artefacts.Check(t) // it compares with the quick suite's reference run
	dir := reference(t)
	stars, err := records.ReadFile[records.FStar](filepath.Join(dir, "fstar.csv"))
	if err != nil {
		t.Fatal(err)
	}
	type rowKey struct {
		task, data       string
		d, users, nTrain int
	}
	byKey := map[rowKey]records.FStar{}
	for _, s := range stars {
		k := rowKey{s.Task, s.Data, s.D, s.NUsers, s.NTrain}
		if _, dup := byKey[k]; dup {
			t.Errorf("fstar.csv repeats %v", k)
		}
		byKey[k] = s
	}
	figs, _ := suites.Figures(suites.Quick, "")
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
			s, ok := byKey[rowKey{r.Task, r.Data, r.D, r.NUsers, r.NTrain}]
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
	figs, err := suites.Figures(suites.Paper, "fig1")
	if err != nil {
		t.Fatal(err)
	}
	b := figs[0].Blocks[0]
	b.Algo.Iters = 5
	for _, d := range b.Dims {
		for _, m := range []string{"gibo", "random"} {
			for seed := 1; seed <= 2; seed++ {
				spec, _ := runner.CellFor(suites.Paper, b, d, 0, m, seed, "")
				out, err := runner.RunCell(context.Background(), spec, catalog.New, registry.New, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				r := out.Rows[0]
				e, ok := fstar.BySetting()[fstar.Setting{Task: r.Task, Data: r.Data, D: r.D, NUsers: r.NUsers, NTrain: r.NTrain, DataSeed: spec.DataSeed}]
				if !ok {
					t.Fatalf("no committed f* for group LASSO d = %d", d)
				}
				for _, r := range out.Rows {
					if r.Loss < e.FStar {
						t.Errorf("d = %d, %s seed %d: loss %.17g below f* %.17g", d, m, seed, r.Loss, e.FStar)
					}
				}
			}
		}
	}
}
