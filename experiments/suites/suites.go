// Package suites holds the figures the project runs: the paper's (section 4 and the
// appendix "Examples"), the private comparison, the peers, the quick suite that exercises
// every code path at tiny sizes, and the design, precision and library studies. Each is a
// list of runner.Figure; runner.Run runs them.
package suites

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"

	"dpgibo/algo"
	"dpgibo/tasks/svr"
)

// num is the suites' number type (runner.Num), inf its +Inf (GIBO's mu).
type num = runner.Num

var inf = num(math.Inf(1))

// The figure suites (go run ./experiments -suite=NAME).
const (
	Paper   = "paper"
	Quick   = "quick"
	Private = "private"
	// PrivateSelect is fig-private-select, the private comparators of the paper's
	// contribution (3); its cells are the private suite's (Block.CellSuite), so that it
	// shares fig-private's DP-GIBO, dp-random and dp-ucb runs.
	PrivateSelect = "private-select"
	Peers         = "peers"
	Design        = "design"
	// Precision is the svr precision study (docs/library.md, "SVR evaluation").
	Precision = "precision"
)

// Names lists the figure suites.
var Names = []string{Paper, Quick, Private, PrivateSelect, Peers, Design, Precision, Defaults, LibraryPeers, LibraryPrivate, LowSNR, Field}

// Settings of the paper's experiments (section 4 and appendix "Examples"). Values the paper
// leaves open are marked "choice" and listed in docs/reproducing.md.
var (
	// Group LASSO, appendix: T = 20, b = d+1, B = 0.1, AdaGrad eta = 1, l = 1, mu = 1.
	groupLassoAlgo = algocfg.Config{Iters: 20, Clip: 0.1, Mu: 1, Step: 1, Lengthscale: 1}
	// GP regression across d (fig2a). Choice: T = 25, b = d+1, B = 3, sigma = 0.05, mu = 1
	// as in the appendix's GP examples; eta = 0.3 (paper).
	gpAcrossDAlgo = algocfg.Config{Iters: 25, Clip: 3, Mu: 1, NoiseStd: 0.05, Step: 0.3, Lengthscale: 1}
	// SVR, appendix: T = 10, b = d+1 = 104, eta = 0.8, B = 1, l = 1, mu = 0.2.
	svrAlgo = algocfg.Config{Iters: 10, Clip: 1, Mu: 0.2, Step: 0.8, Lengthscale: 1}
	// fig2a: the paper gives no B for it. The first fig2a runs used gpAcrossDAlgo's B = 3 and
	// lost (fig2a-b3 keeps them); the data-independent rule algo.NoiseFloorClip (B = 2
	// sigma/l = 0.1 at sigma = 0.05, l = 1) was adopted after that outcome, so the paper's
	// fig2a statements are decided on fig2a-b3 and fig2a is shown beside them.
	// fig-private keeps gpAcrossDAlgo's B = 3.
	fig2aAlgo = withClip(gpAcrossDAlgo, algo.NoiseFloorClip(algo.RBF{Lengthscale: 1, Variance: 1}, 0.05))
	// GP regression d = 15 appendix examples: B = 3, sigma = 0.05, mu = 1, T = 25, eta = 0.3,
	// adaptive batch with bias tolerance 0.5 where the paper sweeps something else.
	gp15Algo = algocfg.Config{Iters: 25, BiasTol: 0.5, Clip: 3, Mu: 1, NoiseStd: 0.05, Step: 0.3, Lengthscale: 1}
)

// Seeds of the paper suite, fixed before the run whose verdicts docs/results.md reports (the claims
// are declared in package dpgibo/figures/claims). Rule: at least the smallest n at which an
// exact paired test can reach alpha = 0.05 after Holm over the figure's k claim tests,
// 2/2^n <= 0.05/k (TestSeedsMeetTheHolmRule checks it against the declared claims), raised
// where the suite affords it: to 30 where one seed costs under a minute of one core (fig3c,
// clip-sweep). fig1, fig2a-b3 and fig2b have the seeds a power analysis of their committed
// seeds chose (reproduction/power/: P(decided) >= 0.8 for their inconclusive statements
// where that costs under 2,000 more cell-seconds, and the statements named for more seeds);
// the committed seeds were the pilot and stay in the analysis (seeds 1..n0 of 1..n).
// fig-peers' SVR curves have 20 (the same power analysis, s4.3-dp-tracks-gibo-mu1). Two
// raises after the results (claims.SeedRaises, declared before their runs, which took the
// committed cells with -from): fig1 to 1,000, and fig-peers' SVR curves of DP-GIBO and GIBO
// to 60 in a block of their own.
const (
	seedsFig1         = 1000
	seedsFig2a        = 12
	seedsFig2aB3      = 30
	seedsFig2b        = 20
	seedsFig2bReal    = 20
	seedsFig3ab       = 12
	seedsFig3c        = 30
	seedsFig3d        = 10
	seedsNoiseMisspec = 10
	seedsClipSweep    = 30
	seedsPrivate      = 11
	// fig-private-select: the Holm rule over its 106 claim tests (2/2^13 <= 0.05/106).
	seedsPrivateSelect  = 13
	seedsPeers          = 10
	seedsPeersSVR       = 20
	seedsPeersSVRRaised = 60
)

// withClip returns a with Clip set to clip.
func withClip(a algocfg.Config, clip float64) algocfg.Config {
	a.Clip = num(clip)
	return a
}

// paperFigures returns the paper suite.
func paperFigures() []runner.Figure {
	fig2b := runner.Block{Task: "svr", Dims: []int{103}, NTrain: 1000, NVal: 9000, DataSeed: 1,
		Methods: []string{"dpgibo", "gibo", "random"}, Seeds: seedsFig2b, Algo: svrAlgo, ThetaCoords: []int{-2, -1}}
	// fig2b-real: fig2b's protocol on the embedded 681 real CT-slice rows (data label
	// ctslice-sample), split by patient: SVR trained on the 583 slices of patient 0, one
	// validation user per slice of patient 1 (98 users).
	fig2bReal := fig2b
	fig2bReal.Data, fig2bReal.NTrain, fig2bReal.NVal, fig2bReal.ThetaCoords = "ctslice-sample", 583, 98, nil
	fig2bReal.Seeds = seedsFig2bReal
	fig3f := fig2b
	fig3f.Methods = []string{"dpgibo", "gibo"}
	fig3f.Seeds = 1

	fig3ab := gp15Algo
	fig3ab.BiasTol = 0
	fig3c := gp15Algo
	fig3d := algocfg.Config{Iters: 45, Clip: 1, Mu: 0.1, Step: 0.3, Lengthscale: 1}
	// noise-misspec: the paper gives no B; algo.NoiseFloorClip at the true evaluation noise
	// 0.01 (B = 0.02), the same for every sigma told to the surrogate so that the sweep
	// varies sigma only.
	misspec := withClip(gp15Algo, algo.NoiseFloorClip(algo.RBF{Lengthscale: 1, Variance: 1}, 0.01))
	misspec.NoiseStd = 0
	clip := gp15Algo
	clip.Clip = 0
	gp15 := func(nTrain, nVal int, methods []string, seeds int, a algocfg.Config, sweep string, values ...num) runner.Block {
		return runner.Block{Task: "gpreg", Dims: []int{15}, NTrain: nTrain, NVal: nVal, DataSeed: 1,
			Methods: methods, Seeds: seeds, Algo: a, Sweep: sweep, Values: values}
	}
	dp := []string{"dpgibo"}
	// The adaptive-batch figures the design study covered run the design it showed
	// non-inferior (candidateDesign); clip-sweep, which the study did not cover, keeps the
	// design of its committed run.
	fig3ab.Design, fig3c.Design, misspec.Design = &candidateDesign, &candidateDesign, &candidateDesign
	misspecBlock := gp15(1000, 1000, []string{"dpgibo", "random"}, seedsNoiseMisspec, misspec, "noise_std", 0.01, 1, 1e-4)
	misspecBlock.EvalNoise = 0.01

	return []runner.Figure{
		{Name: "fig1", Blocks: []runner.Block{{Task: "grouplasso", Dims: []int{2, 10, 20}, DataSeed: 1,
			Methods: []string{"dpgibo", "gibo", "random"}, Seeds: seedsFig1, Algo: groupLassoAlgo}}},
		{Name: "fig2a", Blocks: fig2aBlocks()},
		{Name: "fig2a-clip", Blocks: fig2aClipBlocks()},
		{Name: "fig2a-b3", Blocks: fig2aB3Blocks()},
		{Name: "fig2b", Blocks: []runner.Block{fig2b}},
		{Name: "fig2b-real", Blocks: []runner.Block{fig2bReal}},
		{Name: "fig3f", Theta: true, Blocks: []runner.Block{fig3f}},
		{Name: "fig3ab", Blocks: []runner.Block{gp15(1000, 1000, dp, seedsFig3ab, fig3ab, "bias_tol", 0.1, 0.3, 0.5, 1, 2)}},
		{Name: "fig3c", Blocks: []runner.Block{gp15(350, 350, dp, seedsFig3c, fig3c, "mu", 0.1, 0.5, 1, inf)}},
		{Name: "fig3d", Blocks: []runner.Block{gp15(1000, 1000, dp, seedsFig3d, fig3d, "noise", 0, 0.001, 0.01, 0.1, 1)}},
		{Name: "noise-misspec", Blocks: []runner.Block{misspecBlock}},
		{Name: "clip-sweep", Blocks: []runner.Block{gp15(500, 500, dp, seedsClipSweep, clip, "clip", 0.1, 1, 10, 100)}},
		// speedup: contribution (4), Line 4's adaptive batch (BiasTol 0.5, fig3ab's settings:
		// its bias_tol=0.5 cells) against a fixed batch of d + 1 points per iteration as in
		// earlier GIBO implementations (bias_tol=0), same T, seeds and everything else.
		{Name: "speedup", Blocks: []runner.Block{gp15(1000, 1000, dp, seedsFig3ab, fig3ab, "bias_tol", 0, 0.5)}},
	}
}

// fig2aBlocks is fig2a: DP-GIBO with the B rule's clip; GIBO, the non-private reference,
// keeps B = 3, at which it clips almost no user (at most 6% in any iteration, 0.2% on
// average over a 6-seed run), i.e. GIBO without clipping as the paper runs it.
func fig2aBlocks() []runner.Block {
	private := runner.Block{Task: "gpreg", Dims: []int{2, 5, 10}, NTrain: 1000, NVal: 1000, DataSeed: 1,
		Methods: []string{"dpgibo"}, Seeds: seedsFig2a, Algo: fig2aAlgo}
	rest := private
	rest.Methods, rest.Algo = []string{"gibo", "random", "ucb"}, gpAcrossDAlgo
	return []runner.Block{private, rest}
}

// fig2aB3Blocks is fig2a-b3: fig2a with DP-GIBO at B = 3, the clip of the first fig2a runs,
// which lost; fig2a's B rule (0.1) was chosen after those results. Judged with fig2a's claims
// so that both choices of B are shown. Every curve but DP-GIBO's is fig2a's (same cells) at
// fig2a's seeds; fig2a-b3 has more seeds than fig2a.
func fig2aB3Blocks() []runner.Block {
	return []runner.Block{{Task: "gpreg", Dims: []int{2, 5, 10}, NTrain: 1000, NVal: 1000, DataSeed: 1,
		Methods: []string{"dpgibo", "gibo", "random", "ucb"}, Seeds: seedsFig2aB3, Algo: gpAcrossDAlgo}}
}

// fig2aClipBlocks is fig2a-clip: DP-GIBO at fig2a's settings and d = 10 with B in
// {0.1, 0.3, 1, 3} and with adaptive clipping (algo's defaults: target median, rate 0.2, a
// tenth of mu^2 on the counts) from B_0 = fig2a's rule value, so that the reader sees what
// the choice of B does. Its seeds are fig2a's, so the B = 0.1 runs are fig2a's d = 10 runs.
func fig2aClipBlocks() []runner.Block {
	fixed := runner.Block{Task: "gpreg", Dims: []int{10}, NTrain: 1000, NVal: 1000, DataSeed: 1,
		Methods: []string{"dpgibo"}, Seeds: seedsFig2a, Algo: fig2aAlgo, Sweep: "clip", Values: []num{0.1, 0.3, 1, 3}}
	adaptive := fixed
	adaptive.Sweep, adaptive.Values = "", nil
	adaptive.Algo.AdaptiveClip = &algocfg.AdaptiveClip{}
	return []runner.Block{fixed, adaptive}
}

// candidateDesign is the batch design of the design-equivalence study (docs/library.md,
// "Batch design"): one L-BFGS start per greedily added point, no joint refinement, and the
// last 8(d+1) design points kept (128 at d = 15). The study showed it non-inferior to
// jointDesign on every sweep value of fig3ab, fig3c and noise-misspec, which now run it.
var candidateDesign = algocfg.Design{Starts: 1, GreedyOnly: true, MaxKept: 128}

// jointDesign is the design of every run before the study (three starts, joint refinement,
// every point kept): the pinned values, spelled out.
var jointDesign = algocfg.Design{Starts: algocfg.PinnedDesignStarts, Evals: algocfg.PinnedDesignEvals}

// fixedCandidateDesign is the candidate of the design study's fixed-batch extension
// (declared in docs/library.md before it ran): one L-BFGS start per greedily added point, no
// joint refinement, every design point kept (Algorithm 1, line 6, unchanged).
var fixedCandidateDesign = algocfg.Design{Starts: 1, GreedyOnly: true}

// studySeeds are the seeds of figures whose suite seeds were raised after the design and
// precision studies ran on them: a committed study keeps the seeds it ran with. (The
// precision study's fig-peers curves of tpe and cmaes ran with goptuna's, now goptuna-tpe
// and goptuna-cmaes, before those names passed to the project's own implementations.)
var studySeeds = map[string]int{"fig1": 30, "fig2b": 9, "fig-peers": 10}

// withStudySeeds returns b with at most the seeds the studies ran fig with.
func withStudySeeds(fig string, b runner.Block) runner.Block {
	if n, ok := studySeeds[fig]; ok && b.Seeds > n {
		b.Seeds = n
	}
	return b
}

// designFigures returns the design suite, the design-equivalence study: for each adaptive
// figure it covers (fig3ab, fig3c, noise-misspec), DP-GIBO's runs at the paper suite's
// settings and seeds with jointDesign (figure joint-NAME, the runs of NAME before the study)
// and with candidateDesign (figure design-NAME, the paper suite's runs of NAME since); for
// each fixed-batch figure of its extension (fig1, fig2a, fig2b, fig2b-real, fig3d), the same
// with fixedCandidateDesign. go run ./figures pairs them by seed.
func designFigures() []runner.Figure {
	var out []runner.Figure
	for _, f := range paperFigures() {
		var design *algocfg.Design
		switch f.Name {
		case "fig3ab", "fig3c", "noise-misspec":
			design = &candidateDesign
		case "fig1", "fig2a", "fig2b", "fig2b-real", "fig3d":
			design = &fixedCandidateDesign
		default:
			continue
		}
		old, candidate := runner.Figure{Name: "joint-" + f.Name}, runner.Figure{Name: "design-" + f.Name}
		for _, b := range f.Blocks {
			if !slices.Contains(b.Methods, "dpgibo") {
				continue
			}
			b = withStudySeeds(f.Name, b)
			b.Methods = []string{"dpgibo"}
			b.CellSuite = Paper
			b.Algo.Design = &jointDesign
			old.Blocks = append(old.Blocks, b)
			b.Algo.Design = design
			candidate.Blocks = append(candidate.Blocks, b)
		}
		out = append(out, old, candidate)
	}
	return out
}

// precisionPrefix names the figures of the svr precision study: figure precisionPrefix+NAME
// holds the svr blocks of NAME (every method, the same settings and seeds) run with
// single-precision cross products in the prediction; NAME's committed runs, computed in
// double precision, are the reference.
const precisionPrefix = "f32-"

// precisionFigures returns the precision suite, the svr precision study: for every figure of
// the paper, private and peers suites with svr blocks, those blocks with Precision
// float32, computed as cells of their own suite (so that a suite whose svr default becomes
// float32 reuses them).
func precisionFigures() []runner.Figure {
	var out []runner.Figure
	for _, suite := range []struct {
		name string
		figs []runner.Figure
	}{{Paper, paperFigures()}, {Private, privateFigures()}, {Peers, peersFigures()}} {
		for _, f := range suite.figs {
			study := runner.Figure{Name: precisionPrefix + f.Name, Theta: f.Theta}
			for _, b := range f.Blocks {
				// A block that only adds seeds to a figure's curves (a seed raise) adds
				// nothing to a study with its own seeds.
				if b.Task != svr.Name || b.SeedBase > 0 {
					continue
				}
				b = withStudySeeds(f.Name, b)
				b.CellSuite, b.Precision = suite.name, svr.PrecisionFloat32
				study.Blocks = append(study.Blocks, b)
			}
			if len(study.Blocks) > 0 {
				out = append(out, study)
			}
		}
	}
	return out
}

// privateFigures returns the private suite: fig-private, every method private at equal mu
// and equal evaluation budget T(d+1).
func privateFigures() []runner.Figure {
	methods := []string{"dpgibo", "dp-random", "dp-ucb"}
	return []runner.Figure{{Name: "fig-private", Blocks: []runner.Block{
		{Task: "grouplasso", Dims: []int{2, 10, 20}, DataSeed: 1, Methods: methods,
			Seeds: seedsPrivate, Algo: groupLassoAlgo, Sweep: "mu", Values: []num{1, 0.2}},
		// Non-private UCB-BO beside its private version: section 4.2 calls fig2a's UCB-BO
		// curves an optimistic lower bound on what a private UCB-BO could achieve.
		{Task: "gpreg", Dims: []int{2, 5, 10}, NTrain: 1000, NVal: 1000, DataSeed: 1, Methods: append(methods, "ucb"),
			Seeds: seedsPrivate, Algo: gpAcrossDAlgo, Sweep: "mu", Values: []num{1, 0.2}},
		{Task: "svr", Dims: []int{103}, NTrain: 1000, NVal: 9000, DataSeed: 1, Methods: []string{"dpgibo", "dp-random"},
			Seeds: seedsPrivate, Algo: svrAlgo, Sweep: "mu", Values: []num{1, 0.2}},
	}}}
}

// privateSelectMethods are the private comparators of fig-private-select besides DP-GIBO:
// the global private baselines, report-noisy-max, the private selections with a random
// number of trials (Liu and Talwar; Papernot and Steinke) and DP-HyPO.
var privateSelectMethods = []string{"dp-random", "dp-ucb", "dp-rnm", "dp-select-geometric", "dp-select-negbin", "dp-select-poisson", "dp-hypo"}

// privateSelectFigures returns fig-private-select: DP-GIBO against every private method
// the paper cites (docs/library.md, "Private comparators"), each at DP-GIBO's evaluation
// budget T(d+1) (the mean number of trials of the random-count selections), on fig-private's
// tasks and settings. Primary currency at mu in {1, 0.5}: every comparator at the
// (epsilon, 1e-5) of DP-GIBO's mu-GDP, with non-private random search beside them (the
// DP-HyPO sentence compares with it). Secondary currency at mu = 1 (label currency=gdp):
// the methods whose guarantee implies mu-GDP, at DP-GIBO's mu-GDP. dp-ucb, like in
// fig-private, is not run on SVR (d = 103). Its cells are the private suite's, so that
// DP-GIBO's, dp-random's and dp-ucb's cells at mu = 1 are fig-private's (same settings) for
// seeds 1 to 11.
func privateSelectFigures() []runner.Figure {
	primary := append(append([]string{"dpgibo"}, privateSelectMethods...), "random")
	gdp := []string{"dpgibo", "dp-random", "dp-ucb", "dp-rnm", "dp-select-geometric"}
	withoutUCB := func(ms []string) []string {
		return slices.DeleteFunc(slices.Clone(ms), func(m string) bool { return m == "dp-ucb" })
	}
	gdpAlgo := func(a algocfg.Config) algocfg.Config {
		a.Currency = algocfg.CurrencyGDP
		return a
	}
	var blocks []runner.Block
	for _, t := range []struct {
		task         string
		dims         []int
		nTrain, nVal int
		algo         algocfg.Config
		dropUCB      bool
	}{
		{"grouplasso", []int{2, 10, 20}, 0, 0, groupLassoAlgo, false},
		{"gpreg", []int{2, 5, 10}, 1000, 1000, gpAcrossDAlgo, false},
		{"svr", []int{103}, 1000, 9000, svrAlgo, true},
	} {
		p := runner.Block{Task: t.task, CellSuite: Private, Dims: t.dims, NTrain: t.nTrain, NVal: t.nVal, DataSeed: 1, Methods: primary,
			Seeds: seedsPrivateSelect, Algo: t.algo, Sweep: "mu", Values: []num{1, 0.5}}
		g := p
		g.Methods, g.Algo, g.Values, g.Label = gdp, gdpAlgo(t.algo), []num{1}, algocfg.GDPBlockLabel
		if t.dropUCB {
			p.Methods, g.Methods = withoutUCB(p.Methods), withoutUCB(g.Methods)
		}
		blocks = append(blocks, p, g)
	}
	return []runner.Figure{{Name: "fig-private-select", Blocks: blocks}}
}

// peersFigures returns the peers suite: fig-peers, DP-GIBO (mu = 1 and 0.2) beside GIBO,
// random search, TPE and CMA-ES, every method at the evaluation budget
// T(d+1) of DP-GIBO. Each task keeps the settings of its paper figure: fig1's for group
// LASSO, fig2a's for GP regression (DP-GIBO with the B rule, GIBO with B = 3) and fig2b's
// for SVR.
func peersFigures() []runner.Figure {
	mus := []num{1, 0.2}
	others := []string{"gibo", "random", "tpe", "cmaes"}
	all := append([]string{"dpgibo"}, others...)
	gpPrivate := runner.Block{Task: "gpreg", Dims: []int{5, 10}, NTrain: 1000, NVal: 1000, DataSeed: 1,
		Methods: []string{"dpgibo"}, Seeds: seedsPeers, Algo: fig2aAlgo, Sweep: "mu", Values: mus}
	gpRest := gpPrivate
	gpRest.Methods, gpRest.Algo, gpRest.Sweep, gpRest.Values = others, gpAcrossDAlgo, "", nil
	return []runner.Figure{{Name: "fig-peers", Blocks: []runner.Block{
		{Task: "grouplasso", Dims: []int{10, 20}, DataSeed: 1, Methods: all,
			Seeds: seedsPeers, Algo: groupLassoAlgo, Sweep: "mu", Values: mus},
		gpPrivate, gpRest,
		{Task: "svr", Dims: []int{103}, NTrain: 1000, NVal: 9000, DataSeed: 1, Methods: all,
			Seeds: seedsPeersSVR, Algo: svrAlgo, Sweep: "mu", Values: mus},
		{Task: "svr", Dims: []int{103}, NTrain: 1000, NVal: 9000, DataSeed: 1, Methods: []string{"dpgibo", "gibo"},
			SeedBase: seedsPeersSVR, Seeds: seedsPeersSVRRaised - seedsPeersSVR, Algo: svrAlgo, Sweep: "mu", Values: mus},
	}}}
}

// quickFigures returns every figure of the paper, private and peers suites at tiny sizes:
// the same code paths (every task, method, sweep and output) in seconds.
func quickFigures() []runner.Figure {
	figs := append(paperFigures(), privateFigures()...)
	for _, f := range privateSelectFigures() {
		for bi := range f.Blocks {
			f.Blocks[bi].CellSuite = "" // the quick suite's own cells
		}
		figs = append(figs, f)
	}
	figs = append(figs, peersFigures()...)
	for fi := range figs {
		// A block that only adds seeds to a figure's curves (a seed raise) adds nothing at
		// the quick suite's sizes.
		figs[fi].Blocks = slices.DeleteFunc(figs[fi].Blocks, func(b runner.Block) bool { return b.SeedBase > 0 })
	}
	for fi := range figs {
		for bi := range figs[fi].Blocks {
			b := &figs[fi].Blocks[bi]
			if b.Seeds > 2 {
				b.Seeds = 2
			}
			b.Algo.Iters = 3
			switch b.Task {
			case "grouplasso":
				b.Dims = []int{2, 3}
				b.NTrain, b.NVal = 30, 40
			case "gpreg":
				// A figure at one d (the paper's d = 15 sweeps, fig2a-clip) stays at one d.
				single := len(b.Dims) == 1
				b.Dims = []int{2, 3}
				if single || len(figs[fi].Blocks) == 1 && len(b.Values) > 0 {
					b.Dims = []int{3}
				}
				b.NTrain, b.NVal = 30, 30
			case "svr":
				b.Dims = []int{5}
				b.NTrain, b.NVal = 40, 40
			}
			if b.Algo.BiasTol > 0 || b.Sweep == "bias_tol" {
				b.Algo.MaxBatch = 6
			}
			if len(b.Values) > 3 {
				// Keep the ends of every sweep and one interior value.
				b.Values = []num{b.Values[0], b.Values[len(b.Values)/2], b.Values[len(b.Values)-1]}
			}
		}
	}
	return figs
}

// Figures returns the figures of the figure suite, restricted to the figure only when it
// is not empty. Each call builds them anew, so a caller may add a method to a block, or
// change a block's seeds, without changing what the next call returns.
func Figures(suite, only string) ([]runner.Figure, error) {
	var figs []runner.Figure
	switch suite {
	case Paper:
		figs = paperFigures()
	case Private:
		figs = privateFigures()
	case PrivateSelect:
		figs = privateSelectFigures()
	case Peers:
		figs = peersFigures()
	case Quick:
		figs = quickFigures()
	case Design:
		figs = designFigures()
	case Precision:
		figs = precisionFigures()
	case Defaults:
		figs = defaultsFigures()
	case LibraryPeers:
		figs = libraryPeersFigures()
	case LibraryPrivate:
		figs = libraryPrivateFigures()
	case LowSNR:
		figs = lowSNRFigures()
	case Field:
		figs = fieldFigures()
	default:
		return nil, fmt.Errorf("unknown suite %q (known: %s)", suite, strings.Join(Names, ", "))
	}
	if only == "" {
		return figs, nil
	}
	var names []string
	for _, f := range figs {
		if f.Name == only {
			return []runner.Figure{f}, nil
		}
		names = append(names, f.Name)
	}
	return nil, fmt.Errorf("unknown figure %q for -suite=%s (known: %s)", only, suite, strings.Join(names, ", "))
}
