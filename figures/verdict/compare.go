package verdict

import (
	"fmt"

	"dpgibo/baselines/registry"
	"dpgibo/figures/stats"
	"dpgibo/internal/records"
)

// comparison is one rank test between two curves, or one trend test over several
// (comparisons.csv). Estimates and intervals are of a - b (method_a minus method_b).
type comparison struct {
	Figure  string `csv:"figure"`
	Task    string `csv:"task"`
	Data    string `csv:"data"`
	D       int    `csv:"d"`
	MethodA string `csv:"method_a"`
	ConfigA string `csv:"config_a"`
	MethodB string `csv:"method_b"`
	ConfigB string `csv:"config_b"`
	// Metric is what is compared: loss, evals (final evaluations) or regret ((f - f*)/G0).
	Metric string `csv:"metric"`
	// Test names the test: wilcoxon-signed-rank (paired by seed), mann-whitney, or
	// page-L (a trend over the configs listed in config_a).
	Test string `csv:"test"`
	// Alternative is two-sided for the exploratory pairwise rows; less or greater (of
	// a - b - margin) for claim tests.
	Alternative string `csv:"alternative"`
	// Margin is the shift subtracted from the differences before testing (claims of the
	// kind "not worse than B by more than m": m times B's median loss).
	Margin float64 `csv:"margin"`
	// N is the number of pairs (paired) or n_a + n_b (unpaired) or blocks (trend).
	N int `csv:"n"`
	// Exact says whether the p-value comes from the exact null distribution.
	Exact bool `csv:"exact"`
	// Estimate is the Hodges-Lehmann estimate of a - b with its distribution-free interval
	// [CILow, CIHigh] at Level (Page's L statistic for a trend, without interval).
	Estimate float64          `csv:"estimate"`
	CILow    records.OptFloat `csv:"ci_low"`
	CIHigh   records.OptFloat `csv:"ci_high"`
	PValue   float64          `csv:"p_value"`
	// PHolm is the Holm-adjusted p-value: over the figure's claim tests for claim rows, over
	// the figure's exploratory rows otherwise.
	PHolm float64 `csv:"p_holm"`
	// Claim is the id of the claim the row tests ("" for exploratory rows).
	Claim string `csv:"claim"`
}

// pairedByDesign reports whether runs of methods a and b with the same seed are paired: the
// same method (two configs share every random stream) or a method and the one it is paired
// with (a pairer: GIBO is DP-GIBO without its noise, from the same theta0).
func pairedByDesign(a, b string) bool {
	return a == b || pairedWith(a) == b || pairedWith(b) == a
}

// A pairer is a method whose runs are paired by design with another method's runs of the
// same seed: PairedWith names that method.
type pairer interface {
	PairedWith() string
}

// pairedWith is the method that method's runs are paired with ("" for none).
func pairedWith(method string) string {
	m, ok := registry.Lookup(method)
	if !ok {
		return ""
	}
	if p, ok := m.(pairer); ok {
		return p.PairedWith()
	}
	return ""
}

// paired returns the values of a and b at the seeds both have, in seed order.
func paired(a, b *Curve, metric func(Run) float64) (xa, xb []float64) {
	at := map[int]Run{}
	for _, r := range b.Runs {
		at[r.Seed] = r
	}
	for _, r := range a.Runs {
		if rb, ok := at[r.Seed]; ok {
			xa = append(xa, metric(r))
			xb = append(xb, metric(rb))
		}
	}
	return xa, xb
}

// values returns metric over c's runs.
func values(c *Curve, metric func(Run) float64) []float64 {
	out := make([]float64, len(c.Runs))
	for i, r := range c.Runs {
		out[i] = metric(r)
	}
	return out
}

// testPair runs the design's test of a - b - shift against alt.
func testPair(a, b *Curve, metric func(Run) float64, shift float64, alt stats.Alternative) (comparison, error) {
	cmp := comparison{
		Figure: a.Figure, Task: a.Task, Data: a.Data, D: a.D,
		MethodA: a.Method, ConfigA: a.Config, MethodB: b.Method, ConfigB: b.Config,
		Alternative: altName(alt), Margin: shift,
	}
	var res stats.TestResult
	var err error
	if pairedByDesign(a.Method, b.Method) {
		xa, xb := paired(a, b, metric)
		d := make([]float64, len(xa))
		for i := range xa {
			d[i] = xa[i] - xb[i] - shift
		}
		cmp.Test = "wilcoxon-signed-rank"
		res, err = stats.WilcoxonSignedRank(d, alt, Level)
	} else {
		xa := values(a, metric)
		for i := range xa {
			xa[i] -= shift
		}
		cmp.Test = "mann-whitney"
		res, err = stats.MannWhitney(xa, values(b, metric), alt, Level)
	}
	if err != nil {
		return cmp, fmt.Errorf("%s %s vs %s %s (d=%d): %w", a.Method, a.Config, b.Method, b.Config, a.D, err)
	}
	cmp.N, cmp.Exact, cmp.PValue = res.N, res.Exact, res.PValue
	// Report the estimate on the unshifted scale.
	cmp.Estimate = res.Estimate + shift
	cmp.CILow, cmp.CIHigh = records.Some(res.CILow+shift), records.Some(res.CIHigh+shift)
	return cmp, nil
}

func altName(a stats.Alternative) string {
	switch a {
	case stats.Less:
		return "less"
	case stats.Greater:
		return "greater"
	}
	return "two-sided"
}

func lossOf(r Run) float64 { return r.Loss }

// exploratory returns a two-sided test of final losses between every two curves of one
// figure, task, data and d, in curve order, with Holm's adjustment over the figure's rows.
// Pairs with fewer than two runs in common (paired) or in either curve are skipped.
func exploratory(res *Results) ([]comparison, error) {
	var out []comparison
	for _, fig := range res.Figures {
		var rows []comparison
		curves := curvesOf(res, fig)
		for i, a := range curves {
			for _, b := range curves[i+1:] {
				if a.Task != b.Task || a.Data != b.Data || a.D != b.D {
					continue
				}
				if !testable(a, b) {
					continue
				}
				cmp, err := testPair(a, b, lossOf, 0, stats.TwoSided)
				if err != nil {
					return nil, err
				}
				cmp.Metric = "loss"
				rows = append(rows, cmp)
			}
		}
		holmInto(rows)
		out = append(out, rows...)
	}
	return out, nil
}

// testable reports whether a and b have enough runs to be compared: at least two seeds in
// common when paired, at least two runs each otherwise, and not every difference zero.
func testable(a, b *Curve) bool {
	if pairedByDesign(a.Method, b.Method) {
		xa, xb := paired(a, b, lossOf)
		nonzero := 0
		for i := range xa {
			if xa[i] != xb[i] {
				nonzero++
			}
		}
		return nonzero >= 2
	}
	return len(a.Runs) >= 2 && len(b.Runs) >= 2
}

// holmInto fills PHolm over rows.
func holmInto(rows []comparison) {
	p := make([]float64, len(rows))
	for i, r := range rows {
		p[i] = r.PValue
	}
	for i, q := range stats.Holm(p) {
		rows[i].PHolm = q
	}
}

// curvesOf returns the curves of figure fig in order.
func curvesOf(res *Results, fig string) []*Curve {
	var out []*Curve
	for _, c := range res.Curves {
		if c.Figure == fig {
			out = append(out, c)
		}
	}
	return out
}
