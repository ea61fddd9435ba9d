package runner

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"dpgibo/experiments/estimate"
	"dpgibo/internal/blasinfo"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// speedTargetSeconds is the committed time of the cell the speed measurement runs for each
// task: long enough that a task's setup is a small share, short enough that the whole
// measurement takes a few seconds.
const speedTargetSeconds = 0.4

// measureSpeed runs, for each task of p, the cell whose committed time is closest to
// speedTargetSeconds (one BLAS thread, as the committed runs), discards its output, and
// compares its wall time with the committed one. It returns the speed and one line saying
// what it ran and what it found. A cell that fails is left out.
func measureSpeed(ctx context.Context, o Options, p *runPlan) (estimate.Speed, string) {
	best := map[string]int{}
	committed := map[string]float64{}
	for i, c := range p.Cells {
		secs, measured := estimate.Seconds(p.costCell(i))
		if !measured || secs < speedTargetSeconds/8 || secs > speedTargetSeconds*8 {
			continue
		}
		if j, ok := best[c.Task]; !ok || math.Abs(math.Log(secs/speedTargetSeconds)) < math.Abs(math.Log(committed[p.Stems[j]]/speedTargetSeconds)) {
			best[c.Task] = i
		}
		committed[p.Stems[i]] = secs
	}
	blasinfo.SetThreads(1)
	s := estimate.Speed{ByTask: map[string]float64{}}
	var here, there float64
	var parts []string
	for _, task := range slices.Sorted(maps.Keys(best)) {
		i := best[task]
		out, err := runCell(ctx, p.Cells[i], o.NewTask, o.NewMethod, o.DataPath, func(tasks.Task) {})
		if err != nil {
			continue
		}
		took, was := out.Timing.TotalSeconds, committed[p.Stems[i]]
		s.ByTask[task] = took / was
		here, there = here+took, there+was
		parts = append(parts, fmt.Sprintf("%s %.2fx", task, took/was))
	}
	if there == 0 {
		return estimate.Speed{}, "speed: no cell of this run has a committed time to compare with; estimates are the committed machine's"
	}
	s.Overall = here / there
	return s, fmt.Sprintf("speed: %d cells (one per task) took %.1f s here against %.1f s in the committed runs: %.2fx (%s); estimates are scaled by it",
		len(parts), here, there, s.Overall, strings.Join(parts, ", "))
}

// costCell is what the estimate of cell i of p reads.
func (p *runPlan) costCell(i int) estimate.Cell {
	c := p.Cells[i]
	e := estimate.Cell{Stem: p.Stems[i], Method: c.Method, Budget: c.Budget,
		Task: catalog.Spec{Name: c.Task, D: c.D, NTrain: c.NTrain, NVal: c.NVal, Data: c.Data, Precision: cellPrecision(c)}}
	if c.local() {
		e.Local = &c.Spec
	}
	return e
}

// printPlan prints p's plan (estimate.Print): each figure's distinct cells, with the costs
// scaled by sp and, when finished is not nil, the cells it marks left out.
func printPlan(w io.Writer, suite string, p *runPlan, workers int, backend string, sp estimate.Speed, finished []bool) error {
	cells := make([]estimate.Cell, len(p.Cells))
	for i := range p.Cells {
		cells[i] = p.costCell(i)
	}
	figs := make([]estimate.Figure, len(p.Figures))
	for fi, f := range p.Figures {
		figs[fi].Name = f.Name
		for _, ref := range p.Uses[fi] {
			// A cell used under two labels runs once.
			if !slices.Contains(figs[fi].Cells, ref.Cell) {
				figs[fi].Cells = append(figs[fi].Cells, ref.Cell)
			}
		}
	}
	return estimate.Print(w, suite, figs, cells, workers, backend, sp, finished)
}

// planBackend is the backend the plan is printed for (a variable for tests).
var planBackend = blasinfo.Backend
