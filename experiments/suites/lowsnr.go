package suites

import (
	"slices"
	"strings"

	"dpgibo/algo"
	"dpgibo/baselines/gibo"
	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
)

// LowSNR is DP-GIBO's low-SNR study (docs/library.md, "DP-GIBO at low SNR, declared before
// its runs"): DP-GIBO's candidates beside today's DP-GIBO and every other private method,
// at both targets, on the private-tuner study's problems (training, seeds 1-10) and on
// problems no round has used (held out, seeds 1-30 to pick and 31-60 to judge).
const LowSNR = "low-snr"

// Figures of the study: lowSNRTrainPrefix + a training problem, lowSNRHeldOutPrefix + a
// held-out one.
const (
	lowSNRTrainPrefix   = "low-snr-train-"
	lowSNRHeldOutPrefix = "low-snr-"
)

// lowSNRCandidates are DP-GIBO's declared candidates, in the declared order: shrink,
// average, fallback (FallbackSNR 0.2 set explicitly, so that the cells keep their meaning
// whatever algo's default).
var lowSNRCandidates = []gibo.Variant{
	{Shrink: algo.SignalShrink},
	{Release: algo.ReleaseAverage},
	{Release: algo.ReleaseFallback, FallbackSNR: 0.2},
}

// seedsLowSNRHeldOut: seeds 1-30 pick each cell's reference, 31-60 judge (the declared
// acceptance, shown passable at this number).
const seedsLowSNRHeldOut = 60

// lowSNRGDPMethods are the methods offered at the second target, mu-GDP (label
// currency=gdp): those whose guarantee implies mu-GDP (fig-private-select's), and dp-auto.
var lowSNRGDPMethods = []string{"dp-random", "dp-ucb", "dp-rnm", "dp-select-geometric", autoMethod}

// autoTargetRevision is dp-auto's first revision that meets the target asked for
// (private.Auto, revision 4, the second round's rule), which the training figures run at
// both targets; autoLowSNRRevision the revision that runs the rule the study chose on them
// (revision 5), which the held-out figures run and the acceptance judges.
const (
	autoTargetRevision = 4
	autoLowSNRRevision = 5
)

// lowSNRHeldOut are the held-out problems, declared before any run of them
// (docs/library.md): four real public tables (iris and macrodata are log losses, grunfeld
// and engel are not), a synthetic logistic generator at four sizes, and synthetic problems
// of the other tasks at sizes no round has run.
var lowSNRHeldOut = []struct {
	name  string
	block runner.Block
}{
	{"iris", runner.Block{Task: "logreg", Data: "iris", Dims: []int{4}}},
	{"macrodata", runner.Block{Task: "logreg", Data: "macrodata", Dims: []int{11}}},
	{"grunfeld", runner.Block{Task: "ridge", Data: "grunfeld", Dims: []int{4}}},
	{"engel", runner.Block{Task: "ridge", Data: "engel", Dims: []int{6}}},
	{"logistic5", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{5}}},
	{"logistic12", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{12}}},
	{"logistic20", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{20}, NTrain: 150, NVal: 150}},
	{"logistic8-few", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{8}, NVal: 40}},
	{"bowl3", runner.Block{Task: "bowl", Dims: []int{3}, NVal: 40}},
	{"bowl15", runner.Block{Task: "bowl", Dims: []int{15}, NVal: 30}},
	{"ridge3", runner.Block{Task: "ridge", Dims: []int{3}, NTrain: 30, NVal: 60}},
	{"ridge10", runner.Block{Task: "ridge", Dims: []int{10}, NTrain: 60, NVal: 80}},
	{"grouplasso8", runner.Block{Task: "grouplasso", Dims: []int{8}, NTrain: 80, NVal: 80}},
	{"grouplasso3", runner.Block{Task: "grouplasso", Dims: []int{3}, NTrain: 60, NVal: 60}},
	{"toy150", runner.Block{Task: "toy", Dims: []int{2}, NVal: 150}},
	{"toy20", runner.Block{Task: "toy", Dims: []int{2}, NVal: 20}},
}

// lowSNRRound2Prefix + a problem is a figure of the second round (docs/library.md, "DP-GIBO
// at low SNR, second round"), declared after the first failed and before any run of it.
const lowSNRRound2Prefix = "low-snr-round2-"

// autoRound2Revision is dp-auto's revision that runs the rule the second round chose on the
// training and first held-out problems, which its figures run and its acceptance judges.
const autoRound2Revision = 6

// lowSNRRound2 are the second round's problems, none used by an earlier round: iris with
// another target (a real table), and synthetic problems at sizes no round has run.
var lowSNRRound2 = []struct {
	name  string
	block runner.Block
}{
	{"iris-virginica", runner.Block{Task: "logreg", Data: "iris-virginica", Dims: []int{4}}},
	{"logistic3", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{3}, NTrain: 100, NVal: 100}},
	{"logistic7", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{7}, NTrain: 300, NVal: 120}},
	{"logistic6-few", runner.Block{Task: "logreg", Data: "synthetic", Dims: []int{6}, NVal: 30}},
	{"bowl6", runner.Block{Task: "bowl", Dims: []int{6}, NVal: 50}},
	{"ridge6", runner.Block{Task: "ridge", Dims: []int{6}, NTrain: 40, NVal: 50}},
	{"grouplasso6", runner.Block{Task: "grouplasso", Dims: []int{6}, NTrain: 70, NVal: 70}},
	{"toy40", runner.Block{Task: "toy", Dims: []int{2}, NVal: 40}},
}

// lowSNRFigures returns the study's figures, the second round's last. Each problem's figure
// holds, at libraryPrivateMus: the private-tuner study's methods (DP-GIBO with algo's
// defaults, its safe release and hybrid, the selections, at the primary target), one block
// per candidate, the methods of the second target, and dp-auto at the primary target (at
// autoTargetRevision on a training problem, autoLowSNRRevision on a held-out one of the
// first round, autoRound2Revision on one of the second). A training problem's figure holds
// only the new blocks: its other methods' runs are the committed ones of
// reproduction/library-private, which the analysis reads beside it. svr, 72% of the
// committed study's cost on its stand-in, is left out.
func lowSNRFigures() []runner.Figure {
	blocks := func(base runner.Block, autoRevision int) []runner.Block {
		var out []runner.Block
		for _, v := range lowSNRCandidates {
			c := base
			c.CellSuite, c.Methods, c.Config = "", []string{"dpgibo"}, v
			out = append(out, c)
		}
		gdp := base
		gdp.CellSuite, gdp.Label = "", algocfg.GDPBlockLabel
		gdp.Methods = slices.Clone(lowSNRGDPMethods)
		gdp.Algo.Currency, gdp.Algo.AutoRevision = algocfg.CurrencyGDP, autoRevision
		auto := base
		auto.CellSuite, auto.Methods, auto.Algo.AutoRevision = "", []string{autoMethod}, autoRevision
		return append(out, gdp, auto)
	}
	var out []runner.Figure
	for _, f := range libraryPrivateFigures() {
		problem, ok := strings.CutPrefix(f.Name, libraryPrivatePrefix)
		if !ok || problem == "svr" {
			continue
		}
		out = append(out, runner.Figure{Name: lowSNRTrainPrefix + problem, Blocks: blocks(f.Blocks[0], autoTargetRevision)})
	}
	heldOut := func(prefix string, b runner.Block, autoRevision int) runner.Figure {
		b.DataSeed, b.Seeds = 1, seedsLowSNRHeldOut
		b.Sweep, b.Values = "mu", libraryPrivateMus
		b.Algo = algocfg.Config{Iters: 20, Mu: 1, Defaults: algocfg.DefaultsLibrary}
		b.Methods = slices.Clone(libraryPrivateMethods)
		return runner.Figure{Name: prefix, Blocks: append([]runner.Block{b}, blocks(b, autoRevision)...)}
	}
	for _, p := range lowSNRHeldOut {
		out = append(out, heldOut(lowSNRHeldOutPrefix+p.name, p.block, autoLowSNRRevision))
	}
	for _, p := range lowSNRRound2 {
		out = append(out, heldOut(lowSNRRound2Prefix+p.name, p.block, autoRound2Revision))
	}
	return out
}
