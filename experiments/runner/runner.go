package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"dpgibo/experiments/estimate"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/cellstore"
	"dpgibo/internal/pool"
	"dpgibo/internal/progress"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
	"dpgibo/tasks"
)

// Shard selects a deterministic subset of a run's cells: cell i (in plan order) belongs to
// shard i mod N. K counts from 0 (SLURM_ARRAY_TASK_ID with --array=0-(N-1), or a Kubernetes
// indexed Job's JOB_COMPLETION_INDEX). The zero Shard is the whole run.
type Shard struct{ K, N int }

func (s Shard) Owns(i int) bool { return s.N <= 1 || i%s.N == s.K }

func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// ParseShard reads "K/N" with 0 <= K < N (the -shard flag).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	bad := fmt.Errorf("-shard must be K/N with 0 <= K < N (e.g. 0/4), got %q", s)
	ks, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, bad
	}
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || n < 1 || k < 0 || k >= n {
		return Shard{}, bad
	}
	return Shard{K: k, N: n}, nil
}

// cellRunner executes the cells of a plan with a pool of workers. Each finished cell is written
// to OUT/cells/ atomically (rows, then theta paths, then the timing file that marks the cell
// done), so a run killed at any moment loses only the cells in flight, and -resume skips
// every cell whose done file exists.
type cellRunner struct {
	Out     string
	Workers int
	Resume  bool
	Shard   Shard
	// Only is the -only figure: Merge then writes timings-NAME.csv, leaving the full run's
	// timings.csv alone.
	Only string
	// Args is the command line, for the commands that messages suggest.
	Args []string
	// AllowMixedBackend admits cells computed with another BLAS backend (or OpenBLAS core
	// type) than this build's on -resume, and cells of several backends in one merge.
	AllowMixedBackend bool
	DataPath          string
	NewTask           TaskFactory
	NewMethod         MethodFactory
	// Progress reports finished cells (nil: none).
	Progress progress.Reporter
	// Warnings receives one line per run when a task runs on stand-in data (nil: none).
	Warnings io.Writer

	warnOnce sync.Once
	// methodWarned holds the methods' warnings already printed (each once per run).
	methodWarnMu sync.Mutex
	methodWarned map[string]bool
	// speed scales the committed costs into this machine's time for the progress ETA.
	speed estimate.Speed
	// cellBLAS lists the distinct backends of the merged cells (set by Merge).
	cellBLAS []string
	// afterCell, when set, is called after each cell is written (tests cancel midway with it).
	afterCell func()
}

func (r *cellRunner) cellsDir() string { return filepath.Join(r.Out, "cells") }

// store is the runner's cell store, OUT/cells.
func (r *cellRunner) store() cellstore.Store { return cellstore.Store{Dir: r.cellsDir()} }

func (r *cellRunner) cellPath(stem, kind string) string { return r.store().Path(stem, kind) }

// verifyCell checks the cell's files against its done record (cellstore.Store.Verify).
func (r *cellRunner) verifyCell(stem string, spec cellSpec) (*records.CellDone, error) {
	return r.store().Verify(stem, len(spec.ThetaCoords) > 0)
}

// warn prints the warning of a task that says it has one (its data are a stand-in) once
// per run.
func (r *cellRunner) warn(t tasks.Task) {
	w, ok := t.(interface{ Warning() string })
	if !ok || w.Warning() == "" || r.Warnings == nil {
		return
	}
	r.warnOnce.Do(func() { fmt.Fprintln(r.Warnings, w.Warning()) })
}

// warnMethod prints each distinct warning of a method's result once per run, naming the
// first cell that raised it.
func (r *cellRunner) warnMethod(cell string, warnings []string) {
	if r.Warnings == nil || len(warnings) == 0 {
		return
	}
	r.methodWarnMu.Lock()
	defer r.methodWarnMu.Unlock()
	for _, w := range warnings {
		if r.methodWarned[w] {
			continue
		}
		if r.methodWarned == nil {
			r.methodWarned = map[string]bool{}
		}
		r.methodWarned[w] = true
		fmt.Fprintf(r.Warnings, "warning: %s (first raised by %s; printed once per run)\n", w, cell)
	}
}

// Todo lists the cells of p that Execute is to run: those of the runner's shard, less, with
// Resume, the finished ones that pass verification (verifyCell). A finished cell that fails
// it is run again, with a note on Warnings saying why. With Resume, a finished cell computed
// with another BLAS backend than this build's is an error naming both, unless
// AllowMixedBackend.
func (r *cellRunner) Todo(p *runPlan) ([]int, error) {
	var todo []int
	for i, stem := range p.Stems {
		if !r.Shard.Owns(i) {
			continue
		}
		if !r.Resume {
			todo = append(todo, i)
			continue
		}
		rec, err := r.verifyCell(stem, p.Cells[i])
		switch {
		case err == nil:
			if backend := blasinfo.Backend(); rec.BLAS != backend && !r.AllowMixedBackend {
				return nil, fmt.Errorf("cell %s was computed with BLAS backend %q, this build uses %q: resuming would mix the two in one result (they agree to rounding only); resume with the build that made the cells (%s), use another -out, or pass -allow-mixed-backend",
					stem, rec.BLAS, backend, runinfo.ResumeWithBackend(rec.BLAS, r.Args))
			}
			continue
		case !cellstore.IsMissing(err):
			if r.Warnings != nil {
				fmt.Fprintf(r.Warnings, "cell %s: %v; running it again\n", stem, err)
			}
			if err := os.Remove(r.cellPath(stem, "done")); err != nil && !cellstore.IsMissing(err) {
				return nil, fmt.Errorf("cell %s: %w", stem, err)
			}
		}
		todo = append(todo, i)
	}
	return todo, nil
}

// finishedOwned counts the shard's cells of p and those of them that are finished (a done
// file, verified or not).
func (r *cellRunner) finishedOwned(p *runPlan) (finished, owned int) {
	for i, stem := range p.Stems {
		if r.Shard.Owns(i) {
			owned++
			if r.store().Done(stem) {
				finished++
			}
		}
	}
	return finished, owned
}

// refuseFinished returns ErrFinishedCells, with the command that resumes, when the shard's
// cells of p include finished ones, and nil otherwise.
func (r *cellRunner) refuseFinished(p *runPlan) error {
	finished, owned := r.finishedOwned(p)
	if finished == 0 {
		return nil
	}
	how := "set Options.Resume to continue it, or Options.Overwrite to compute them again"
	if cmd := runinfo.Rerun(r.Args, "-resume"); cmd != "" {
		how = "continue it with: " + cmd + " (or add -overwrite to compute them again)"
	}
	return finishedCellsError(fmt.Sprintf("%s holds %d of this run's %d cells finished; %s", r.Out, finished, owned, how))
}

// finishedCellsError is ErrFinishedCells with its message.
type finishedCellsError string

func (e finishedCellsError) Error() string        { return string(e) }
func (e finishedCellsError) Is(target error) bool { return target == ErrFinishedCells }

// found is the number of the shard's cells of p that are not in todo: those a resumed run
// found finished.
func (r *cellRunner) found(p *runPlan, todo []int) int {
	owned := 0
	for i := range p.Stems {
		if r.Shard.Owns(i) {
			owned++
		}
	}
	return owned - len(todo)
}

// Execute runs the cells todo of p (from Todo). It returns the first error; cells finished
// before it are kept.
func (r *cellRunner) Execute(ctx context.Context, p *runPlan, todo []int) error {
	if err := os.MkdirAll(r.cellsDir(), 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	// Longest cells first keeps the pool busy to the end; the order does not change any
	// output file.
	costs := make([]float64, len(p.Cells))
	for _, i := range todo {
		costs[i], _ = estimate.Seconds(p.costCell(i))
	}
	sort.SliceStable(todo, func(a, b int) bool { return costs[todo[a]] > costs[todo[b]] })
	workers := r.Workers
	if workers < 1 {
		workers = 1
	}
	if r.Progress != nil {
		// The progress ETA weighs the cells in this machine's time (r.speed); the order
		// above stays the committed costs'.
		scaled := make([]float64, len(costs))
		for _, i := range todo {
			scaled[i] = r.speed.Scale(p.Cells[i].Task, costs[i])
		}
		costs = scaled
		todoCosts := make([]float64, len(todo))
		for k, i := range todo {
			todoCosts[k] = costs[i]
		}
		r.Progress.Start(todoCosts, r.found(p, todo), workers)
		defer r.Progress.Finish()
	}
	firstErr := pool.Run(ctx, workers, len(todo), func(ctx context.Context, k int) error {
		i := todo[k]
		spec, stem := p.Cells[i], p.Stems[i]
		name := progress.CellName(p.Users[i], stem)
		if r.Progress != nil {
			r.Progress.Begin(name, costs[i])
		}
		out, err := runCell(ctx, spec, r.NewTask, r.NewMethod, r.DataPath, r.warn)
		if err == nil {
			r.warnMethod(name, out.Warnings)
			err = r.writeCell(stem, spec, out)
		}
		if err != nil {
			if ctx.Err() != nil {
				// Interrupted: the caller reports the cancellation, not this cell.
				return nil
			}
			return fmt.Errorf("cell %s (%s): %w", stem, strings.Join(p.Users[i], ", "), err)
		}
		if r.Progress != nil {
			r.Progress.Step(name, costs[i])
		}
		if r.afterCell != nil {
			r.afterCell()
		}
		return nil
	})
	if firstErr != nil {
		return firstErr
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted (finished cells are kept; rerun with -resume): %w", err)
	}
	return nil
}

// writeCell writes the cell's files into the store, the done record (with their checksums)
// last.
func (r *cellRunner) writeCell(stem string, spec cellSpec, out *cellOutput) error {
	return r.store().Write(stem, out.Rows, out.Theta, len(spec.ThetaCoords) > 0, out.Timing, blasinfo.Backend())
}

// missing returns the stems of the plan's cells without a done file.
func (r *cellRunner) missing(p *runPlan) []string {
	var out []string
	for _, stem := range p.Stems {
		if !r.store().Done(stem) {
			out = append(out, stem)
		}
	}
	return out
}

// errIncomplete is returned by Merge when cells are missing.
var errIncomplete = errors.New("cells are missing")

// Merge writes every figure's CSV, fstar.csv and timings.csv (timings-NAME.csv for an -only
// run) from the cell files, in plan order. The files depend only on the cells' contents, never on how
// many workers or shards made them. Every cell is verified against its done record first; a
// cell that fails, or cells of several BLAS backends (unless AllowMixedBackend), make Merge
// write nothing and name the cell.
func (r *cellRunner) Merge(p *runPlan) error {
	recs, err := r.verifyAll(p)
	if err != nil {
		return err
	}
	for fi, fig := range p.Figures {
		var data []byte
		if fig.Theta {
			data, err = mergeCells(r, p, fi, "theta", func(t *records.ThetaRow, fig, _ string) { t.Figure = fig })
		} else {
			data, err = mergeCells(r, p, fi, "rows", func(t *records.Row, fig, config string) { t.Figure, t.Config = fig, config })
		}
		if err != nil {
			return fmt.Errorf("figure %s: %w", fig.Name, err)
		}
		if err := records.WriteFileAtomic(filepath.Join(r.Out, fig.Name+".csv"), data); err != nil {
			return err
		}
	}
	if err := r.writeTimings(p, recs); err != nil {
		return err
	}
	return r.writeFStar(p)
}

// verifyAll checks that every cell of p is done and intact and that all were computed with
// one BLAS backend (unless AllowMixedBackend), and returns their done records.
func (r *cellRunner) verifyAll(p *runPlan) ([]*records.CellDone, error) {
	if miss := r.missing(p); len(miss) > 0 {
		return nil, fmt.Errorf("%w: %d of %d cells in %s have no done file (first: %s); run the remaining shards or rerun with -resume",
			errIncomplete, len(miss), len(p.Stems), r.cellsDir(), miss[0])
	}
	recs := make([]*records.CellDone, len(p.Stems))
	firstOf := map[string]string{} // backend -> first cell computed with it
	r.cellBLAS = nil
	for i, stem := range p.Stems {
		rec, err := r.verifyCell(stem, p.Cells[i])
		if err != nil {
			return nil, fmt.Errorf("cell %s cannot be merged: %w; rerun with -resume to compute it again", stem, err)
		}
		recs[i] = rec
		if _, ok := firstOf[rec.BLAS]; !ok {
			firstOf[rec.BLAS] = stem
			r.cellBLAS = append(r.cellBLAS, rec.BLAS)
		}
	}
	if len(r.cellBLAS) > 1 && !r.AllowMixedBackend {
		a, b := r.cellBLAS[0], r.cellBLAS[1]
		return nil, fmt.Errorf("cells were computed with different BLAS backends, %q (e.g. %s) and %q (e.g. %s), which agree to rounding only; rerun one part with the other's build, or pass -allow-mixed-backend",
			a, firstOf[a], b, firstOf[b])
	}
	return recs, nil
}

// mergeCells reads the kind ("rows" or "theta") file of every cell figure fi uses, in plan
// order, labels each row with the figure and the cell's config, and encodes them.
func mergeCells[T any](r *cellRunner, p *runPlan, fi int, kind string, label func(row *T, figure, config string)) ([]byte, error) {
	var all []T
	for _, ref := range p.Uses[fi] {
		rows, err := records.ReadFile[T](r.cellPath(p.Stems[ref.Cell], kind))
		if err != nil {
			return nil, err
		}
		for i := range rows {
			label(&rows[i], p.Figures[fi].Name, ref.Label)
		}
		all = append(all, rows...)
	}
	return records.Marshal(all)
}

// writeTimings writes the timing of every cell of p, with the figures that use it and its
// config label (timings.csv, or timings-NAME.csv for an -only run).
func (r *cellRunner) writeTimings(p *runPlan, recs []*records.CellDone) error {
	labels := make([]string, len(p.Stems))
	for fi := range p.Figures {
		for _, ref := range p.Uses[fi] {
			if labels[ref.Cell] == "" {
				labels[ref.Cell] = ref.Label
			}
		}
	}
	var timings []records.Timing
	for i := range p.Stems {
		t := recs[i].Timing
		t.Figures = strings.Join(p.Users[i], ";")
		t.Config = labels[i]
		timings = append(timings, t)
	}
	data, err := records.Marshal(timings)
	if err != nil {
		return err
	}
	return records.WriteFileAtomic(filepath.Join(r.Out, timingsFile(r.Only)), data)
}

// timingsFile is timings.csv for a full run and timings-NAME.csv for an -only=NAME run, so
// that running one figure again never overwrites the full run's timings.
func timingsFile(only string) string {
	if only == "" {
		return "timings.csv"
	}
	return "timings-" + only + ".csv"
}
