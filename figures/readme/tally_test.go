package main

import (
	"strings"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// The headline counts the paper's statements only, a restated one once, and says how many
// decided ones rest on substitute data (their verdict changes without their stand-in claims;
// a statement merely run on the stand-in is not counted); inconclusive ones show P(decided)
// from the power table.
func TestTallyCountsRepeatsOnceAndMarksSubstitutes(t *testing.T) {
	rows := []verdict.StatementRow{
		{StatementID: "a", SourceSection: "S", Verdict: verdict.Reproduced},
		{StatementID: "a2", SourceSection: "S", Verdict: verdict.Reproduced, Repeats: "a"},
		{StatementID: "b", SourceSection: "S", Verdict: verdict.NotReproduced, Substitute: "stand-in", StandInDecides: true},
		{StatementID: "b2", SourceSection: "S", Verdict: verdict.Reproduced, Substitute: "stand-in"},
		{StatementID: "c", SourceSection: "S", Verdict: verdict.Inconclusive, Substitute: "stand-in", StandInDecides: true},
		{StatementID: "own", Verdict: verdict.Reproduced},
	}
	rows[0].SeedsRaised, rows[0].SupersededVerdict = "f: 5 to 9 seeds", verdict.Inconclusive
	var b strings.Builder
	writeTally(&b, rows, nil)
	for _, want := range []string{"**4 statements of the paper: 2 reproduced, 1 not reproduced, 1 inconclusive", "1 more restate", "1 of the decided ones rest on substitute data",
		"1 verdict moved when their figures' seeds were raised after the results: `a` reproduced (inconclusive before; f: 5 to 9 seeds)",
		"The project's own statements, tallied apart: 1, 1 reproduced, 0 not reproduced"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("tally %q lacks %q", b.String(), want)
		}
	}
	b.Reset()
	writeStatements(&b, "t", rows, nil, true, []records.PowerRow{{Figure: "f", StatementID: "c", Seeds0: 9, Seeds: 9, PDecided: 0.17}, {Figure: "f", StatementID: "c", Seeds0: 9, Seeds: 20, PDecided: 0.98}},
		[]records.PowerRow{{Figure: "f", StatementID: "c", Seeds0: 9, Seeds: 15, PDecided: 0.3, ExtraCellSeconds: 100}, {Figure: "f", StatementID: "c", Seeds0: 9, Seeds: 20, PDecided: 0.4, ExtraCellSeconds: 300}}, nil)
	text := b.String()
	if !strings.Contains(text, "P(decided): f 0.17 at 9 seeds") || strings.Contains(text, "0.98") ||
		!strings.Contains(text, "seeds not raised: the power analysis put P(decided) at most 0.40 up to 20 seeds of f") {
		t.Errorf("statements table shows the wrong P(decided):\n%s", text)
	}
	if !strings.Contains(text, "**not reproduced** "+substituteMark) || strings.Contains(text, "**inconclusive** "+substituteMark) ||
		strings.Count(text, substituteMark) != 1 {
		t.Errorf("the stand-in mark is on the wrong rows:\n%s", text)
	}
	if !strings.Contains(text, "restates `a`") {
		t.Errorf("the restated statement is not marked:\n%s", text)
	}
}
