package suites

import (
	"slices"
	"strings"

	"dpgibo/data"
	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
)

// LibraryPrivate is the library's private-tuner study (docs/library.md, "The library's
// private tuner"): every private method at equal privacy on the library study's nine
// problems and on four it never used.
const LibraryPrivate = "library-private"

// libraryPrivatePrefix names the library-private figures: libraryPrivatePrefix + the problem.
const libraryPrivatePrefix = "library-private-"

// libraryPrivateMus are the privacy levels of the study, at the primary currency.
var libraryPrivateMus = []num{0.5, 1, 2}

// libraryPrivateMethods are the study's private methods: DP-GIBO with algo's defaults, its
// safe release and the declared hybrid (package private), and fig-private-select's
// comparators. dp-ucb does not run where d > 50, as in fig-private-select.
var libraryPrivateMethods = append([]string{"dpgibo", "dpgibo-safe", "dpgibo-hybrid"}, privateSelectMethods...)

// seedsLibraryPrivate: the best method of a (problem, mu) is picked on seeds 1-5 and every
// method judged on seeds 6-10.
const seedsLibraryPrivate = 10

// libraryPrivateNew are the study's problems that no default or rule was chosen on, declared
// before any run of them (docs/library.md): two real public tables and two synthetic
// problems in regimes the nine do not cover (few users per hyperparameter).
var libraryPrivateNew = []string{"anes96", "randhie", "bowl20", "ridge12"}

// libraryPrivateRound2 are the second round's problems (docs/library.md, "The library's
// private tuner, second round"), declared before any run of them and used in no earlier
// choice: a real public table whose loss is a log loss, and three synthetic problems at
// sizes the first round did not run.
var libraryPrivateRound2 = []string{"modechoice", "grouplasso5", "bowl10", "toy60"}

// libraryPrivateFigures returns one figure per problem: the nine of the library study, with
// the task, data, d and T of its "defaults=library" block, then libraryPrivateNew at T = 20.
// Each figure is one block: libraryPrivateMethods at libraryPrivateMus with algo's current
// defaults for the local methods (every Settings field at its zero value but Iters and Mu,
// the task's LossBound declared), budget T(d+1), seeds 1-10.
func libraryPrivateFigures() []runner.Figure {
	block := func(b runner.Block) runner.Block {
		b.CellSuite, b.Label = "", ""
		b.Seeds, b.SeedBase = seedsLibraryPrivate, 0
		b.Sweep, b.Values = "mu", libraryPrivateMus
		b.Algo = algocfg.Config{Iters: b.Algo.Iters, Mu: 1, Defaults: algocfg.DefaultsLibrary}
		b.Methods = slices.Clone(libraryPrivateMethods)
		if slices.Max(b.Dims) > 50 {
			b.Methods = slices.DeleteFunc(b.Methods, func(m string) bool { return m == "dp-ucb" })
		}
		return b
	}
	var out []runner.Figure
	for _, f := range defaultsFigures() {
		problem, _ := strings.CutPrefix(f.Name, "defaults-")
		for _, b := range f.Blocks {
			if b.Algo.Defaults == algocfg.DefaultsLibrary && b.Algo.Rule == "" {
				out = append(out, runner.Figure{Name: libraryPrivatePrefix + problem, Blocks: []runner.Block{block(b)}})
				break
			}
		}
	}
	fresh := map[string]runner.Block{
		"anes96":  {Task: "logreg", Data: data.ANES96Label, Dims: []int{9}},
		"randhie": {Task: "ridge", Data: data.RANDHIELabel, Dims: []int{9}},
		"bowl20":  {Task: "bowl", Dims: []int{20}, NVal: 50},
		"ridge12": {Task: "ridge", Dims: []int{12}, NTrain: 50, NVal: 100},
	}
	for _, problem := range libraryPrivateNew {
		b := fresh[problem]
		b.DataSeed, b.Algo.Iters = 1, 20
		out = append(out, runner.Figure{Name: libraryPrivatePrefix + problem, Blocks: []runner.Block{block(b)}})
	}
	round1 := slices.Clone(out)
	second := map[string]runner.Block{
		"modechoice":  {Task: "logreg", Data: data.ModeChoiceLabel, Dims: []int{6}},
		"grouplasso5": {Task: "grouplasso", Dims: []int{5}, NTrain: 100, NVal: 100},
		"bowl10":      {Task: "bowl", Dims: []int{10}, NVal: 100},
		"toy60":       {Task: "toy", Dims: []int{2}, NVal: 60},
	}
	for _, problem := range libraryPrivateRound2 {
		b := second[problem]
		b.DataSeed, b.Algo.Iters = 1, 20
		out = append(out, runner.Figure{Name: libraryPrivatePrefix + problem, Blocks: []runner.Block{block(b)}})
	}
	// dp-auto, the one call, on every problem's block: a figure of its own per problem, so
	// that the methods' committed figures keep their bytes. The first round's problems keep
	// the rule their runs used (dp-auto's revision 2, which the runner pins when AutoRevision
	// is 0); the second round's keep revision 3, the second round's rule with the selections
	// at the (epsilon, 1e-5) of mu, which their committed runs used.
	for i, f := range slices.Clone(out) {
		problem, _ := strings.CutPrefix(f.Name, libraryPrivatePrefix)
		b := f.Blocks[0]
		b.Methods = []string{autoMethod}
		if i >= len(round1) {
			b.Algo.AutoRevision = 3
		}
		out = append(out, runner.Figure{Name: libraryAutoPrefix + problem, Blocks: []runner.Block{b}})
	}
	return out
}

// libraryAutoPrefix names the figures of dp-auto, the library's one call, on the study's
// problems: libraryAutoPrefix + the problem.
const libraryAutoPrefix = "library-auto-"

// autoMethod is the registry name of the library's one call.
const autoMethod = "dp-auto"
