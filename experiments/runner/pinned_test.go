package runner_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
)

// committedManifest reads reproduction/manifest-NAME.json.
func committedManifest(t *testing.T, name string) runner.Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "reproduction", "manifest-"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m runner.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// stemsWith returns the stems of -suite=paper -only=name after edit changed its blocks.
func stemsWith(t *testing.T, name string, edit func(*algocfg.Config)) []string {
	t.Helper()
	figs, err := suites.Figures(suites.Paper, name)
	if err != nil {
		t.Fatal(err)
	}
	for bi := range figs[0].Blocks {
		edit(&figs[0].Blocks[bi].Algo)
	}
	p, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	return p.Stems
}

// Today's suites name exactly the committed cells; a suite that sets a design option, the
// prior mean or an adaptive-clipping parameter to another value than the pinned one
// renames exactly DP-GIBO's and GIBO's cells (or the adaptive ones), and one that sets the
// pinned value explicitly renames none.
func TestCellsKnowTheirDesign(t *testing.T) {
	const name = "fig2a-clip" // fixed and adaptive clipping
	committed := committedManifest(t, name).CellList
	today := stemsWith(t, name, func(*algocfg.Config) {})
	if !slices.Equal(today, committed) {
		t.Fatalf("%s: the code's stems differ from the committed manifest's cell_list:\n%v\n%v", name, today, committed)
	}
	adaptive := func(stem string, a algocfg.Config) bool { return a.AdaptiveClip != nil }
	for _, tc := range []struct {
		what    string
		edit    func(*algocfg.Config)
		renames func(stem string, a algocfg.Config) bool // nil: none
	}{
		{"greedy-only design", func(a *algocfg.Config) { a.Design = &algocfg.Design{GreedyOnly: true} }, func(string, algocfg.Config) bool { return true }},
		{"two design starts", func(a *algocfg.Config) { a.Design = &algocfg.Design{Starts: 2} }, func(string, algocfg.Config) bool { return true }},
		{"40 design evaluations", func(a *algocfg.Config) { a.Design = &algocfg.Design{Evals: 40} }, func(string, algocfg.Config) bool { return true }},
		{"a window of kept points", func(a *algocfg.Config) { a.Design = &algocfg.Design{MaxKept: 192} }, func(string, algocfg.Config) bool { return true }},
		{"zero prior mean", func(a *algocfg.Config) { a.PriorMean = "zero" }, func(string, algocfg.Config) bool { return true }},
		{"adaptive rate 0.5", func(a *algocfg.Config) {
			if a.AdaptiveClip != nil {
				a.AdaptiveClip = &algocfg.AdaptiveClip{Rate: 0.5}
			}
		}, adaptive},
		{"pinned design set explicitly", func(a *algocfg.Config) {
			a.Design = &algocfg.Design{Starts: 3, Evals: 60}
			a.PriorMean = "user-mean"
		}, nil},
		{"pinned adaptive clipping set explicitly", func(a *algocfg.Config) {
			if a.AdaptiveClip != nil {
				a.AdaptiveClip = &algocfg.AdaptiveClip{Quantile: 0.5, Rate: 0.2, CountShare: 0.1}
			}
		}, nil},
	} {
		figs, _ := suites.Figures(suites.Paper, name)
		changed := stemsWith(t, name, tc.edit)
		if len(changed) != len(today) {
			t.Fatalf("%s: %d cells, want %d", tc.what, len(changed), len(today))
		}
		// The figure's blocks in plan order: fixed clips (swept), then adaptive.
		p, _ := runner.MakePlan(suites.Paper, figs, "stand-in")
		for i, stem := range today {
			block := figs[0].Blocks[0].Algo
			if p.Cells[i].AdaptiveClip != nil {
				block = figs[0].Blocks[1].Algo
			}
			want := tc.renames != nil && tc.renames(stem, block)
			if got := changed[i] != stem; got != want {
				t.Errorf("%s: cell %s renamed = %v, want %v (now %s)", tc.what, stem, got, want, changed[i])
			}
		}
	}
}
