package studies

import (
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/figures/verdict/verdicttest"
	"dpgibo/internal/records"
)

// withFStar is the results of rows with f* = 98 at every setting, so that G0 = 99 - 98 = 1.
func withFStar(t *testing.T, rows []records.Row) *verdict.Results {
	t.Helper()
	curves, err := verdict.Curves(rows)
	if err != nil {
		t.Fatal(err)
	}
	res := &verdict.Results{Curves: curves, FStar: verdict.FStarTable{}}
	seen := map[string]bool{}
	for _, c := range curves {
		res.FStar.Set(c, 98)
		if !seen[c.Figure] {
			seen[c.Figure] = true
			res.Figures = append(res.Figures, c.Figure)
		}
	}
	return res
}

// The design study pairs design-NAME's curves with NAME's by seed: non-inferior when the
// upper 95% limit of the Hodges-Lehmann difference new - old is below 0.1 G0 (G0 = 1 here).
func TestEquivalenceOfADesign(t *testing.T) {
	n := 12
	old := verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64(i) })
	var rows []records.Row
	rows = append(rows, verdicttest.RowsOf("f", "dpgibo", "x=1", 15, old...)...)
	rows = append(rows, verdicttest.RowsOf("f", "dpgibo", "x=2", 15, old...)...)
	rows = append(rows, verdicttest.RowsOf("design-f", "dpgibo", "x=1", 15, verdicttest.Seq(n, func(i int) float64 { return old[i] + 0.001*float64(i%3) })...)...)
	rows = append(rows, verdicttest.RowsOf("design-f", "dpgibo", "x=2", 15, verdicttest.Seq(n, func(i int) float64 { return old[i] + 0.2 + 0.001*float64(i%3) })...)...)
	res := withFStar(t, rows)
	got, err := equivalence(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Config != "x=1" || got[0].Figure != "f" {
		t.Fatalf("rows %+v", got)
	}
	if !got[0].NonInferior || got[0].Margin != 0.1 || got[0].Pairs != n {
		t.Errorf("a design within 0.002 of the old one: %+v, want non-inferior at margin 0.1 over %d pairs", got[0], n)
	}
	if got[1].NonInferior || got[1].CIHigh < 0.2 {
		t.Errorf("a design 0.2 worse: %+v, want not non-inferior", got[1])
	}
}

// Two designs that give the same runs are equivalent: estimate and interval 0, no error.
func TestEquivalenceOfIdenticalRuns(t *testing.T) {
	v := verdicttest.Seq(12, func(i int) float64 { return 1 + 0.01*float64(i) })
	res := withFStar(t, append(verdicttest.RowsOf("f", "dpgibo", "x=1", 15, v...), verdicttest.RowsOf("design-f", "dpgibo", "x=1", 15, v...)...))
	got, err := equivalence(res, nil)
	if err != nil || len(got) != 1 || !got[0].NonInferior || got[0].CIHigh != 0 || got[0].Estimate != 0 {
		t.Fatalf("identical runs: %+v, %v", got, err)
	}
}
