package suites

import (
	"slices"
	"strconv"

	"dpgibo/data"
	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"

	"dpgibo/tasks/svr"
)

// Defaults is the library study: DP-GIBO with algo's own defaults and candidate rules
// against hand-tuned settings on nine problems (defaultsFigures).
const Defaults = "defaults"

// Seeds of the library study: measured on seeds 1-10; the own problems' grids are tuned on
// seeds 101-105, disjoint from them.
const (
	seedsDefaults     = 10
	seedsDefaultsTune = 5
	seedBaseTune      = 100
)

// Declared grids of the own problems' hand tuning (Clip x Step, the other settings as
// declared in defaultsFigures), fixed before any run: the hand-tuned setting is the grid
// point of lowest median final loss on the tuning seeds, chosen without privacy.
var (
	bowlClipGrid  = []num{0.05, 0.2, 0.8}
	bowlStepGrid  = []num{0.06, 0.18, 0.54}
	ridgeClipGrid = []num{0.01, 0.1, 1}
	ridgeStepGrid = []num{1, 4, 16}
	// The logistic regressions' box has side 14 (log lambda in [-8, 6]) and the toy's 6.
	logregClipGrid = []num{0.01, 0.1, 1}
	logregStepGrid = []num{0.5, 1.5, 4.5}
	toyClipGrid    = []num{0.03, 0.1, 0.3}
	toyStepGrid    = []num{0.3, 0.9, 2.7}
)

// defaultsCandidates are the candidate rules of the leave-one-problem-out study
// (algocfg.DefaultsRules), run beside algo's current defaults on every problem; declared in
// docs/library.md before the study ran.
var defaultsCandidates = []string{"shrink", "shrink-step2", "q75"}

// defaultsFigures returns the library study (declared in docs/library.md before it ran): for
// each problem, DP-GIBO with algo's defaults ("defaults=library": every Settings field at
// its zero value but Iters and Mu, the task's honest LossBound declared, revision
// algocfg.DefaultsRevision; "defaults=before": revision 1's defaults, pinned) beside the
// hand-tuned setting, paired by seed:
//
//   - defaults-grouplasso: group LASSO d = 10 with fig1's T and mu; hand-tuned = fig1's
//     settings (the paper suite's cells, shared);
//   - defaults-gpreg: GP regression d = 5 with fig2a's; hand-tuned = fig2a's DP-GIBO (the B
//     rule's clip);
//   - defaults-svr: SVR on the stand-in with fig2b's; hand-tuned = fig2b's DP-GIBO;
//   - defaults-bowl and defaults-ridge, the project's own problems (tasks/bowl d = 5, 200
//     users; tasks/ridge d = 6, 200 users), and the leave-one-problem-out study's four more
//     (tasks/logreg on the breast-cancer, wine and digits tables, d = 30, 13 and 16;
//     tasks/toy, README's example with its distant start), T = 20, mu = 1, b = d+1,
//     AdaGrad, l = W/6 (the box's side over six, the defaults' rule): hand-tuned = the best
//     point of the declared Clip x Step grid on the tuning seeds, every grid point also run
//     on the measured seeds.
//
// Every problem also runs the candidate rules defaultsCandidates beside algo's defaults.
func defaultsFigures() []runner.Figure {
	var paper = map[string]runner.Figure{}
	for _, f := range paperFigures() {
		paper[f.Name] = f
	}
	hand := func(fig string, task string, d int) runner.Block {
		for _, b := range paper[fig].Blocks {
			if b.Task == task && slices.Contains(b.Dims, d) && slices.Contains(b.Methods, "dpgibo") {
				b.Dims, b.Methods, b.Seeds, b.CellSuite = []int{d}, []string{"dpgibo"}, seedsDefaults, Paper
				if task == svr.Name {
					// The library study ran before the precision study: its svr cells
					// keep the float64 cross products they were computed with.
					b.Precision = svr.PrecisionFloat64
				}
				return b
			}
		}
		panic("experiments: no dpgibo block of " + task + " in " + fig)
	}
	// withDefaults returns the block's two defaults variants, with the hand-tuned settings
	// that algo's defaults replace cleared, so that neither their stems nor their rows
	// carry values they did not use (the rows give the clip and step the run used).
	withDefaults := func(b runner.Block) []runner.Block {
		b.CellSuite, b.Sweep, b.Values = "", "", nil
		b.Algo.Clip, b.Algo.Step, b.Algo.Lengthscale, b.Algo.NoiseStd = 0, 0, 0, 0
		lib, before := b, b
		lib.Algo.Defaults, before.Algo.Defaults = algocfg.DefaultsLibrary, algocfg.DefaultsBefore
		// The study measured revision 2 and its candidates; revision 3 is its choice.
		lib.Algo.DefaultsRevision = algocfg.Revision2
		out := []runner.Block{lib, before}
		for _, rule := range defaultsCandidates {
			c := lib
			c.Algo.Rule = rule
			out = append(out, c)
		}
		return out
	}
	var out []runner.Figure
	for _, p := range []struct {
		name, fig, task string
		d               int
	}{
		{"defaults-grouplasso", "fig1", "grouplasso", 10},
		{"defaults-gpreg", "fig2a", "gpreg", 5},
		{"defaults-svr", "fig2b", "svr", 103},
	} {
		h := hand(p.fig, p.task, p.d)
		out = append(out, runner.Figure{Name: p.name, Blocks: append([]runner.Block{h}, withDefaults(h)...)})
	}
	own := []struct {
		name, task, data string
		d                int
		width            float64
		clips            []num
		steps            []num
	}{
		{"defaults-bowl", "bowl", "", 5, 1, bowlClipGrid, bowlStepGrid},
		{"defaults-ridge", "ridge", "", 6, 10, ridgeClipGrid, ridgeStepGrid},
		{"defaults-logreg", "logreg", "", 30, 14, logregClipGrid, logregStepGrid},
		{"defaults-wine", "logreg", data.WineLabel, 13, 14, logregClipGrid, logregStepGrid},
		{"defaults-digits", "logreg", data.DigitsLabel, 16, 14, logregClipGrid, logregStepGrid},
		{"defaults-toy", "toy", "", 2, 6, toyClipGrid, toyStepGrid},
	}
	for _, p := range own {
		base := runner.Block{Task: p.task, Data: p.data, Dims: []int{p.d}, DataSeed: 1, Methods: []string{"dpgibo"}, Seeds: seedsDefaults,
			Algo: algocfg.Config{Iters: 20, Mu: 1, Lengthscale: num(p.width / 6)}, Sweep: "clip", Values: p.clips}
		fig := runner.Figure{Name: p.name}
		for _, step := range p.steps {
			for _, seedBase := range []int{0, seedBaseTune} {
				b := base
				b.Algo.Step, b.Label = step, "step="+strconv.FormatFloat(float64(step), 'g', -1, 64)
				if seedBase > 0 {
					b.SeedBase, b.Seeds = seedBase, seedsDefaultsTune
				}
				fig.Blocks = append(fig.Blocks, b)
			}
		}
		fig.Blocks = append(fig.Blocks, withDefaults(base)...)
		out = append(out, fig)
	}
	return out
}
