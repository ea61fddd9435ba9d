// Package verdicttest builds small figure CSV rows for the tests of the packages that judge
// them (figures/verdict, figures/studies).
package verdicttest

import "dpgibo/internal/records"

// RowsOf builds the rows of one curve of figure fig: for each loss (one per seed, seeds
// from 1), an iteration-0 row at loss 99 (so that a curve must keep the last row of each
// seed) and a final row with that loss after 10 x seed evaluations. The task is gpreg on
// synthetic data.
func RowsOf(fig, method, config string, d int, losses ...float64) []records.Row {
	var out []records.Row
	for i, l := range losses {
		out = append(out, records.Row{Figure: fig, Task: "gpreg", Data: "synthetic", Method: method, Config: config, D: d, Seed: i + 1, Iter: 0, Loss: 99, Evals: 0})
		out = append(out, records.Row{Figure: fig, Task: "gpreg", Data: "synthetic", Method: method, Config: config, D: d, Seed: i + 1, Iter: 1, Loss: l, Evals: 10 * (i + 1)})
	}
	return out
}

// Seq returns f(0), ..., f(n-1).
func Seq(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}
