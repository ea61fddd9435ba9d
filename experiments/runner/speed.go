package runner

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"dpgibo/internal/blasinfo"
	"dpgibo/tasks"
)

// speedTargetSeconds is the committed time of the cell the speed measurement runs for each
// task: long enough that a task's setup is a small share, short enough that the whole
// measurement takes a few seconds.
const speedTargetSeconds = 0.4

// speed is this machine's (and this build's) speed against the committed reproduction's:
// per task, the wall time here of one cell over the time the committed runs measured for
// the same cell (same stem, so the same work). It scales the committed timings for -plan
// and the first ETA; it never changes an output file. The zero speed scales nothing.
type speed struct {
	byTask  map[string]float64
	overall float64 // all measured cells together: for tasks without a measured cell
}

// scale returns seconds, a cost of a cell of task in the committed machine's time, in this
// machine's.
func (s speed) scale(task string, seconds float64) float64 {
	if r, ok := s.byTask[task]; ok {
		return seconds * r
	}
	if s.overall > 0 {
		return seconds * s.overall
	}
	return seconds
}

// measureSpeed runs, for each task of p, the cell whose committed time is closest to
// speedTargetSeconds (one BLAS thread, as the committed runs), discards its output, and
// compares its wall time with the committed one. It returns the speed and one line saying
// what it ran and what it found. A cell that fails is left out.
func measureSpeed(ctx context.Context, o Options, p *runPlan) (speed, string) {
	best := map[string]int{}
	committed := map[string]float64{}
	for i, c := range p.Cells {
		secs, measured := cellCost(c, p.Stems[i])
		if !measured || secs < speedTargetSeconds/8 || secs > speedTargetSeconds*8 {
			continue
		}
		if j, ok := best[c.Task]; !ok || math.Abs(math.Log(secs/speedTargetSeconds)) < math.Abs(math.Log(committed[p.Stems[j]]/speedTargetSeconds)) {
			best[c.Task] = i
		}
		committed[p.Stems[i]] = secs
	}
	blasinfo.SetThreads(1)
	s := speed{byTask: map[string]float64{}}
	var here, there float64
	var parts []string
	for _, task := range sortedKeys(best) {
		i := best[task]
		out, err := runCell(ctx, p.Cells[i], o.NewTask, o.NewMethod, o.DataPath, func(tasks.Task) {})
		if err != nil {
			continue
		}
		took, was := out.Timing.TotalSeconds, committed[p.Stems[i]]
		s.byTask[task] = took / was
		here, there = here+took, there+was
		parts = append(parts, fmt.Sprintf("%s %.2fx", task, took/was))
	}
	if there == 0 {
		return speed{}, "speed: no cell of this run has a committed time to compare with; estimates are the committed machine's"
	}
	s.overall = here / there
	return s, fmt.Sprintf("speed: %d cells (one per task) took %.1f s here against %.1f s in the committed runs: %.2fx (%s); estimates are scaled by it",
		len(parts), here, there, s.overall, strings.Join(parts, ", "))
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
