package runner

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/experiments/algocfg"
)

// tinyFigure is a figure of two cells' worth of group-LASSO runs, named name, with seeds
// replications.
func tinyFigure(name string, seeds int) Figure {
	return Figure{Name: name, Blocks: []Block{{Task: "grouplasso", Dims: []int{2}, NTrain: 20, NVal: 9, DataSeed: 1,
		Methods: []string{"random"}, Seeds: seeds, Algo: algocfg.Config{Iters: 2}}}}
}

// snapshot returns every file under dir with its bytes.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// sameFiles fails t unless every file of want is in dir with the same bytes; with exact,
// dir may hold no other file.
func sameFiles(t *testing.T, dir string, want map[string][]byte, exact bool, what string) {
	t.Helper()
	got := snapshot(t, dir)
	for name, b := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: %s is gone", what, name)
		} else if !bytes.Equal(g, b) {
			t.Errorf("%s: %s changed", what, name)
		}
	}
	if exact {
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: %s was written", what, name)
			}
		}
	}
}

func tinyRun(t *testing.T, o Options) error {
	t.Helper()
	o.Workers, o.Quiet, o.Stderr = 1, true, io.Discard
	return Run(context.Background(), o)
}

// TestNoRunReplacesAnothersFigure replays, in small, one suite's finished figure followed by
// another suite's run into the same folder: the second run refuses (ErrOtherRun, naming the
// figure, its suite and the way out) and every file of the first keeps its bytes; the same
// for another configuration of the figure, with -resume and with -merge. The folder still
// takes what does not collide (-only of another figure, a rerun of the same one, shards,
// -from), and -overwrite replaces the colliding figure's outputs and nothing else.
func TestNoRunReplacesAnothersFigure(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-suite=paper", "-only=fig3c"}
	if err := tinyRun(t, Options{Suite: "paper", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 3)}, Out: dir, Args: args}); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)
	for _, name := range []string{"fig3c.csv", "manifest-fig3c.json", "timings-fig3c.csv", "summary.csv"} {
		if first[name] == nil {
			t.Fatalf("the first run wrote no %s", name)
		}
	}

	for _, tc := range []struct {
		what string
		o    Options
		want string
	}{
		{"another suite", Options{Suite: "quick", Figures: []Figure{tinyFigure("fig3c", 2), tinyFigure("figq", 1)}, Args: []string{"-suite=quick"}},
			"holds fig3c of suite paper (manifest-fig3c.json), which this run (suite quick) would replace"},
		{"another suite, resumed", Options{Suite: "quick", Figures: []Figure{tinyFigure("fig3c", 2)}, Resume: true}, "fig3c of suite paper"},
		{"another suite, merged", Options{Suite: "quick", Figures: []Figure{tinyFigure("fig3c", 2)}, Merge: true}, "fig3c of suite paper"},
		{"another configuration", Options{Suite: "paper", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 2)}, Args: []string{"-suite=paper", "-only=fig3c", "-seeds=2"}},
			"fig3c of suite paper in another configuration"},
	} {
		tc.o.Out = dir
		err := tinyRun(t, tc.o)
		if !errors.Is(err, ErrOtherRun) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line with ErrOtherRun containing %q", tc.what, err, tc.want)
		}
		if tc.o.Args != nil && err != nil && !strings.Contains(err.Error(), "-overwrite") {
			t.Errorf("%s: %v names no command that would work", tc.what, err)
		}
		sameFiles(t, dir, first, true, tc.what)
	}

	// What does not collide still runs into the folder: the same run again, another suite's
	// other figure with -only, and a sharded run of figures of its own.
	if err := tinyRun(t, Options{Suite: "paper", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 3)}, Out: dir, Resume: true}); err != nil {
		t.Fatalf("the same run resumed: %v", err)
	}
	if err := tinyRun(t, Options{Suite: "quick", Only: "figq", Figures: []Figure{tinyFigure("figq", 1)}, Out: dir}); err != nil {
		t.Fatalf("another suite's other figure with -only: %v", err)
	}
	for k := range 2 {
		if err := tinyRun(t, Options{Suite: "peers", Only: "figp", Figures: []Figure{tinyFigure("figp", 2)}, Out: dir, Shard: Shard{K: k, N: 2}}); err != nil {
			t.Fatalf("shard %d of 2: %v", k, err)
		}
	}
	withOthers := snapshot(t, dir)
	for _, name := range []string{"fig3c.csv", "manifest-fig3c.json", "timings-fig3c.csv"} {
		if !bytes.Equal(withOthers[name], first[name]) && name != "manifest-fig3c.json" {
			t.Errorf("%s changed when other figures were run beside it", name)
		}
	}
	if withOthers["figq.csv"] == nil || withOthers["figp.csv"] == nil {
		t.Fatal("the -only and sharded runs wrote no figure CSV")
	}

	// -from takes the finished cells of this folder into a new one that holds another suite's
	// figure; the new folder's fig3c is the old one's.
	fresh := t.TempDir()
	if err := tinyRun(t, Options{Suite: "quick", Only: "figq", Figures: []Figure{tinyFigure("figq", 1)}, Out: fresh}); err != nil {
		t.Fatal(err)
	}
	if err := tinyRun(t, Options{Suite: "paper", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 3)}, Out: fresh, From: dir}); err != nil {
		t.Fatalf("-from into a folder of another suite's figure: %v", err)
	}
	if got := snapshot(t, fresh)["fig3c.csv"]; !bytes.Equal(got, first["fig3c.csv"]) {
		t.Error("-from: fig3c.csv differs from the folder it came from")
	}

	// -overwrite replaces the colliding figure's outputs and nothing else; afterwards the
	// figure is the new run's, which then runs again without -overwrite.
	before := snapshot(t, dir)
	over := Options{Suite: "quick", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 2)}, Out: dir}
	over.Overwrite = true
	if err := tinyRun(t, over); err != nil {
		t.Fatalf("-overwrite: %v", err)
	}
	after := snapshot(t, dir)
	if bytes.Equal(after["fig3c.csv"], before["fig3c.csv"]) {
		t.Error("-overwrite left fig3c.csv as it was")
	}
	for name, b := range before {
		switch {
		case strings.HasPrefix(name, "cells"+string(filepath.Separator)),
			name == "fig3c.csv", name == "manifest-fig3c.json", name == "timings-fig3c.csv",
			name == "summary.csv", name == "comparisons.csv", name == "claims.csv", name == "statements.csv":
			continue
		}
		if !bytes.Equal(after[name], b) {
			t.Errorf("-overwrite of fig3c changed or removed %s", name)
		}
	}
	over.Overwrite, over.Resume = false, true
	if err := tinyRun(t, over); err != nil {
		t.Errorf("the overwriting run again: %v", err)
	}
}

// TestNoRunReplacesAnothersRecord: a full run's manifest and timings speak for all of its
// figures, so another suite's full run into the folder is refused even when no figure name
// collides, and even with -overwrite (replacing them would lose the record of the others).
func TestNoRunReplacesAnothersRecord(t *testing.T) {
	dir := t.TempDir()
	if err := tinyRun(t, Options{Suite: "paper", Figures: []Figure{tinyFigure("a1", 1)}, Out: dir}); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)
	for _, overwrite := range []bool{false, true} {
		err := tinyRun(t, Options{Suite: "quick", Figures: []Figure{tinyFigure("b1", 1)}, Out: dir, Overwrite: overwrite})
		if !errors.Is(err, ErrOtherRun) || !strings.Contains(err.Error(), "manifest.json is the record of suite paper's run of a1") {
			t.Errorf("overwrite %v: got %v, want ErrOtherRun naming manifest.json and a1", overwrite, err)
		}
		sameFiles(t, dir, first, true, "a full run of another suite")
	}
	if err := tinyRun(t, Options{Suite: "quick", Only: "b1", Figures: []Figure{tinyFigure("b1", 1)}, Out: dir}); err != nil {
		t.Errorf("the same figure with -only: %v", err)
	}
}

// An interrupted run's unfinished record claims its figures: another suite's run of one of
// them is refused, and the record stays.
func TestUnfinishedRecordClaimsItsFigures(t *testing.T) {
	dir := t.TempDir()
	stop, cancel := context.WithCancel(context.Background())
	o := Options{Suite: "paper", Figures: []Figure{tinyFigure("fig3c", 3)}, Out: dir, Workers: 1, Quiet: true, Stderr: io.Discard, AfterCell: cancel}
	if err := Run(stop, o); err == nil {
		t.Fatal("the interrupted run returned no error")
	}
	first := snapshot(t, dir)
	if first["unfinished.json"] == nil {
		t.Fatal("the interrupted run left no unfinished.json")
	}
	err := tinyRun(t, Options{Suite: "quick", Only: "fig3c", Figures: []Figure{tinyFigure("fig3c", 2)}, Out: dir})
	if !errors.Is(err, ErrOtherRun) || !strings.Contains(err.Error(), "fig3c of suite paper (unfinished.json)") {
		t.Errorf("got %v, want ErrOtherRun naming the unfinished record", err)
	}
	sameFiles(t, dir, first, true, "a run over an unfinished one")
}
