package suites

import (
	"slices"

	"dpgibo/experiments/runner"
)

// Field is the comparison with the comparators a 2026 reviewer asks for (docs/peers.md,
// "The field's comparators, declared before their runs"): ucb-scaled (GP-UCB with the
// dimension-scaled ARD prior) and its private version, and dp-zo (private zeroth-order
// descent), beside fig2a's, fig2a-b3's, fig-private's and fig-private-select's methods at
// their settings and seeds. Each figure fieldPrefix+NAME holds
// NAME's blocks, computed as NAME's suite's cells (so that -from reproduction/ takes them
// and no committed figure or verdict moves), and the new methods' blocks.
const Field = "field"

// fieldPrefix names the suite's figures: fieldPrefix + the committed figure it extends.
const fieldPrefix = "field-"

// fieldFigures returns the field suite.
func fieldFigures() []runner.Figure {
	var out []runner.Figure
	for _, f := range paperFigures() {
		if f.Name != "fig2a" && f.Name != "fig2a-b3" {
			continue
		}
		blocks := withCellSuite(f.Blocks, Paper)
		// ucb-scaled where UCB runs: non-private, at UCB's settings and seeds.
		for _, b := range f.Blocks {
			if slices.Contains(b.Methods, "ucb") {
				b.CellSuite, b.Methods = Field, []string{"ucb-scaled"}
				blocks = append(blocks, b)
			}
		}
		out = append(out, runner.Figure{Name: fieldPrefix + f.Name, Blocks: blocks})
	}
	for _, f := range append(privateFigures(), privateSelectFigures()...) {
		blocks := withCellSuite(f.Blocks, Private)
		for _, b := range f.Blocks {
			if b.Label != "" {
				// fig-private-select's mu-GDP block: the new methods read no currency, so
				// their primary runs are theirs at mu-GDP too.
				continue
			}
			b.CellSuite, b.Methods = Field, []string{"dp-zo"}
			if b.Task != "svr" {
				// As dp-ucb, not at d = 103.
				b.Methods = append(b.Methods, "dp-ucb-scaled")
			}
			blocks = append(blocks, b)
		}
		out = append(out, runner.Figure{Name: fieldPrefix + f.Name, Blocks: blocks})
	}
	return out
}

// withCellSuite returns copies of blocks computed as suite's cells.
func withCellSuite(blocks []runner.Block, suite string) []runner.Block {
	out := slices.Clone(blocks)
	for i := range out {
		if out[i].CellSuite == "" {
			out[i].CellSuite = suite
		}
	}
	return out
}
