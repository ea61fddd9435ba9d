// Package runner is the engine that runs figures: a Figure crosses tasks, dimensions,
// swept values, methods and seeds (its Blocks) into cells, one run each; Run plans the
// cells of a list of figures, runs those not yet finished on a pool of workers, writes
// each finished cell atomically under OUT/cells/ (so an interrupted run resumes and loses
// nothing; shards of a run split its cells and a merge joins them), and, once every cell
// is present, writes each figure's CSV, the timings, fstar.csv, the verdicts, a manifest
// and the figures, byte-identical for any number of workers or shards.
//
// The paper's figures are in package dpgibo/experiments/suites; the command
// dpgibo/experiments runs them from the command line. A module of one's own adds a method
// (registry.Register), a task (Options.NewTask) and figures of its own, and runs them, or
// the paper's with its method added, through Run (docs/extending.md).
package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"dpgibo/experiments/estimate"
	"dpgibo/figures/outputs"
	"dpgibo/figures/plotting"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/fastexp"
	"dpgibo/internal/progress"
	"dpgibo/internal/runinfo"
	"dpgibo/internal/runlock"
	"dpgibo/internal/shutdown"
	"dpgibo/tasks/catalog"
)

// Options configure one run of figures: which figures, where their cells and outputs go,
// and how the cells run. Zero values are usable except for Figures and Out.
type Options struct {
	// Suite names the run: the suite column of every row, part of every cell's stem and of
	// the manifest (e.g. "paper", or a name of one's own).
	Suite string
	// Figures are the figures to run (required).
	Figures []Figure
	// Only is the -only figure of the command line, recorded in the manifest and the lock:
	// Merge then writes timings-NAME.csv, leaving a full run's timings.csv alone. Figures
	// must already be that one figure.
	Only string
	// Out is the output directory (required): cells under Out/cells, the figure CSVs,
	// timings, fstar.csv, verdicts, manifest and figures at the top.
	Out string
	// Seeds, when positive, replaces the number of replications of every block with more
	// than one.
	Seeds int
	// Workers is the number of cells run in parallel (0: 1).
	Workers int
	// Resume skips the cells already finished in Out, and Overwrite computes them again;
	// with neither, Run refuses to start where cells of the run are finished
	// (ErrFinishedCells), so that no finished work is redone by accident. Merge runs
	// nothing and writes the outputs from the cells in Out (after sharded runs).
	Resume, Overwrite, Merge bool
	// From, when set, is a folder of committed results (such as reproduction/): before
	// running, the cells of the run that its figure CSVs, timings and manifests hold are
	// written into Out as finished, so that only the others run (raising a committed
	// figure's seeds, or adding a block to it). It implies Resume.
	From string
	// AllowMixedBackend admits cells of another BLAS backend on Resume and Merge.
	AllowMixedBackend bool
	// Shard selects the cells of one shard (zero: all).
	Shard Shard
	// DataPath is where the data a task reads from outside the module are, a file or a
	// directory (the command's data flag; "": the task's lookup order; catalog.External).
	DataPath string
	// Quiet prints no progress and no start and end lines.
	Quiet bool
	// Render renders the figures into Out/figures when the CSVs are complete.
	Render bool
	// Plan prints every figure's cells and estimated wall time to Stdout and runs nothing;
	// with Resume, only what is left of the run in Out.
	Plan bool
	// MeasureSpeed runs, before a run or a plan, one short cell per task whose committed
	// time is known (a few seconds in all), and scales the committed timings of the plan
	// and of the first ETA by how long they took here. It changes no output file.
	MeasureSpeed bool
	// Stdout receives the Plan output (nil: os.Stdout).
	Stdout io.Writer
	// ProgressEvery is the period of the plain progress line when Stderr is not a terminal
	// (0: 30 s).
	ProgressEvery time.Duration
	// Stderr receives progress, warnings and notes (nil: os.Stderr).
	Stderr io.Writer
	// NewTask and NewMethod build tasks and methods (nil: catalog.New and registry.New).
	NewTask   TaskFactory
	NewMethod MethodFactory
	// Args is the command line recorded in the manifest.
	Args []string
	// AfterMerge, when set, runs after the figure CSVs are written and before the verdicts
	// (the quick suite's audit and theory sweep).
	AfterMerge func(context.Context) error
	// AfterCell, when set, is called after each cell is written (tests stop a run midway
	// with it).
	AfterCell func()
}

// ErrFinishedCells is the error (wrapped, with how many cells and the command that
// resumes) of a Run whose output directory holds finished cells of the run when neither
// Resume nor Overwrite is set. The command exits with status 2 on it.
var ErrFinishedCells = errors.New("finished cells of this run in the output directory")

// Run runs (or, with Merge, merges; with Plan, estimates) the figures of o: it plans their
// cells, runs those not yet finished on o.Workers workers, and once every cell is present
// writes each figure's CSV, the timings, fstar.csv, the verdicts, the manifest and, with
// Render, the figures.
func Run(ctx context.Context, o Options) error {
	o = o.withDefaults()
	figs := o.Figures
	if len(figs) == 0 {
		return errors.New("runner: no figures to run")
	}
	if o.Out == "" && !o.Plan {
		return errors.New("runner: no output directory")
	}
	shutdown.SetGrace(shutdown.SuiteGrace)
	if o.Seeds > 0 {
		figs = overrideSeeds(figs, o.Seeds)
	}
	if o.Plan {
		return planRun(ctx, o, figs)
	}
	if err := prepareOut(o.Out); err != nil {
		return err
	}
	source, err := dataSource(o.DataPath, figs)
	if err != nil {
		return err
	}
	p, err := makePlan(o.Suite, figs, source)
	if err != nil {
		return err
	}
	completed := false
	release, err := runlock.Acquire(o.Out, runlock.Info{Suite: o.Suite, Only: o.Only, Shard: o.Shard.String(), ConfigHash: configHash(o.Suite, p)}, o.Stderr)
	if err != nil {
		return err
	}
	defer release()
	// Nothing is written (no cell, no record) before this: a run never replaces what
	// another run made in Out.
	if err := refuseOtherRuns(o, p, source); err != nil {
		return err
	}
	if task, ext := externalData(figs); ext != nil && !o.Merge {
		if err := ext.Preload(o.DataPath); err != nil {
			return fmt.Errorf("the data of task %s (checked before the first cell): %w", task, err)
		}
	}
	// One BLAS thread per worker, always: the workers already use the cores, and a
	// multithreaded OpenBLAS splits reductions by its thread count, so results would
	// otherwise depend on -workers in the last bits. (No-op in the pure-Go build, whose
	// parallel products are deterministic.)
	blasinfo.SetThreads(1)
	start := time.Now()
	man := newManifest(o, p, start)
	r := &cellRunner{
		Out: o.Out, Workers: o.Workers, Resume: o.Resume, Shard: o.Shard, DataPath: o.DataPath,
		Only: o.Only, AllowMixedBackend: o.AllowMixedBackend, Args: o.Args,
		NewTask: o.NewTask, NewMethod: o.NewMethod, Warnings: o.Stderr, afterCell: o.AfterCell,
	}
	if !o.Merge && !o.Resume && !o.Overwrite {
		if err := r.refuseFinished(p); err != nil {
			return err
		}
	}
	if o.From != "" && !o.Merge {
		n, err := r.unpackFrom(o.From, p)
		if err != nil {
			return err
		}
		r.Resume = true
		if !o.Quiet {
			fmt.Fprintf(o.Stderr, "experiments: %d finished cells taken from %s\n", n, o.From)
		}
	}
	if !o.Merge {
		// Until the figure CSVs are written, Out says which figures are unfinished and how
		// to complete them (the figures command reads it); at any other return it is
		// written again with the cells finished by then.
		r.markUnfinished(o, p, source)
		defer func() {
			if !completed {
				r.markUnfinished(o, p, source)
			}
		}()
		r.Progress = progress.New(o.Stderr, o.Quiet, o.ProgressEvery)
		todo, err := r.Todo(p)
		if err != nil {
			return err
		}
		man.Ran = len(todo)
		if o.MeasureSpeed && !o.Quiet && len(todo) > 0 {
			var line string
			if r.speed, line = measureSpeed(ctx, o, p); r.speed.Overall > 0 {
				fmt.Fprintln(o.Stderr, line)
			}
		}
		if !o.Quiet {
			fmt.Fprintf(o.Stderr, "experiments: %s: %s; writing to %s (%s)\n", runName(o), todoNote(r, p, todo), o.Out, backendNote())
		}
		if err := r.Execute(ctx, p, todo); err != nil {
			return err
		}
	}
	if miss := r.missing(p); len(miss) > 0 {
		if o.Merge {
			return r.Merge(p) // reports the missing cells
		}
		// A shard whose siblings have not finished: the last one to finish merges.
		if !o.Quiet {
			fmt.Fprintf(o.Stderr, "shard %s done; %d of %d cells belong to shards still running or not yet run; the last shard to finish (or -merge) writes the CSVs\n",
				o.Shard, len(miss), len(p.Stems))
		}
		return man.write(o.Out, time.Now())
	}
	if err := r.Merge(p); err != nil {
		return err
	}
	man.CellBLAS = r.cellBLAS
	// The manifest goes with the merged CSVs, before what follows from them: the studies'
	// tables read each figure's blocks from its manifest, this run's figures included.
	man.Shard = "" // the merged outputs belong to the whole run
	if err := man.write(o.Out, time.Now()); err != nil {
		return err
	}
	completed = true
	os.Remove(filepath.Join(o.Out, runinfo.UnfinishedFile(o.Only)))
	if err := afterMerge(ctx, o, figs); err != nil {
		return err
	}
	if !o.Quiet {
		where := "figure CSVs, summary, claims and manifest in " + o.Out
		if o.Render {
			where += ", figures in " + filepath.Join(o.Out, "figures")
		}
		fmt.Fprintf(o.Stderr, "experiments: %s: done: %s\n", runName(o), where)
	}
	return nil
}

// markUnfinished writes the run's unfinished record into Out, with the cells of the shard
// finished so far and each figure's identity (source is dataSource's).
func (r *cellRunner) markUnfinished(o Options, p *runPlan, source string) {
	u := unfinishedRecord{
		Unfinished: runinfo.Unfinished{Suite: o.Suite, Figures: figureNames(p.Figures), Resume: runinfo.Rerun(o.Args, "-resume")},
		ConfigHash: configHash(o.Suite, p),
		Identities: map[string]string{},
	}
	for _, f := range p.Figures {
		u.Identities[f.Name] = figureIdentity(o.Suite, f, source)
	}
	u.Finished, u.Cells = r.finishedOwned(p)
	if b, err := json.MarshalIndent(u, "", "  "); err == nil {
		os.WriteFile(filepath.Join(o.Out, runinfo.UnfinishedFile(o.Only)), append(b, '\n'), 0o644)
	}
}

// planRun prints the plan of the figures (Options.Plan), after measuring this machine's
// speed with MeasureSpeed, and with Resume only what is left of the run in Out: no output
// directory, lock or data is touched, and no cell is written.
func planRun(ctx context.Context, o Options, figs []Figure) error {
	source, err := dataSource(o.DataPath, figs)
	if err != nil {
		return err
	}
	p, err := makePlan(o.Suite, figs, cmp.Or(source, "stand-in"))
	if err != nil {
		return err
	}
	out := o.Stdout
	if out == nil {
		out = os.Stdout
	}
	var finished []bool
	if o.Resume {
		store := (&cellRunner{Out: o.Out}).store()
		finished = make([]bool, len(p.Stems))
		for i, stem := range p.Stems {
			finished[i] = store.Done(stem)
		}
	}
	if o.From != "" {
		if finished == nil {
			finished = make([]bool, len(p.Stems))
		}
		if err := fromFinished(o.From, p, finished); err != nil {
			return err
		}
	}
	var sp estimate.Speed
	if o.MeasureSpeed {
		var line string
		sp, line = measureSpeed(ctx, o, p)
		fmt.Fprintln(out, line)
	}
	return printPlan(out, o.Suite, p, o.Workers, planBackend(), sp, finished)
}

// prepareOut creates dir and checks that files can be written in it.
func prepareOut(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".write-test-*")
	if err != nil {
		return fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// runName names a run in its start and end lines: the suite, the figure of -only, the
// shard.
func runName(o Options) string {
	name := "suite " + o.Suite
	if o.Only != "" {
		name += " -only=" + o.Only
	}
	if s := o.Shard.String(); s != "" {
		name += " shard " + s
	}
	return name
}

// todoNote says what a run is about to do: the cells to run and, on -resume, how many it
// found finished.
func todoNote(r *cellRunner, p *runPlan, todo []int) string {
	note := fmt.Sprintf("%d cells to run", len(todo))
	if r.Resume {
		note += fmt.Sprintf(", %d found finished and verified", r.found(p, todo))
	}
	return note
}

// backendNote names the BLAS backend and kernel set and the exponential's path of this run.
func backendNote() string {
	note := "BLAS " + blasinfo.Backend()
	if core := blasinfo.Replaced(); core != "" {
		note += " (replacing OpenBLAS's generic " + core + ")"
	}
	return note + ", exponentials " + fastexp.Vectorised()
}

// withDefaults fills the options a caller may leave zero.
func (o Options) withDefaults() Options {
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Workers < 1 {
		o.Workers = 1
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 30 * time.Second
	}
	if o.NewTask == nil {
		o.NewTask = defaultTaskFactory
	}
	if o.NewMethod == nil {
		o.NewMethod = defaultMethodFactory
	}
	return o
}

// dataSource returns where the data from outside the module that figs read come from, as
// the task's catalog.External.Source names it, or "" when no figure reads any (path is the
// command's data flag).
func dataSource(path string, figs []Figure) (string, error) {
	if _, ext := externalData(figs); ext != nil {
		return ext.Source(path)
	}
	return "", nil
}

// externalData returns the first task of figs whose blocks read data from outside the
// module, and how the catalog reads it; nil when none does.
func externalData(figs []Figure) (string, *catalog.External) {
	for _, f := range figs {
		for _, b := range f.Blocks {
			if info, ok := catalog.Lookup(b.Task); ok && readsExternal(info, b) {
				return b.Task, info.External
			}
		}
	}
	return "", nil
}

// readsExternal reports whether block b, of the task info describes, reads data from
// outside the module (rather than data the block names or the task generates).
func readsExternal(info catalog.Info, b Block) bool {
	return info.External != nil && info.External.Reads(catalog.Spec{Name: b.Task, Data: b.Data})
}

// afterMerge writes what follows from the merged CSVs: o.AfterMerge's outputs, the
// verdicts, and the figures when rendering.
func afterMerge(ctx context.Context, o Options, figs []Figure) error {
	if o.AfterMerge != nil {
		if err := o.AfterMerge(ctx); err != nil {
			return err
		}
	}
	if _, err := outputs.WriteDir(o.Out); err != nil {
		return fmt.Errorf("verdicts: %w", err)
	}
	if o.Render {
		if _, err := plotting.RenderDir(o.Out, filepath.Join(o.Out, "figures"), figureNames(figs)); err != nil {
			return fmt.Errorf("rendering figures: %w", err)
		}
	}
	return nil
}
