package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"dpgibo/internal/blasinfo"
	"dpgibo/internal/progress"
)

// calibratedBackend reports whether the cost model was fitted on this build's BLAS backend
// (OpenBLAS); the pure-Go build's estimates are uncalibrated.
func calibratedBackend(backend string) bool { return strings.HasPrefix(backend, "openblas") }

// printCommittedPlan writes, without running anything, every figure's cells, their estimated
// cell-seconds and wall time at workers workers (each figure run alone, -only=NAME), and the
// run's total over its distinct cells (figures share cells, so the total is below the sum).
func printCommittedPlan(w io.Writer, suite string, p *runPlan, workers int, backend string) error {
	return printPlan(w, suite, p, workers, backend, speed{}, nil)
}

// printPlan is printCommittedPlan with the costs scaled by sp (this machine's measured speed; the
// zero speed leaves the committed machine's) and, when finished is not nil, the cells it
// marks left out: what is left of a run to resume.
func printPlan(w io.Writer, suite string, p *runPlan, workers int, backend string, sp speed, finished []bool) error {
	calibrated := calibratedBackend(backend) || sp.overall > 0
	mark := ""
	if !calibrated {
		mark = " (uncalibrated)"
	}
	fmt.Fprintf(w, "plan of -suite=%s at -workers=%d: a cell the committed reproduction timed costs its measured time (reproduction/timings-*.csv), any other the cost model's estimate (experiments/runner/cost.go, catalog.EvalSeconds)", suite, workers)
	if sp.overall > 0 {
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
	costs := make([]float64, len(p.Cells))
	measured := make([]bool, len(p.Cells))
	for i, c := range p.Cells {
		costs[i], measured[i] = cellCost(c, p.Stems[i])
		costs[i] = sp.scale(c.Task, costs[i])
	}
	left := func(i int) bool { return finished == nil || !finished[i] }
	for fi, fig := range p.Figures {
		var figCosts []float64
		figMeasured := 0
		counted := map[int]bool{} // a cell used under two labels runs once
		for _, ref := range p.Uses[fi] {
			if counted[ref.Cell] || !left(ref.Cell) {
				continue
			}
			counted[ref.Cell] = true
			figCosts = append(figCosts, costs[ref.Cell])
			if measured[ref.Cell] {
				figMeasured++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%s\t%d%s\n", fig.Name, len(figCosts), sum(figCosts), duration(progress.WallSeconds(figCosts, workers)), figMeasured, mark)
	}
	var totalCosts []float64
	nMeasured := 0
	for i := range p.Cells {
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

// planBackend is the backend the plan is printed for (a variable for tests).
var planBackend = blasinfo.Backend
