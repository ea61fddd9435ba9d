package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"

	"dpgibo/experiments/fstar"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// suiteFStar recomputes the committed best-known optima (runFStarSearch, package fstar).
const suiteFStar = "fstar"

// fstarTargets returns, as search targets, the distinct data settings of the paper, private,
// peers, quick, design, defaults, library-private and low-snr suites, restricted, when only
// is not empty, to the figures or suites it names (a comma-separated list), building each
// task once to learn its data label and number of users.
func fstarTargets(only, dataPath string, newTask runner.TaskFactory) ([]fstar.Target, error) {
	var figs []runner.Figure
	var wanted []string
	if only != "" {
		wanted = strings.Split(only, ",")
	}
	named := map[string]bool{}
	for _, name := range []string{SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign, SuiteDefaults, suites.LibraryPrivate, suites.LowSNR} {
		all, err := suites.Figures(name, "")
		if err != nil {
			return nil, err
		}
		named[name] = true
		for _, f := range all {
			named[f.Name] = true
			if wanted == nil || slices.Contains(wanted, name) || slices.Contains(wanted, f.Name) {
				figs = append(figs, f)
			}
		}
	}
	for _, w := range wanted {
		if !named[w] {
			return nil, fmt.Errorf("unknown figure %q for -suite=%s (a figure of the paper, private, peers, quick, design, defaults, library-private or low-snr suite, or one of those suites; a comma-separated list of them)", w, suiteFStar)
		}
	}
	seenSpec := map[runner.TaskSpec]bool{}
	seen := map[fstar.Setting]bool{}
	var out []fstar.Target
	for _, f := range figs {
		if f.Theta {
			continue
		}
		for _, b := range f.Blocks {
			for _, d := range b.Dims {
				spec := runner.TaskSpec{Name: b.Task, D: d, Seed: b.DataSeed, NTrain: b.NTrain, NVal: b.NVal, Data: b.Data}
				if b.Task == "svr" && b.Data == "" {
					spec.DataPath = dataPath
				}
				if seenSpec[spec] {
					continue
				}
				seenSpec[spec] = true
				task, err := newTask(spec)
				if err != nil {
					return nil, fmt.Errorf("figure %s, %s d = %d: %w", f.Name, b.Task, d, err)
				}
				s := fstar.Setting{Task: b.Task, Data: task.DataLabel(), D: d, NUsers: task.Users(), NTrain: b.NTrain, DataSeed: b.DataSeed}
				if !seen[s] {
					seen[s] = true
					out = append(out, fstar.Target{Setting: s, NewTask: func() (tasks.Task, error) { return newTask(spec) }})
				}
			}
		}
	}
	return out, nil
}

// runFStarSearch is -suite=fstar: the search of package fstar over the settings of the
// suites (or of the figure or suite -only), writing OUT/fstar_table.go and
// OUT/fstar-search.csv.
func runFStarSearch(ctx context.Context, o runOptions) error {
	newTask := o.NewTask
	if newTask == nil {
		newTask = func(s runner.TaskSpec) (tasks.Task, error) { return catalog.New(s) }
	}
	targets, err := fstarTargets(o.Only, o.DataPath, newTask)
	if err != nil {
		return usageError{err}
	}
	var logw io.Writer
	if !o.Quiet {
		logw = o.Stderr
	}
	return fstar.Search(ctx, targets, o.Out, logw)
}
