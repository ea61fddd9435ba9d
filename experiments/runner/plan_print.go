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
func CalibratedBackend(backend string) bool { return strings.HasPrefix(backend, "openblas") }

// printPlan writes, without running anything, every figure's cells, their estimated
// cell-seconds and wall time at workers workers (each figure run alone, -only=NAME), and the
// run's total over its distinct cells (figures share cells, so the total is below the sum).
func PrintPlan(w io.Writer, suite string, p *Plan, workers int, backend string) error {
	calibrated := CalibratedBackend(backend)
	mark := ""
	if !calibrated {
		mark = " (uncalibrated)"
	}
	fmt.Fprintf(w, "plan of -suite=%s at -workers=%d: a cell the committed reproduction timed costs its measured time (reproduction/timings-*.csv), any other the cost model's estimate (experiments/runner/cost.go, catalog.EvalSeconds)\n", suite, workers)
	fmt.Fprintf(w, "BLAS %s\n", backend)
	if !calibrated {
		fmt.Fprintf(w, "UNCALIBRATED: this build uses BLAS backend %q; the cost model was fitted to the OpenBLAS build (-tags openblas), and pure-Go evaluations measured 1-2.7x slower\n", backend)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tcells\tcell-seconds\twall time\tmeasured cells")
	costs := make([]float64, len(p.Cells))
	measured := make([]bool, len(p.Cells))
	nMeasured := 0
	for i, c := range p.Cells {
		costs[i], measured[i] = CellCost(c, p.Stems[i])
		if measured[i] {
			nMeasured++
		}
	}
	for fi, fig := range p.Figures {
		var figCosts []float64
		figMeasured := 0
		counted := map[int]bool{} // a cell used under two labels runs once
		for _, ref := range p.Uses[fi] {
			if counted[ref.Cell] {
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
	fmt.Fprintf(tw, "total (distinct cells)\t%d\t%.0f\t%s\t%d%s\n", len(costs), sum(costs), duration(progress.WallSeconds(costs, workers)), nMeasured, mark)
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
