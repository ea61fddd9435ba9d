package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/studies"
	"dpgibo/internal/records"
)

// writeTable writes rows as dir/name.
func writeTable[T any](t *testing.T, dir, name string, rows []T) {
	t.Helper()
	data, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The low-SNR tables: nothing without the study; the study passes at 80% of at least 36
// cells with none above the start, flagged cells not counted; one cell above the start
// fails it; fewer than 36 cells say so.
func TestLowSNRAcceptanceVerdict(t *testing.T) {
	dir := t.TempDir()
	if body, err := lowSNRTables(dir); err != nil || body != "" {
		t.Fatalf("empty folder: %q, %v", body, err)
	}
	writeTable(t, dir, studies.LowSNRCandidatesFile, []studies.LowSNRCandidateRow{
		{Set: "training", Arm: "dpgibo", Problems: 2, AboveStart: 1, WorstLogLoss: 2, ElsewhereWorst: 1},
		{Set: "held out", Arm: "dpgibo", Problems: 2, WorstLogLoss: 1.2, ElsewhereWorst: 1}})
	writeTable(t, dir, studies.LowSNRChoiceFile, []studies.LowSNRChoiceRow{{Round: 1, HeldOut: studies.AllProblems, Chosen: "dpgibo", Problems: 2}})
	accept := func(n, pass, above, flagged int) string {
		var rows []studies.LowSNRAcceptanceRow
		for i := range n + flagged {
			rows = append(rows, studies.LowSNRAcceptanceRow{Round: 1, Problem: "p", Target: "gdp", Mu: 1, Pass: i < pass, AboveStart: i >= n-above && i < n,
				Flagged: i >= n, Arms: 4, ArmsPassing: 1})
		}
		writeTable(t, dir, studies.LowSNRAcceptanceFile, rows)
		body, err := lowSNRTables(dir)
		if err != nil {
			t.Fatal(err)
		}
		return body
	}
	for _, tc := range []struct {
		n, pass, above, flagged int
		want                    string
	}{
		{40, 32, 0, 3, "32 of 40 held-out cells pass (80%; at least 80% declared, and none above the start), 0 end above the start: the round passes"},
		{40, 31, 0, 0, "the round fails"},
		{40, 32, 1, 0, "1 end above the start: the round fails"},
		{35, 35, 0, 5, "the round has fewer than the declared 36 cells after flags"},
	} {
		if body := accept(tc.n, tc.pass, tc.above, tc.flagged); !strings.Contains(body, tc.want) {
			t.Errorf("%d cells, %d pass, %d above, %d flagged: lacks %q in\n%s", tc.n, tc.pass, tc.above, tc.flagged, tc.want, body)
		}
	}
	body := accept(40, 40, 0, 0)
	for _, want := range []string{
		"Chosen on all 2 training problems: `dpgibo` (no candidate qualifies, so today's DP-GIBO stays)",
		"Targets of the default `dpgibo` on the training problems: above the start in 1 cells (none declared): missed; worst log-loss ratio 2 (at most 1.5): missed",
		"Targets of the default `dpgibo` on the held out problems: above the start in 0 cells (none declared): met; worst log-loss ratio 1.2 (at most 1.5): met",
		"dp-auto on the first round's held-out cells",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("lacks %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, "second round") {
		t.Errorf("a second round without its rows in\n%s", body)
	}
}

// Which family wins a cell: the family of the arm best on the picking seeds, dp-auto left
// out (DP-HyPO is a selection, a DP-GIBO candidate DP-GIBO's family, dp-ucb global search);
// each family's G is that of its own arm best on the picking seeds; flagged cells are left
// out. README's line counts them by currency and loss.
func TestLowSNRFamilies(t *testing.T) {
	arms := []lowSNRArm{
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dpgibo", PickG: 0.5, JudgeG: 0.6},
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dpgibo release=average", PickG: 0.3, JudgeG: 0.7},
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dp-rnm", PickG: 0.4, JudgeG: 0.1},
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dp-hypo", PickG: 0.2, JudgeG: 0.3},
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dp-ucb", PickG: 0.9, JudgeG: 0.9},
		{Problem: "a", LogLoss: true, Target: "gdp", Mu: 1, Ceiling: 9, Arm: "dp-auto", PickG: 0.01, JudgeG: 0.01},
		{Problem: "b", Target: "gdp", Mu: 1, Ceiling: 1, Arm: "dpgibo-hybrid", PickG: 0.1, JudgeG: 0.2},
		{Problem: "b", Target: "gdp", Mu: 1, Ceiling: 1, Arm: "dp-random", PickG: 0.5, JudgeG: 0.5},
		{Problem: "c", Flagged: true, Target: "gdp", Mu: 1, Arm: "dp-random", PickG: 0.01, JudgeG: 0.01},
	}
	cells, err := familyCells(arms)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2 || cells[0].winner != familySelection || cells[0].g[familyGIBO] != 0.7 || cells[0].g[familySelection] != 0.3 ||
		cells[0].g[familyGlobal] != 0.9 || cells[1].winner != familyGIBO || cells[1].ceiling != 1 {
		t.Fatalf("cells %+v", cells)
	}
	dir := t.TempDir()
	writeTable(t, dir, studies.LowSNRFile, arms)
	body, err := lowSNRSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := "seeds; [docs/library.md](docs/library.md#dp-gibo-at-low-snr-declared-before-its-runs)): at mu-GDP, the selections win 1 of 1 log-loss cells (1 of 1 where DP-GIBO's SNR ceiling is 8 or more) and DP-GIBO's family 1 of 1 others."; !strings.Contains(body, want) {
		t.Errorf("lacks %q in\n%s", want, body)
	}
	if _, err := family("no-such-method"); err == nil {
		t.Error("an arm of no registered method has a family")
	}
}
