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
// it (internal/cellstore). A run holds a lock in its output directory (internal/runlock).
// SIGINT and SIGTERM stop a run within a short grace period, a second signal at once, with
// exit status 130 or 143 (internal/shutdown); command-line mistakes exit with status 2,
// other errors with 1 (docs/reproducing.md, "Exit statuses"). The engine is package
// dpgibo/experiments/runner, the suites' figures dpgibo/experiments/suites.
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
	"dpgibo/experiments/runner"
	"dpgibo/experiments/zopilot"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/runinfo"
	"dpgibo/internal/runlock"
	"dpgibo/internal/shutdown"
	"dpgibo/tasks/catalog"
)

// runOptions are the settings of a suite run: the engine's (runner.Options; Figures, when
// not nil, are run instead of the suite's, e.g. a study of a method or task of one's own)
// and the command's own.
type runOptions struct {
	runner.Options
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
			fmt.Fprintf(os.Stderr, "experiments: %s: stopping within %v; finished cells are kept; signal again to exit at once\n", shutdown.Name(sig), grace)
		}
		cancel()
		select {
		case <-sigs:
		case <-time.After(grace):
		}
		fmt.Fprintf(os.Stderr, "experiments: %s: exiting now; finished cells are kept; to continue: %s\n", shutdown.Name(sig), runinfo.Rerun(os.Args[1:], "-resume"))
		shutdown.ExitNow(shutdown.Status(sig))
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if sig, ok := caught.Load().(os.Signal); ok {
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "experiments:", err)
		}
		fmt.Fprintf(os.Stderr, "experiments: stopped by %s; finished cells are kept; to continue: %s\n", shutdown.Name(sig), runinfo.Rerun(os.Args[1:], "-resume"))
		shutdown.ExitNow(shutdown.Status(sig))
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "experiments:", err)
		var ue usageError
		if errors.As(err, &ue) || errors.Is(err, runner.ErrFinishedCells) || errors.Is(err, runner.ErrOtherRun) {
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
	fs.BoolVar(&o.Overwrite, "overwrite", false, "compute again the cells already finished in the output directory (without it, or -resume, a run refuses to start where finished cells are), and replace the outputs of figures of the same name that another suite or configuration wrote there (without it, such a run refuses; nothing else is deleted)")
	fs.StringVar(&o.From, "from", "", "folder of committed results (e.g. reproduction): take the run's cells its figure CSVs, timings and manifests hold as finished, and run only the others (implies -resume)")
	fs.BoolVar(&o.AllowMixedBackend, "allow-mixed-backend", false, "let -resume and -merge use cells computed with another BLAS backend or OpenBLAS core type (results then agree to rounding only)")
	fs.BoolVar(&o.Merge, "merge", false, "run nothing: write the figure CSVs from the cells in the output directory (after sharded runs)")
	fs.StringVar(&shard, "shard", "", "run shard K/N (0 <= K < N): cells i with i mod N = K")
	fs.StringVar(&o.DataPath, "ctslice", "", "CT-slice data file or directory (default $DPGIBO_CTSLICE, then data/ctslice/, else the stand-in)")
	fs.BoolVar(&o.Quiet, "quiet", false, "no progress output")
	fs.BoolVar(&o.MeasureSpeed, "measure-speed", true, "before a run or -plan, run one short cell per task (a few seconds) and scale the committed timings of the estimates by how long they took here")
	fs.BoolVar(&o.Plan, "plan", false, "run nothing: print every figure's cells and estimated wall time at -workers, and the total")
	fs.BoolVar(&o.Render, "render", true, "render the figures (PNG, SVG, PDF) into OUT/figures when the CSVs are complete")
	fs.DurationVar(&o.ProgressEvery, "progress-every", 30*time.Second, "period of the progress line when stderr is not a terminal")
	version := fs.Bool("version", false, "print the module version, the commit, the build tags and GOEXPERIMENT of this build, and exit")
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
	if *version {
		_, err := fmt.Fprint(stdout, runinfo.Version())
		return err
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
		return inspectTask(stdout, stderr, task, d, seed, o.DataPath, dump, evalTheta)
	}
	for _, name := range []string{"d", "seed", "dump-data", "eval-theta"} {
		if set[name] {
			return usagef("-%s is only used with -task", name)
		}
	}
	// Every flag is checked whether or not -suite was given, each mistake with its own
	// message; the missing -suite comes last.
	var err error
	if o.Shard, err = runner.ParseShard(shard); err != nil {
		return usageError{err}
	}
	if o.Workers < 1 {
		return usagef("-workers must be >= 1, got %d", o.Workers)
	}
	if o.Seeds < 0 {
		return usagef("-seeds must be >= 0, got %d", o.Seeds)
	}
	if o.Merge && (o.Shard.N > 1 || o.Resume || o.Overwrite) {
		return usagef("-merge runs nothing: it cannot be combined with -shard, -resume or -overwrite")
	}
	if o.From != "" && (o.Merge || o.Overwrite) {
		return usagef("-from takes committed cells as finished: it cannot be combined with -merge or -overwrite")
	}
	if o.From != "" {
		if fi, err := os.Stat(o.From); err != nil || !fi.IsDir() {
			return usagef("-from %s: not a folder of committed results", o.From)
		}
	}
	if o.Resume && o.Overwrite {
		return usagef("-resume keeps the finished cells and -overwrite computes them again: give one")
	}
	if o.ProgressEvery <= 0 {
		return usagef("-progress-every must be positive, got %v", o.ProgressEvery)
	}
	// An -out that is a file, or lies under one, is a mistake in what was typed.
	for dir := filepath.Clean(o.Out); o.Out != "" && dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil {
			if !fi.IsDir() {
				return usagef("-out %s: %s is a file, not a directory", o.Out, dir)
			}
			break
		}
	}
	if o.Suite == "" {
		if o.Only != "" && !slices.Contains(allFigureNames(), o.Only) {
			return usagef("-only=%s: no suite has that figure (figures: %s)", o.Only, strings.Join(allFigureNames(), ", "))
		}
		return usagef("give -suite=%s, or -task=NAME to inspect a task (see -h)", strings.Join(suiteNames, "|"))
	}
	if o.Suite != suiteFStar {
		if _, err := suiteFigures(o.Suite, o.Only); err != nil {
			return usageError{err}
		}
	}
	if o.Plan {
		switch o.Suite {
		case SuiteAudit, SuiteTheory, suiteFStar, suiteZOPilot:
			return usagef("-plan estimates the figure suites (%s, %s, %s, %s, %s, %s), not -suite=%s", SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign, SuitePrecision, o.Suite)
		}
		for _, name := range []string{"merge", "shard"} {
			if set[name] {
				return usagef("-plan runs nothing and estimates the whole run (with -resume, what is left of it): it cannot be combined with -%s", name)
			}
		}
	}
	o.Stderr, o.Stdout, o.Args = stderr, stdout, args
	return runSuite(ctx, o)
}

// runSuite runs one suite with o: the studies (audit, theory, f* search) here, the figure
// suites (or o.Figures) through the engine, with the quick suite's audit and theory sweep
// after its merge.
func runSuite(ctx context.Context, o runOptions) error {
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Out == "" {
		o.Out = defaultOut(o.Suite)
	}
	figs, err := suiteFigures(o.Suite, o.Only)
	if o.Figures != nil {
		figs, err = o.Figures, nil
	}
	if err != nil {
		return usageError{err}
	}
	switch o.Suite {
	case SuiteAudit, SuiteTheory, suiteFStar, suiteZOPilot:
		if o.Plan {
			return usagef("-plan estimates the figure suites (%s, %s, %s, %s, %s, %s), not -suite=%s", SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign, SuitePrecision, o.Suite)
		}
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return fmt.Errorf("output directory %s: %w", o.Out, err)
		}
		return runStudy(ctx, o)
	}
	ro := o.Options
	ro.Figures = figs
	if o.Suite == SuiteQuick && o.Only == "" && !o.skipAuditTheory {
		out := o.Out
		ro.AfterMerge = func(ctx context.Context) error {
			if err := audit.Run(ctx, audit.QuickConfig(), filepath.Join(out, "audit")); err != nil {
				return fmt.Errorf("quick audit: %w", err)
			}
			if err := runTheory(ctx, true, filepath.Join(out, "theory")); err != nil {
				return fmt.Errorf("quick theory: %w", err)
			}
			return nil
		}
	}
	return runner.Run(ctx, ro)
}

// defaultOut is the output directory of a suite when -out is not given.
func defaultOut(suite string) string {
	if suite == SuitePaper {
		return "results"
	}
	return "results-" + suite
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
	switch o.Suite {
	case SuiteAudit:
		return audit.Run(ctx, audit.DefaultConfig(), o.Out)
	case suiteZOPilot:
		chosen, err := zopilot.Run(ctx, o.Out, o.Workers, o.Stderr)
		if err == nil {
			fmt.Fprintf(o.Stderr, "experiments: zo pilot: chose %s (%s)\n", chosen.Label(), filepath.Join(o.Out, zopilot.File))
		}
		return err
	}
	return runTheory(ctx, false, o.Out)
}
