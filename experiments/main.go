// Command experiments regenerates every figure of the DP-GIBO paper as tidy CSVs (and
// renders them), runs the private comparison, the privacy audit and the fitted rates, and
// inspects a task's data from the command line.
//
//	go run ./experiments -suite=paper                # every figure of the paper
//	go run ./experiments -suite=quick                # every code path at tiny sizes, about 10 s on 2 cores
//	go run ./experiments -suite=private              # fig-private: every method private
//	go run ./experiments -suite=peers                # fig-peers: DP-GIBO beside TPE, CMA-ES, GIBO, random
//	go run ./experiments -suite=audit                # empirical mu-GDP audit
//	go run ./experiments -suite=theory               # fitted convergence rates
//	go run ./experiments -suite=paper -only=fig1     # one figure
//	go run ./experiments -suite=paper -shard=0/4     # one of four shards (then -merge)
//	go run ./experiments -suite=paper -plan          # cells and estimated wall time; runs nothing
//	go run ./experiments -task=grouplasso -d=10 -seed=3 -dump-data=DIR
//	go run ./experiments -task=grouplasso -d=10 -seed=3 -eval-theta=a,b,...
//
// A suite is a list of figures; a figure crosses tasks, dimensions, swept values, methods
// and seeds into cells, one run each. Cells run on a pool of -workers goroutines and each
// finished cell is written atomically under OUT/cells/, so an interrupted run continues with
// -resume and loses nothing. When every cell is present the figure CSVs, timings.csv and
// manifest.json are written in cell order (byte-identical for any -workers or -shard) and
// the figures are rendered to OUT/figures/.
//
// Each cell's done record verifies its files (row counts, SHA-256) and names the BLAS
// backend that computed it; -resume reruns a cell that fails verification and -merge refuses
// it (integrity.go). A run holds a lock in its output directory (lock.go). SIGINT and SIGTERM
// stop a run within a short grace period, a second signal at once, with exit status 130 or
// 143 (signals.go); command-line mistakes exit with status 2, other errors with 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"dpgibo/experiments/audit"
	"dpgibo/figures/plotting"
	"dpgibo/figures/verdict"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/fastexp"
	"dpgibo/internal/progress"
	"dpgibo/internal/runlock"
	"dpgibo/internal/shutdown"
	"dpgibo/tasks/catalog"
	"dpgibo/tasks/svr"
)

// runOptions are the command-line settings of a suite run.
type runOptions struct {
	Suite string
	// Figures, when not nil, are run instead of the suite's (a study defined in code, e.g.
	// a test of a method or task of one's own); Suite still names the run.
	Figures []figureSpec
	Only    string
	Out     string
	Seeds   int
	Workers int
	Resume  bool
	Merge   bool
	// AllowMixedBackend admits cells of another BLAS backend on -resume and -merge.
	AllowMixedBackend bool
	Shard             shardSpec
	CTSlice           string
	Quiet             bool
	Render            bool
	// Plan prints every figure's cells and estimated wall time to Stdout and runs nothing.
	Plan bool
	// Stdout receives the -plan output (nil: os.Stdout).
	Stdout io.Writer
	// ProgressEvery is the period of the plain progress line when stderr is not a terminal.
	ProgressEvery time.Duration
	// Stderr receives progress, warnings and notes (nil: os.Stderr).
	Stderr io.Writer
	// NewTask and NewMethod build tasks and methods (nil: catalog.New and baselines.New).
	NewTask   taskFactory
	NewMethod methodFactory

	// afterCell is passed to the Runner (tests).
	afterCell func()
	// skipAuditTheory leaves the quick audit and theory sweep out of -suite=quick (tests of
	// the figure runner).
	skipAuditTheory bool
}

// usageError marks errors in the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	prepareBLAS()
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var caught atomic.Value // the first os.Signal
	go func() {
		sig := <-sigs
		caught.Store(sig)
		grace := shutdown.Grace()
		if grace > 0 {
			fmt.Fprintf(os.Stderr, "experiments: %s: stopping within %v; finished cells are kept (rerun with -resume); signal again to exit at once\n", shutdown.Name(sig), grace)
		}
		cancel()
		select {
		case <-sigs:
		case <-time.After(grace):
		}
		fmt.Fprintf(os.Stderr, "experiments: %s: exiting now\n", shutdown.Name(sig))
		shutdown.ExitNow(shutdown.Status(sig))
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if sig, ok := caught.Load().(os.Signal); ok {
		if err != nil {
			fmt.Fprintln(os.Stderr, "experiments:", err)
		}
		shutdown.ExitNow(shutdown.Status(sig))
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "experiments:", err)
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// prepareBLAS makes the build's BLAS fit for repeatable runs before anything runs on it:
// OpenBLAS's generic fallback kernels (a CPU newer than the library) are replaced by
// re-executing the command once (blasinfo.ReplaceFallbackCore; a core set with
// OPENBLAS_CORETYPE is kept), and kernels whose results depend on memory alignment stop
// the command with one line naming the core and the fix (blasinfo.SelfCheck).
func prepareBLAS() {
	if err := blasinfo.ReplaceFallbackCore(false); err != nil {
		fmt.Fprintln(os.Stderr, "experiments: warning:", err)
	}
	if err := blasinfo.SelfCheck(); err != nil {
		fmt.Fprintln(os.Stderr, "experiments:", err)
		os.Exit(1)
	}
	if core := blasinfo.Replaced(); core != "" {
		fmt.Fprintf(os.Stderr, "experiments: OpenBLAS does not know this CPU and picked its generic %s kernels, whose results do not repeat; running with OPENBLAS_CORETYPE=%s (set OPENBLAS_CORETYPE to choose)\n", core, blasinfo.CoreType())
	}
}

// run parses the command line and dispatches to task inspection, a merge or a suite.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("experiments", flag.ContinueOnError)
	// The flag package would print a parse error and the whole usage before returning it;
	// the caller prints the error once, and -h prints the usage.
	fs.SetOutput(io.Discard)
	var o runOptions
	var shard string
	fs.StringVar(&o.Suite, "suite", "", "suite to run: "+strings.Join(suiteNames, ", "))
	fs.StringVar(&o.Only, "only", "", "run only this figure of the suite (e.g. fig1)")
	fs.StringVar(&o.Out, "out", "", "output directory (default results for -suite=paper, results-SUITE otherwise)")
	fs.IntVar(&o.Seeds, "seeds", 0, "replications per configuration (0: the suite's; fig3f always uses one run)")
	fs.IntVar(&o.Workers, "workers", runtime.NumCPU(), "cells run in parallel")
	fs.BoolVar(&o.Resume, "resume", false, "skip cells already finished in the output directory")
	fs.BoolVar(&o.AllowMixedBackend, "allow-mixed-backend", false, "let -resume and -merge use cells computed with another BLAS backend or OpenBLAS core type (results then agree to rounding only)")
	fs.BoolVar(&o.Merge, "merge", false, "run nothing: write the figure CSVs from the cells in the output directory (after sharded runs)")
	fs.StringVar(&shard, "shard", "", "run shard K/N (0 <= K < N): cells i with i mod N = K")
	fs.StringVar(&o.CTSlice, "ctslice", "", "CT-slice data file or directory (default $DPGIBO_CTSLICE, then data/ctslice/, else the stand-in)")
	fs.BoolVar(&o.Quiet, "quiet", false, "no progress output")
	fs.BoolVar(&o.Plan, "plan", false, "run nothing: print every figure's cells and estimated wall time at -workers, and the total")
	fs.BoolVar(&o.Render, "render", true, "render the figures (PNG, SVG, PDF) into OUT/figures when the CSVs are complete")
	fs.DurationVar(&o.ProgressEvery, "progress-every", 30*time.Second, "period of the progress line when stderr is not a terminal")
	var task, dump, evalTheta string
	var d int
	var seed uint64
	fs.StringVar(&task, "task", "", "inspect a task: "+strings.Join(catalog.Names(), ", ")+" (with -dump-data or -eval-theta)")
	fs.IntVar(&d, "d", 0, "task inspection: number of hyperparameters (0: the task's default)")
	fs.Uint64Var(&seed, "seed", 1, "task inspection: data seed")
	fs.StringVar(&dump, "dump-data", "", "task inspection: write DIR/train.csv and DIR/val.csv")
	fs.StringVar(&evalTheta, "eval-theta", "", "task inspection: print user,loss rows at theta v1,v2,...")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "Usage of experiments (see the package documentation: go doc ./experiments):\n")
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return err
		}
		return usagef("%v (see -h for the flags)", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if task != "" {
		for _, name := range []string{"suite", "only", "merge", "shard", "resume", "seeds"} {
			if set[name] {
				return usagef("-%s cannot be combined with -task", name)
			}
		}
		if dump == "" && evalTheta == "" {
			return usagef("-task needs -dump-data=DIR or -eval-theta=v1,v2,...")
		}
		if !slices.Contains(catalog.Names(), task) {
			return usagef("unknown -task %q (known: %s)", task, strings.Join(catalog.Names(), ", "))
		}
		if d < 0 || (task == "svr" && d > 0 && d < 4) {
			return usagef("-d=%d: %s needs d >= %d (0: its default)", d, task, map[bool]int{true: 4, false: 1}[task == "svr"])
		}
		return inspectTask(stdout, stderr, task, d, seed, o.CTSlice, dump, evalTheta)
	}
	for _, name := range []string{"d", "seed", "dump-data", "eval-theta"} {
		if set[name] {
			return usagef("-%s is only used with -task", name)
		}
	}
	if o.Suite == "" {
		return usagef("give -suite=%s, or -task=NAME to inspect a task (see -h)", strings.Join(suiteNames, "|"))
	}
	var err error
	if o.Shard, err = parseShard(shard); err != nil {
		return usageError{err}
	}
	if o.Workers < 1 {
		return usagef("-workers must be >= 1, got %d", o.Workers)
	}
	if o.Seeds < 0 {
		return usagef("-seeds must be >= 0, got %d", o.Seeds)
	}
	if o.Merge && (o.Shard.N > 1 || o.Resume) {
		return usagef("-merge runs nothing: it cannot be combined with -shard or -resume")
	}
	if o.ProgressEvery <= 0 {
		return usagef("-progress-every must be positive, got %v", o.ProgressEvery)
	}
	if o.Plan {
		switch o.Suite {
		case SuiteAudit, SuiteTheory, suiteFStar:
			return usagef("-plan estimates the figure suites (%s, %s, %s, %s, %s, %s), not -suite=%s", SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign, SuitePrecision, o.Suite)
		}
		for _, name := range []string{"merge", "resume", "shard"} {
			if set[name] {
				return usagef("-plan runs nothing and estimates the whole run: it cannot be combined with -%s", name)
			}
		}
	}
	o.Stderr, o.Stdout = stderr, stdout
	return runSuite(ctx, o, args)
}

// planSuite prints the plan of a figure suite (-plan): no output directory, lock, data or
// cell is touched.
func planSuite(o runOptions, figs []figureSpec) error {
	if figs == nil {
		return usagef("-plan estimates the figure suites (%s, %s, %s, %s, %s, %s), not -suite=%s", SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign, SuitePrecision, o.Suite)
	}
	if o.Seeds > 0 {
		overrideSeeds(figs, o.Seeds)
	}
	source := "stand-in"
	for _, f := range figs {
		for _, b := range f.Blocks {
			if b.Task == "svr" && b.Data == "" {
				s, err := ctsliceSource(o.CTSlice)
				if err != nil {
					return err
				}
				source = s
			}
		}
	}
	p, err := makePlan(o.Suite, figs, source)
	if err != nil {
		return err
	}
	out := o.Stdout
	if out == nil {
		out = os.Stdout
	}
	return printPlan(out, o.Suite, p, o.Workers, planBackend())
}

// defaultOut is the output directory of a suite when -out is not given.
func defaultOut(suite string) string {
	if suite == SuitePaper {
		return "results"
	}
	return "results-" + suite
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

// runSuite runs one suite (or merges one) with the given options; args are recorded in the
// manifest.
func runSuite(ctx context.Context, o runOptions, args []string) error {
	o = o.withDefaults()
	shutdown.SetGrace(shutdown.SuiteGrace)
	figs, err := suiteFigures(o.Suite, o.Only)
	if o.Figures != nil {
		figs, err = o.Figures, nil
	}
	if err != nil {
		return usageError{err}
	}
	if o.Plan {
		return planSuite(o, figs)
	}
	if err := prepareOut(o.Out); err != nil {
		return err
	}
	switch o.Suite {
	case SuiteAudit, SuiteTheory, suiteFStar:
		return runStudy(ctx, o)
	}
	if o.Seeds > 0 {
		overrideSeeds(figs, o.Seeds)
	}
	source, err := checkData(o, figs)
	if err != nil {
		return err
	}
	p, err := makePlan(o.Suite, figs, source)
	if err != nil {
		return err
	}
	release, err := runlock.Acquire(o.Out, runlock.Info{Suite: o.Suite, Only: o.Only, Shard: o.Shard.String(), ConfigHash: configHash(o.Suite, p)}, o.Stderr)
	if err != nil {
		return err
	}
	defer release()
	// One BLAS thread per worker, always: the workers already use the cores, and a
	// multithreaded OpenBLAS splits reductions by its thread count, so results would
	// otherwise depend on -workers in the last bits. (No-op in the pure-Go build, whose
	// parallel products are deterministic.)
	blasinfo.SetThreads(1)
	start := time.Now()
	man := newManifest(o, p, args, start)
	r := &cellRunner{
		Out: o.Out, Workers: o.Workers, Resume: o.Resume, Shard: o.Shard, CTSlice: o.CTSlice,
		Only: o.Only, AllowMixedBackend: o.AllowMixedBackend,
		NewTask: o.NewTask, NewMethod: o.NewMethod, Warnings: o.Stderr, afterCell: o.afterCell,
	}
	if !o.Merge {
		r.Progress = progress.New(o.Stderr, o.Quiet, o.ProgressEvery)
		todo, err := r.Todo(p)
		if err != nil {
			return err
		}
		man.Ran = len(todo)
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
				o.Shard, len(miss), len(p.stems))
		}
		return man.write(o.Out, time.Now())
	}
	if err := r.Merge(p); err != nil {
		return err
	}
	man.CellBLAS = r.cellBLAS
	if err := afterMerge(ctx, o, figs); err != nil {
		return err
	}
	man.Shard = "" // the merged outputs belong to the whole run
	if err := man.write(o.Out, time.Now()); err != nil {
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

// runName names a run in its start and end lines: the suite, the figure of -only, the
// shard.
func runName(o runOptions) string {
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
func todoNote(r *cellRunner, p *plan, todo []int) string {
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
func (o runOptions) withDefaults() runOptions {
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Out == "" {
		o.Out = defaultOut(o.Suite)
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

// runStudy runs the suites that are not figure suites: the privacy audit, the theory sweep
// and the f* search.
func runStudy(ctx context.Context, o runOptions) error {
	if o.Suite == suiteFStar {
		return runFStarSearch(ctx, o)
	}
	release, err := runlock.Acquire(o.Out, runlock.Info{Suite: o.Suite, ConfigHash: "suite " + o.Suite}, o.Stderr)
	if err != nil {
		return err
	}
	defer release()
	if o.Suite == SuiteAudit {
		return audit.Run(ctx, audit.DefaultConfig(), o.Out)
	}
	return runTheory(ctx, false, o.Out)
}

// checkData returns where the SVR cells' CT-slice data come from ("" when no cell reads it)
// and, unless merging, reads and validates that data now, before the first cell, rather
// than when the first SVR cell builds its task.
func checkData(o runOptions, figs []figureSpec) (string, error) {
	source := ""
	for _, f := range figs {
		for _, b := range f.Blocks {
			if b.Task == "svr" && b.Data == "" && source == "" {
				var err error
				if source, err = ctsliceSource(o.CTSlice); err != nil {
					return "", err
				}
			}
		}
	}
	if source != "" && !o.Merge {
		if err := svr.Preload(o.CTSlice); err != nil {
			return "", fmt.Errorf("CT-slice data (checked before the first cell): %w", err)
		}
	}
	return source, nil
}

// afterMerge writes what follows from the merged CSVs: the quick suite's audit and theory at
// small sizes, the verdicts, and the figures when rendering.
func afterMerge(ctx context.Context, o runOptions, figs []figureSpec) error {
	if o.Suite == SuiteQuick && o.Only == "" && !o.skipAuditTheory {
		if err := audit.Run(ctx, audit.QuickConfig(), filepath.Join(o.Out, "audit")); err != nil {
			return fmt.Errorf("quick audit: %w", err)
		}
		if err := runTheory(ctx, true, filepath.Join(o.Out, "theory")); err != nil {
			return fmt.Errorf("quick theory: %w", err)
		}
	}
	if _, err := verdict.WriteDir(o.Out); err != nil {
		return fmt.Errorf("verdicts: %w", err)
	}
	if o.Render {
		if _, err := plotting.RenderDir(o.Out, filepath.Join(o.Out, "figures"), figureNames(figs)); err != nil {
			return fmt.Errorf("rendering figures: %w", err)
		}
	}
	return nil
}
