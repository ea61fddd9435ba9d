package studies

import (
	"strings"
	"testing"
)

func looRows() []DefaultsRow {
	row := func(p, v string, ratio float64, above bool) DefaultsRow {
		return DefaultsRow{Problem: p, Variant: v, Ratio: ratio, AboveStart: above}
	}
	lib, a, b := LibraryVariant, LibraryVariant+",rule=q75", LibraryVariant+",rule=shrink"
	return []DefaultsRow{
		// p1: lib fails badly, a and b pass.
		row("p1", lib, 1.4, true), row("p1", a, 1.02, false), row("p1", b, 1.04, false), row("p1", "defaults=before", 0.5, false),
		// p2: a is worst but within the bar.
		row("p2", lib, 0.98, false), row("p2", a, 1.04, false), row("p2", b, 1.01, false),
		// p3: b ends above its start.
		row("p3", lib, 1.0, false), row("p3", a, 1.03, false), row("p3", b, 1.0, true),
	}
}

// Each held-out problem gets the candidate ranked first on the others: fewest medians above
// their start, then the smallest worst ratio; revision 1 is never a candidate.
func TestLeaveOneOutChoosesWithoutTheHeldOutProblem(t *testing.T) {
	got, err := defaultsLeaveOneOut(looRows())
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		held, chosen string
		ratio        float64
		pass         bool
	}{
		// Without p1, lib and a are both never above start; lib's worst ratio 1.0 < a's 1.04.
		{"p1", LibraryVariant, 1.4, false},
		// Without p2: lib ends above on p1, b on p3; a on neither.
		{"p2", LibraryVariant + ",rule=q75", 1.04, true},
		// Without p3: a (worst 1.04) against b (1.04, mean log smaller): b.
		{"p3", LibraryVariant + ",rule=shrink", 1.0, false},
		{AllProblems, LibraryVariant + ",rule=q75", 0, false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.HeldOut != w.held || g.Chosen != w.chosen || g.HeldOutRatio != w.ratio || g.Pass != w.pass {
			t.Errorf("row %d: %+v, want held out %s, chosen %s, ratio %v, pass %v", i, g, w.held, w.chosen, w.ratio, w.pass)
		}
	}
	if got[2].HeldOutAboveStart != true || got[3].Problems != 3 || got[0].Problems != 2 {
		t.Errorf("rows %+v", got)
	}
}

func TestLeaveOneOutNeedsEveryCandidateOnEveryProblem(t *testing.T) {
	rows := looRows()[:9]
	if _, err := defaultsLeaveOneOut(rows); err == nil || !strings.Contains(err.Error(), "p3") {
		t.Fatalf("a candidate without a problem: error %v", err)
	}
}
