package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
)

// committedManifest reads reproduction/manifest-NAME.json.
func committedManifest(t *testing.T, name string) runManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "reproduction", "manifest-"+name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m runManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// stemsWith returns the stems of -suite=paper -only=name after edit changed its blocks.
func stemsWith(t *testing.T, name string, edit func(*algoConfig)) []string {
	t.Helper()
	figs, err := suiteFigures(SuitePaper, name)
	if err != nil {
		t.Fatal(err)
	}
	for bi := range figs[0].Blocks {
		edit(&figs[0].Blocks[bi].Algo)
	}
	p, err := makePlan(SuitePaper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	return p.stems
}

// Today's suites name exactly the committed cells; a suite that sets a design option, the
// prior mean or an adaptive-clipping parameter to another value than the pinned one
// renames exactly DP-GIBO's and GIBO's cells (or the adaptive ones), and one that sets the
// pinned value explicitly renames none.
func TestCellsKnowTheirDesign(t *testing.T) {
	const name = "fig2a-clip" // fixed and adaptive clipping
	committed := committedManifest(t, name).CellList
	today := stemsWith(t, name, func(*algoConfig) {})
	if !slices.Equal(today, committed) {
		t.Fatalf("%s: the code's stems differ from the committed manifest's cell_list:\n%v\n%v", name, today, committed)
	}
	adaptive := func(stem string, a algoConfig) bool { return a.AdaptiveClip != nil }
	for _, tc := range []struct {
		what    string
		edit    func(*algoConfig)
		renames func(stem string, a algoConfig) bool // nil: none
	}{
		{"greedy-only design", func(a *algoConfig) { a.Design = &designConfig{GreedyOnly: true} }, func(string, algoConfig) bool { return true }},
		{"two design starts", func(a *algoConfig) { a.Design = &designConfig{Starts: 2} }, func(string, algoConfig) bool { return true }},
		{"40 design evaluations", func(a *algoConfig) { a.Design = &designConfig{Evals: 40} }, func(string, algoConfig) bool { return true }},
		{"a window of kept points", func(a *algoConfig) { a.Design = &designConfig{MaxKept: 192} }, func(string, algoConfig) bool { return true }},
		{"zero prior mean", func(a *algoConfig) { a.PriorMean = priorZero }, func(string, algoConfig) bool { return true }},
		{"adaptive rate 0.5", func(a *algoConfig) {
			if a.AdaptiveClip != nil {
				a.AdaptiveClip = &adaptiveClipConfig{Rate: 0.5}
			}
		}, adaptive},
		{"pinned design set explicitly", func(a *algoConfig) {
			a.Design = &designConfig{Starts: pinnedDesignStarts, Evals: pinnedDesignEvals}
			a.PriorMean = pinnedPriorMean
		}, nil},
		{"pinned adaptive clipping set explicitly", func(a *algoConfig) {
			if a.AdaptiveClip != nil {
				a.AdaptiveClip = &adaptiveClipConfig{Quantile: pinnedClipQuantile, Rate: pinnedClipRate, CountShare: pinnedClipCountShare}
			}
		}, nil},
	} {
		figs, _ := suiteFigures(SuitePaper, name)
		changed := stemsWith(t, name, tc.edit)
		if len(changed) != len(today) {
			t.Fatalf("%s: %d cells, want %d", tc.what, len(changed), len(today))
		}
		// The figure's blocks in plan order: fixed clips (swept), then adaptive.
		p, _ := makePlan(SuitePaper, figs, "stand-in")
		for i, stem := range today {
			block := figs[0].Blocks[0].Algo
			if p.cells[i].AdaptiveClip != nil {
				block = figs[0].Blocks[1].Algo
			}
			want := tc.renames != nil && tc.renames(stem, block)
			if got := changed[i] != stem; got != want {
				t.Errorf("%s: cell %s renamed = %v, want %v (now %s)", tc.what, stem, got, want, changed[i])
			}
		}
	}
}

// runCell passes the pinned values of algo's defaults explicitly, and a cell's own design
// options where it has them.
func TestRunCellPinsAlgoDefaults(t *testing.T) {
	spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dpgibo", Seed: 1, Budget: 6, Mu: 1,
		Iters: 2, Batch: 3, Clip: 1, Step: 0.5, Lengthscale: 1, AdaptiveClip: &adaptiveClipConfig{}}
	capture := func(spec cellSpec) algo.Settings {
		var got algo.Settings
		errStop := errors.New("captured")
		_, err := runCell(context.Background(), spec, newFakeTask, func(_ string, o baselines.Options) (baselines.Method, error) {
			got = o.Settings
			return nil, errStop
		}, "", nil)
		if !errors.Is(err, errStop) {
			t.Fatalf("runCell: %v", err)
		}
		return got
	}
	s := capture(spec)
	want := algo.AdaptiveClip{Quantile: 0.5, Rate: 0.2, CountShare: 0.1}
	if s.DesignStarts != 3 || s.DesignEvals != 60 || s.DesignRefine != algo.RefineJoint || s.MaxKept >= 0 || s.PriorMean != algo.PriorUserMean ||
		s.StepRule != algo.AdaGrad || s.Kernel.Variance != 1 || s.MaxBatch != 12 || s.AdaptiveClip == nil || *s.AdaptiveClip != want {
		t.Errorf("settings of a cell at the pinned values: %+v (adaptive %+v)", s, s.AdaptiveClip)
	}
	spec.Design = &designConfig{Starts: 2, Evals: 40, GreedyOnly: true, MaxKept: 9}
	spec.PriorMean = priorZero
	spec.AdaptiveClip = &adaptiveClipConfig{Rate: 0.5}
	s = capture(spec)
	want.Rate = 0.5
	if s.DesignStarts != 2 || s.DesignEvals != 40 || s.DesignRefine != algo.RefineNone || s.MaxKept != 9 || s.PriorMean != algo.PriorZero || *s.AdaptiveClip != want {
		t.Errorf("settings of a cell with its own design: %+v (adaptive %+v)", s, s.AdaptiveClip)
	}
}

// A block that would leave a scale setting or an unknown design value to algo is rejected
// before any cell runs.
func TestBlocksLeaveNothingToAlgoDefaults(t *testing.T) {
	base := blockSpec{Task: "gpreg", Dims: []int{2}, Methods: []string{"dpgibo"}, Seeds: 1,
		Algo: algoConfig{Iters: 2, Clip: 1, Mu: 1, Step: 0.3, Lengthscale: 1}}
	if err := checkBlock(base); err != nil {
		t.Fatalf("valid block: %v", err)
	}
	for _, tc := range []struct {
		edit func(*blockSpec)
		want string
	}{
		{func(b *blockSpec) { b.Algo.Step = 0 }, "Step and Lengthscale"},
		{func(b *blockSpec) { b.Algo.Lengthscale = 0 }, "Step and Lengthscale"},
		{func(b *blockSpec) { b.Algo.Clip = 0 }, "Clip set or swept"},
		{func(b *blockSpec) { b.Algo.PriorMean = "mean" }, "unknown prior mean"},
		{func(b *blockSpec) { b.Algo.PriorMean, b.Algo.Standardise = priorZero, true }, "standardising needs"},
		{func(b *blockSpec) { b.Algo.Design = &designConfig{Starts: -1} }, "design options"},
	} {
		b := base
		tc.edit(&b)
		if err := checkBlock(b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("block %+v: %v, want an error containing %q", b.Algo, err, tc.want)
		}
	}
	b := base
	b.Algo.Clip, b.Sweep, b.Values = 0, "clip", []num{0.1}
	if err := checkBlock(b); err != nil {
		t.Errorf("swept clip: %v", err)
	}
	b = base
	b.Methods, b.Algo.Step = []string{"random"}, 0
	if err := checkBlock(b); err != nil {
		t.Errorf("random search needs no Step: %v", err)
	}
}
