// Package estimate is the cost of a run before it runs: each cell's expected wall time
// (its committed time when the reproduction timed the same cell, else a cost model of its
// settings), this machine's speed against the committed one, and the plan -plan prints. It
// never changes an output file: the runner orders cells and weighs its progress ETA with
// it.
package estimate

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/internal/progress"
	"dpgibo/reproduction"
	"dpgibo/tasks/catalog"
)

// Cell is what the estimate of one cell reads.
type Cell struct {
	// Stem is the cell's file name stem, which names its committed time.
	Stem string
	// Task is the cell's task as the catalog builds it.
	Task   catalog.Spec
	Method string
	// Budget is the cell's evaluation budget.
	Budget int
	// Local are DP-GIBO's and GIBO's settings, nil for any other method.
	Local *algocfg.Spec
}

// Figure is one figure of a plan: its name and the indices of the cells it uses, each once.
type Figure struct {
	Name  string
	Cells []int
}

// Speed is this machine's (and this build's) speed against the committed reproduction's:
// per task, the wall time here of one cell over the committed time of the same cell. It
// scales committed times for -plan and the first ETA. The zero Speed scales nothing.
type Speed struct {
	ByTask  map[string]float64
	Overall float64 // all measured cells together: for tasks without a measured cell
}

// Scale returns seconds, a cost of a cell of task in the committed machine's time, in this
// machine's.
func (s Speed) Scale(task string, seconds float64) float64 {
	if r, ok := s.ByTask[task]; ok {
		return seconds * r
	}
	if s.Overall > 0 {
		return seconds * s.Overall
	}
	return seconds
}

// The cost model of a cell: its estimated wall time in seconds on one core of the
// reproduction machine with the OpenBLAS build. The runner starts the longest cells first
// with it, weighs cells in the progress ETA with it and prints it with -plan; it never
// changes an output file. The per-evaluation cost of each task is the task catalog's
// (catalog.EvalSeconds); every other fitted constant is here, fitted to the committed
// timings (docs/reproducing.md, "Cost model", gives the measurements behind each), and
// TestCostEstimateMatchesCommittedTimings keeps every figure with committed timings within
// 1.5x of its measured cell-seconds:
//
//		seconds = perEval * (evals + reports + costSetupEvals) + design
//
//	  - evals is the budget, except for an adaptive batch (BiasTol > 0), which grows until the
//	    gradient's posterior trace falls below BiasTol: costAdaptiveShare of the cap at d = 15,
//	    BiasTol = 0.5, sigma <= 0.05, growing as (0.5/BiasTol)^costAdaptiveSharePower and as
//	    (sigma/0.05)^costAdaptiveNoisePower, at most the whole budget;
//	  - reports are the noiseless losses of DP-GIBO's and GIBO's released thetas, T+1 of them
//	    (score-based methods report points they have evaluated, which costs nothing);
//	  - a fixed-batch design costs costFixedDesign T b^costFixedDesignPower;
//	  - the joint adaptive design costs costAdaptiveDesign at the reference point above,
//	    growing with (0.5/BiasTol)^2, with sigma as the evaluations do and with (d/15)^3, up to
//	    costCappedDesign (budget/1600)^2.7 for a design capped at every iteration;
//	  - the windowed adaptive design (Design.GreedyOnly with Design.MaxKept) costs
//	    costWindowDesign per evaluation at d = 15, growing with (d/15)^2;
//	  - a method's own work beyond its evaluations is its baselines.CostHinter's estimate
//	    (GP-UCB and dp-ucb, TPE, DP-HyPO give one; the others' is negligible).
const (
	costSetupEvals          = 5
	costFixedDesign         = 2.2e-5
	costFixedDesignPower    = 2.2
	costAdaptiveShare       = 0.18
	costAdaptiveDesign      = 1.3
	costCappedDesign        = 165
	costAdaptiveNoisePower  = 1.7
	costAdaptiveSharePower  = 0.7
	costWindowDesign        = 1.05e-3
	costUnknownTaskEvalSecs = 1e-3
)

// Seconds is the cell's expected wall time in seconds: its measured time when the committed
// reproduction timed the same cell (same stem, so the same settings), and the cost model's
// estimate otherwise. measured says which. A measured time beats the model most where a
// figure has few cells: a run's cost can depend on where its theta goes (a kernel
// machine's support vectors), so two cells of the same settings and different seeds can
// differ 3x, which no model of the settings can foresee but which repeats with the seed on
// every machine
// (reproduction/bench/plan-check: the committed times predict a run on another CPU within
// 0.79-1.08x per figure).
func Seconds(c Cell) (seconds float64, measured bool) {
	if times, err := reproduction.CellSeconds(); err == nil {
		if s, ok := times[c.Stem]; ok {
			return s, true
		}
	}
	return Model(c), false
}

// Model is the cell's estimated wall time in seconds (see the cost model above).
func Model(c Cell) float64 {
	perEval, err := catalog.EvalSeconds(c.Task)
	if err != nil {
		perEval = costUnknownTaskEvalSecs // a task the catalog does not know (tests, forks)
	}
	d, budget := float64(c.Task.D), float64(c.Budget)
	evals, reports, design := budget, 0.0, 0.0
	switch {
	case c.Local != nil && c.Local.BiasTol > 0:
		tolRatio := 0.5 / float64(c.Local.BiasTol)
		noiseGrowth := math.Pow(max(float64(c.Local.NoiseStd), 0.05)/0.05, costAdaptiveNoisePower)
		evals = budget * min(1, costAdaptiveShare*math.Pow(tolRatio, costAdaptiveSharePower)*noiseGrowth)
		design = min(costAdaptiveDesign*tolRatio*tolRatio*noiseGrowth*math.Pow(d/15, 3),
			costCappedDesign*math.Pow(budget/1600, 2.7))
		if w := c.Local.Design; w != nil && w.GreedyOnly && w.MaxKept > 0 {
			design = costWindowDesign * evals * (d / 15) * (d / 15)
		}
	case c.Local != nil:
		design = costFixedDesign * float64(c.Local.Iters) * math.Pow(float64(c.Local.Batch), costFixedDesignPower)
	default:
		if m, ok := registry.Lookup(c.Method); ok {
			if h, ok := m.(baselines.CostHinter); ok {
				design = h.DesignSeconds(c.Task.D, c.Budget)
			}
		}
	}
	if c.Local != nil {
		reports = float64(c.Local.Iters + 1)
	}
	return perEval*(evals+reports+costSetupEvals) + design
}

// Calibrated reports whether the cost model was fitted on this build's BLAS backend
// (OpenBLAS); the pure-Go build's estimates are uncalibrated.
func Calibrated(backend string) bool { return strings.HasPrefix(backend, "openblas") }

// Print writes, without running anything, every figure's cells, their estimated
// cell-seconds and wall time at workers workers (each figure run alone, -only=NAME), and the
// run's total over its distinct cells (figures share cells, so the total is below the sum),
// with the costs scaled by sp (the zero Speed leaves the committed machine's) and, when
// finished is not nil, the cells it marks left out: what is left of a run to resume.
func Print(w io.Writer, suite string, figs []Figure, cells []Cell, workers int, backend string, sp Speed, finished []bool) error {
	calibrated := Calibrated(backend) || sp.Overall > 0
	mark := ""
	if !calibrated {
		mark = " (uncalibrated)"
	}
	fmt.Fprintf(w, "plan of -suite=%s at -workers=%d: a cell the committed reproduction timed costs its measured time (reproduction/timings-*.csv), any other the cost model's estimate (experiments/estimate, catalog.EvalSeconds)", suite, workers)
	if sp.Overall > 0 {
		fmt.Fprint(w, ", scaled by this machine's measured speed")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "BLAS %s\n", backend)
	if !calibrated {
		fmt.Fprintf(w, "UNCALIBRATED: this build uses BLAS backend %q; the cost model was fitted to the OpenBLAS build (-tags openblas), and pure-Go evaluations measured 1-2.7x slower\n", backend)
	}
	if finished != nil {
		done := 0
		for _, f := range finished {
			if f {
				done++
			}
		}
		fmt.Fprintf(w, "left to run: %d of %d cells are finished in the output directory; the rows below count the other %d\n", done, len(finished), len(finished)-done)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tcells\tcell-seconds\twall time\tmeasured cells")
	costs := make([]float64, len(cells))
	measured := make([]bool, len(cells))
	for i, c := range cells {
		costs[i], measured[i] = Seconds(c)
		costs[i] = sp.Scale(c.Task.Name, costs[i])
	}
	left := func(i int) bool { return finished == nil || !finished[i] }
	for _, fig := range figs {
		var figCosts []float64
		figMeasured := 0
		for _, i := range fig.Cells {
			if !left(i) {
				continue
			}
			figCosts = append(figCosts, costs[i])
			if measured[i] {
				figMeasured++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%d%s\n", fig.Name, len(figCosts), sum(figCosts), duration(progress.WallSeconds(figCosts, workers)), figMeasured, mark)
	}
	var totalCosts []float64
	nMeasured := 0
	for i := range cells {
		if left(i) {
			totalCosts = append(totalCosts, costs[i])
			if measured[i] {
				nMeasured++
			}
		}
	}
	fmt.Fprintf(tw, "total (distinct cells)\t%d\t%.0f\t%s\t%d%s\n", len(totalCosts), sum(totalCosts), duration(progress.WallSeconds(totalCosts, workers)), nMeasured, mark)
	return tw.Flush()
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// duration formats seconds for the plan: whole seconds, as 1h2m3s.
func duration(seconds float64) string {
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}
