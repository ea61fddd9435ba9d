package main

import (
	"context"
	"io"

	"dpgibo/experiments/theory"
	"dpgibo/tasks/catalog"
)

// inspectTask runs the -task command (task inspection, experiments/inspect.go).
func inspectTask(w, warn io.Writer, name string, d int, seed uint64, ctslice, dump, evalTheta string) error {
	return runInspect(w, warn, catalog.Spec{Name: name, D: d, Seed: seed, DataPath: ctslice}, dump, evalTheta)
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
