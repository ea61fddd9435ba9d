package main

import (
	"context"
	"io"

	"dpgibo/baselines"
	"dpgibo/data"
	"dpgibo/experiments/theory"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// defaultTaskFactory is catalog.New.
func defaultTaskFactory(s taskSpec) (tasks.Task, error) {
	return catalog.New(s)
}

// defaultMethodFactory is baselines.New.
func defaultMethodFactory(name string, opts baselines.Options) (baselines.Method, error) {
	return baselines.New(name, opts)
}

// inspectTask runs the -task command (task inspection, experiments/inspect.go).
func inspectTask(w, warn io.Writer, name string, d int, seed uint64, ctslice, dump, evalTheta string) error {
	return runInspect(w, warn, catalog.Spec{Name: name, D: d, Seed: seed, CTSlice: ctslice}, dump, evalTheta)
}

// standInWarning is the line printed once per run when the SVR task runs on the stand-in.
func standInWarning() string {
	return "warning: CT-slice data not found; SVR results are on the labelled stand-in ctslice-synthetic (get the real data with: " + data.FetchCommand + ")"
}

// runTheory runs the fitted-rates sweep (package theory) into out, at its quick size for
// -suite=quick.
func runTheory(ctx context.Context, quick bool, out string) error {
	cfg := theory.DefaultConfig()
	if quick {
		cfg = theory.QuickConfig()
	}
	return theory.Run(ctx, cfg, out)
}
