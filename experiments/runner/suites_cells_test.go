package runner_test

import (
	"slices"
	"strings"
	"testing"

	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/tasks/svr"
)

// defaultsDesign is the library study's design as its figures declare it: the measured
// seeds, the tuning seeds and their base, the number of candidate rules, and fig2b's seeds.
type defaultsDesign struct {
	seeds, tuneSeeds, tuneBase, candidates, fig2bSeeds int
}

// readDefaultsDesign reads the library study's design off the blocks of its figures (and
// fig2b's off the paper's).
func readDefaultsDesign(t *testing.T, defaults, paper []runner.Figure) defaultsDesign {
	t.Helper()
	var d defaultsDesign
	rules := map[string]bool{}
	for _, f := range defaults {
		for _, b := range f.Blocks {
			switch {
			case b.SeedBase > 0:
				d.tuneBase, d.tuneSeeds = b.SeedBase, b.Seeds
			case b.Algo.Defaults != "":
				d.seeds = b.Seeds
				if b.Algo.Rule != "" {
					rules[b.Algo.Rule] = true
				}
			}
		}
	}
	d.candidates = len(rules)
	for _, f := range paper {
		if f.Name == "fig2b" {
			d.fig2bSeeds = f.Blocks[0].Seeds
		}
	}
	if d.seeds == 0 || d.tuneSeeds == 0 || d.tuneBase == 0 || d.candidates == 0 || d.fig2bSeeds == 0 {
		t.Fatalf("the library study's figures do not declare their design: %+v", d)
	}
	return d
}

// The library study's hand-tuned runs of the paper's tasks are the paper suite's own cells
// (computed once; fig2b's tenth seed is computed as one), its defaults runs are cells of their own with the same seeds, and the own
// problems' tuning seeds are disjoint from the measured ones. The study ran before the svr
// precision study: its svr cells are the paper suite's cells of then, in float64.
func TestDefaultsStudySharesThePaperCells(t *testing.T) {
	figs, _ := suites.Figures(suites.Paper, "")
	for fi := range figs {
		for bi := range figs[fi].Blocks {
			if figs[fi].Blocks[bi].Task == svr.Name {
				figs[fi].Blocks[bi].Precision = svr.PrecisionFloat64
			}
		}
	}
	paper, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	defaultsFigs, _ := suites.Figures(suites.Defaults, "")
	d := readDefaultsDesign(t, defaultsFigs, figs)
	study, err := runner.MakePlan(suites.Defaults, defaultsFigs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	hand, defaults := 0, 0
	tuneSeeds, measuredSeeds := map[int]bool{}, map[int]bool{}
	for i, c := range study.Cells {
		switch {
		case c.Defaults != "":
			defaults++
			if c.Seed < 1 || c.Seed > d.seeds || c.Suite != suites.Defaults {
				t.Errorf("defaults cell %s: seed %d, suite %s", study.Stems[i], c.Seed, c.Suite)
			}
		case c.Task == "grouplasso" || c.Task == "gpreg" || c.Task == "svr":
			hand++
			// fig2b has 9 seeds: its seed-10 cell is computed as a paper suite cell too.
			if inPaper := slices.Contains(paper.Stems, study.Stems[i]); c.Suite != suites.Paper || (!inPaper && !(c.Task == "svr" && c.Seed > d.fig2bSeeds)) {
				t.Errorf("hand-tuned cell %s (suite %s) is not a paper suite cell", study.Stems[i], c.Suite)
			}
		default:
			if c.Seed > d.tuneBase {
				tuneSeeds[c.Seed] = true
			} else {
				measuredSeeds[c.Seed] = true
			}
		}
	}
	// Nine problems, each with revision 2, revision 1 and every candidate rule.
	wantDefaults := 9 * (2 + d.candidates) * d.seeds
	if hand != 3*d.seeds || defaults != wantDefaults {
		t.Errorf("%d hand-tuned and %d defaults cells, want %d and %d", hand, defaults, 3*d.seeds, wantDefaults)
	}
	if len(tuneSeeds) != d.tuneSeeds || len(measuredSeeds) != d.seeds {
		t.Errorf("tuning seeds %v, measured seeds %v", tuneSeeds, measuredSeeds)
	}
	for fi := range study.Figures {
		for _, ref := range study.Uses[fi] {
			if strings.HasPrefix(ref.Label, "clip=") {
				t.Errorf("a grid row without its step: %q", ref.Label)
			}
		}
	}
}

// The library-peers suite has one figure per problem of the library study; its DP-GIBO
// cells run algo's current defaults (not the study's base, revision 2) at every privacy
// level, beside TPE and CMA-ES.
func TestLibraryPeersRunTheCurrentDefaults(t *testing.T) {
	peerFigs, _ := suites.Figures(suites.LibraryPeers, "")
	defaultsFigs, _ := suites.Figures(suites.Defaults, "")
	paperFigs, _ := suites.Figures(suites.Paper, "")
	d := readDefaultsDesign(t, defaultsFigs, paperFigs)
	peers, err := runner.MakePlan(suites.LibraryPeers, peerFigs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	if len(peers.Figures) != 9 {
		t.Fatalf("%d library-peers figures, want 9", len(peers.Figures))
	}
	mus, methods := map[float64]int{}, map[string]int{}
	for i, c := range peers.Cells {
		methods[c.Method]++
		if c.Method != "dpgibo" {
			continue
		}
		mus[float64(c.Mu)]++
		if c.Defaults != algocfg.DefaultsLibrary || c.Rule != "" || c.DefaultsRevision != algocfg.DefaultsRevision {
			t.Errorf("cell %s: defaults %q revision %d, rule %q", peers.Stems[i], c.Defaults, c.DefaultsRevision, c.Rule)
		}
	}
	if len(mus) != len(suites.LibraryPeerMus) || methods["tpe"] != 9*d.seeds || methods["cmaes"] != 9*d.seeds || methods["dpgibo"] != 9*d.seeds*len(suites.LibraryPeerMus) {
		t.Errorf("privacy levels %v, methods %v", mus, methods)
	}
}
