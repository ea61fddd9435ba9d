package claims

import (
	"slices"
	"testing"
)

// A claim's conditions name the design choices its verdict rests on: the currency of a
// private comparison, the clipping rule where the paper gives no B, and the scale of
// "substantially"; a claim on a figure with none of them has none.
func TestConditions(t *testing.T) {
	for _, c := range []struct {
		claim Claim
		want  []string
	}{
		{Claim{Figure: "fig-private-select", Metric: MetricLogGap, Margin: SubstantialMargin, A: Side{Config: "mu=1"}, B: Side{Config: "mu=1"}},
			[]string{"currency: each comparator at the (epsilon, 1e-5) of DP-GIBO's mu", `"substantially": a gap to f* at most half the other's`}},
		{Claim{Figure: "fig-private-select", A: Side{Config: "currency=gdp,mu=1"}}, []string{"currency: equal mu-GDP"}},
		{Claim{Figure: "fig2a-b3", Margin: trackMargin}, []string{"clip: B = 3, fixed before fig2a's first runs"}},
		{Claim{Figure: "noise-misspec"}, []string{"clip: the noise-floor rule B = 2 sigma/l"}},
		{Claim{Figure: "fig1", Metric: MetricLogGap, Margin: trackMargin}, nil},
	} {
		if got := Conditions(c.claim); !slices.Equal(got, c.want) {
			t.Errorf("%s: conditions %q, want %q", c.claim.Figure, got, c.want)
		}
	}
}

// Every declared seed raise raises seeds, for declared statements that have a counted claim
// on the raised curves.
func TestSeedRaisesAreForStatementsThatReadThem(t *testing.T) {
	sts := Statements()
	for _, r := range SeedRaises {
		if r.To <= r.From || r.From < 1 || len(r.For) == 0 {
			t.Errorf("%s: raise from %d to %d seeds for %v", r.Figure, r.From, r.To, r.For)
		}
		for _, id := range r.For {
			i := slices.IndexFunc(sts, func(s Statement) bool { return s.ID == id })
			if i < 0 || !slices.ContainsFunc(sts[i].Claims, func(c Claim) bool { return c.Aside == "" && r.Reads(c) }) {
				t.Errorf("%s's raise is for %s, which is not a statement with a counted claim on the raised curves", r.Figure, id)
			}
		}
	}
}

// The log-gap scale was declared before fig-private-select and the field suite ran, and
// chosen after the results for the figures before them.
func TestLogGapPostHocFollowsTheDeclarations(t *testing.T) {
	for fig, want := range map[string]bool{
		"fig2a": true, "fig-private": true, "fig-private-select": false,
		"field-fig2a": false, "field-fig-private": false, "field-fig-private-select": false,
	} {
		if got := LogGapPostHoc(fig); got != want {
			t.Errorf("LogGapPostHoc(%q) = %v, want %v", fig, got, want)
		}
	}
}
