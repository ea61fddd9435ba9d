package runner

import (
	"io"

	"dpgibo/experiments/estimate"
)

// The engine's internals that its external tests (package runner_test, which builds the
// suites' figures) check directly, under the names they had when they were exported.
var (
	CellFor       = cellFor
	ConfigHash    = configHash
	ErrIncomplete = errIncomplete
	MakePlan      = makePlan
	RunCell       = runCell
)

// Manifest is the runner's manifest.
type Manifest = manifest

// CellCost is the estimate.Seconds of cell i of p under the stem stem.
func CellCost(p *runPlan, i int, stem string) (float64, bool) {
	c := p.costCell(i)
	c.Stem = stem
	return estimate.Seconds(c)
}

// EstimatedCost is the estimate.Model of cell i of p.
func EstimatedCost(p *runPlan, i int) float64 { return estimate.Model(p.costCell(i)) }

// PrintPlan prints p's plan at the committed machine's speed.
func PrintPlan(w io.Writer, suite string, p *runPlan, workers int, backend string) error {
	return printPlan(w, suite, p, workers, backend, estimate.Speed{}, nil)
}
