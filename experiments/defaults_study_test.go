package main

import (
	"slices"
	"strings"
	"testing"
)

// The library study's hand-tuned runs of the paper's tasks are the paper suite's own cells
// (computed once; fig2b's tenth seed is computed as one), its defaults runs are cells of their own with the same seeds, and the own
// problems' tuning seeds are disjoint from the measured ones.
func TestDefaultsStudySharesThePaperCells(t *testing.T) {
	paper, err := makePlan(SuitePaper, paperFigures(), "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	study, err := makePlan(SuiteDefaults, defaultsFigures(), "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	hand, defaults := 0, 0
	tuneSeeds, measuredSeeds := map[int]bool{}, map[int]bool{}
	for i, c := range study.cells {
		switch {
		case c.Defaults != "":
			defaults++
			if c.Seed < 1 || c.Seed > seedsDefaults || c.Suite != SuiteDefaults {
				t.Errorf("defaults cell %s: seed %d, suite %s", study.stems[i], c.Seed, c.Suite)
			}
		case c.Task == "grouplasso" || c.Task == "gpreg" || c.Task == "svr":
			hand++
			// fig2b has 9 seeds: its seed-10 cell is computed as a paper suite cell too.
			if inPaper := slices.Contains(paper.stems, study.stems[i]); c.Suite != SuitePaper || (!inPaper && !(c.Task == "svr" && c.Seed > seedsFig2b)) {
				t.Errorf("hand-tuned cell %s (suite %s) is not a paper suite cell", study.stems[i], c.Suite)
			}
		default:
			if c.Seed > seedBaseTune {
				tuneSeeds[c.Seed] = true
			} else {
				measuredSeeds[c.Seed] = true
			}
		}
	}
	if hand != 3*seedsDefaults || defaults != 5*2*seedsDefaults {
		t.Errorf("%d hand-tuned and %d defaults cells, want %d and %d", hand, defaults, 3*seedsDefaults, 5*2*seedsDefaults)
	}
	if len(tuneSeeds) != seedsDefaultsTune || len(measuredSeeds) != seedsDefaults {
		t.Errorf("tuning seeds %v, measured seeds %v", tuneSeeds, measuredSeeds)
	}
	for fi := range study.figures {
		for _, ref := range study.uses[fi] {
			if strings.HasPrefix(ref.label, "clip=") {
				t.Errorf("a grid row without its step: %q", ref.label)
			}
		}
	}
}
