package suites

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/experiments/runner"
	"dpgibo/tasks/catalog"
	"dpgibo/tasks/svr"
)

// The library study's hand-tuned runs of the paper's tasks are the paper suite's own cells
// (computed once; fig2b's tenth seed is computed as one), its defaults runs are cells of their own with the same seeds, and the own
// problems' tuning seeds are disjoint from the measured ones. The study ran before the svr
// precision study: its svr cells are the paper suite's cells of then, in float64.
func TestDefaultsStudySharesThePaperCells(t *testing.T) {
	figs := paperFigures()
	for fi := range figs {
		for bi := range figs[fi].Blocks {
			if figs[fi].Blocks[bi].Task == svr.Name {
				figs[fi].Blocks[bi].SVRPrecision = svr.PrecisionFloat64
			}
		}
	}
	paper, err := runner.MakePlan(Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	study, err := runner.MakePlan(Defaults, defaultsFigures(), "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	hand, defaults := 0, 0
	tuneSeeds, measuredSeeds := map[int]bool{}, map[int]bool{}
	for i, c := range study.Cells {
		switch {
		case c.Defaults != "":
			defaults++
			if c.Seed < 1 || c.Seed > seedsDefaults || c.Suite != Defaults {
				t.Errorf("defaults cell %s: seed %d, suite %s", study.Stems[i], c.Seed, c.Suite)
			}
		case c.Task == "grouplasso" || c.Task == "gpreg" || c.Task == "svr":
			hand++
			// fig2b has 9 seeds: its seed-10 cell is computed as a paper suite cell too.
			if inPaper := slices.Contains(paper.Stems, study.Stems[i]); c.Suite != Paper || (!inPaper && !(c.Task == "svr" && c.Seed > seedsFig2b)) {
				t.Errorf("hand-tuned cell %s (suite %s) is not a paper suite cell", study.Stems[i], c.Suite)
			}
		default:
			if c.Seed > seedBaseTune {
				tuneSeeds[c.Seed] = true
			} else {
				measuredSeeds[c.Seed] = true
			}
		}
	}
	// Nine problems, each with revision 2, revision 1 and every candidate rule.
	wantDefaults := 9 * (2 + len(defaultsCandidates)) * seedsDefaults
	if hand != 3*seedsDefaults || defaults != wantDefaults {
		t.Errorf("%d hand-tuned and %d defaults cells, want %d and %d", hand, defaults, 3*seedsDefaults, wantDefaults)
	}
	if len(tuneSeeds) != seedsDefaultsTune || len(measuredSeeds) != seedsDefaults {
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

// algo's zero-value defaults are those of revision runner.AlgoDefaultsRevision, which the library
// study's "library" cells record in their stems: a change of algo's defaults fails here
// until the revision is raised (and the change then gives those cells new stems).
func TestAlgoDefaultsRevision(t *testing.T) {
	task, err := catalog.New(catalog.Spec{Name: "bowl", D: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := algo.Settings{Iters: 20, Mu: 1}.WithDefaults(task)
	if err != nil {
		t.Fatal(err)
	}
	// bowl: W = 1, S = 1, d = 5.
	l := 1.0 / 6
	want := algo.Settings{Iters: 20, Mu: 1, Batch: 6, MaxBatch: 24, Kernel: algo.RBF{Lengthscale: l, Variance: 1},
		LocalRadius: 2 * l, Step: 1 / math.Sqrt(20), StepRule: algo.AdaGrad,
		Clipping:  algo.ClipCalibration{Share: 0.05, Queries: 6, Octaves: 24, TopOctaves: 8, Quantile: 0.75, Anchor: 0.25 / l},
		PriorMean: algo.PriorUserMean, DesignStarts: 3, DesignEvals: 60, DesignRefine: algo.RefineJoint}
	// Every field of want is explicit, so resolving it changes none of them; it fills the
	// settings' internal form the same way got's was.
	if want, err = want.WithDefaults(task); err != nil {
		t.Fatal(err)
	}
	if runner.AlgoDefaultsRevision != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("algo's defaults (revision %d) moved:\n got %+v\nwant %+v\nraise runner.AlgoDefaultsRevision and pin the new values here", runner.AlgoDefaultsRevision, got, want)
	}
}

// The library-peers suite has one figure per problem of the library study; its DP-GIBO
// cells run algo's current defaults (not the study's base, revision 2) at every privacy
// level, beside TPE and CMA-ES.
func TestLibraryPeersRunTheCurrentDefaults(t *testing.T) {
	peers, err := runner.MakePlan(LibraryPeers, libraryPeersFigures(), "stand-in")
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
		if c.Defaults != runner.DefaultsLibrary || c.Rule != "" || c.DefaultsRevision != runner.AlgoDefaultsRevision {
			t.Errorf("cell %s: defaults %q revision %d, rule %q", peers.Stems[i], c.Defaults, c.DefaultsRevision, c.Rule)
		}
	}
	if len(mus) != len(LibraryPeerMus) || methods["tpe"] != 9*seedsDefaults || methods["cmaes"] != 9*seedsDefaults || methods["dpgibo"] != 9*seedsDefaults*len(LibraryPeerMus) {
		t.Errorf("privacy levels %v, methods %v", mus, methods)
	}
}
