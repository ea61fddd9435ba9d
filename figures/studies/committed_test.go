package studies

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
	"dpgibo/private"
)

// Every committed study table under reproduction/ reads with the checks of package
// records and has rows.
func TestCommittedStudyTablesRead(t *testing.T) {
	root := filepath.Join("..", "..", "reproduction")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var rows int
		var err2 error
		switch d.Name() {
		case EquivalenceFile:
			rows, err2 = countRows[EquivalenceRow](path)
		case DefaultsFile:
			rows, err2 = countRows[DefaultsRow](path)
		case LOOFile:
			rows, err2 = countRows[LOORow](path)
		case LibraryPeersFile:
			rows, err2 = countRows[PeerRow](path)
		default:
			return nil
		}
		if err2 != nil {
			return err2
		}
		if rows == 0 {
			t.Errorf("%s: no rows", path)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 7 {
		t.Errorf("read %d committed study tables, want the design, precision, implementation and UCB studies' and the library study's three", n)
	}
}

// countRows reads path as a table of T and returns its number of rows.
func countRows[T any](path string) (int, error) {
	rows, err := records.ReadFile[T](path)
	return len(rows), err
}

// The library's default rule is the one the committed private-tuner study chose
// (library-private-rules.csv): the second round's (round roundTwoChoice) when, on the second
// round's problems, it passes more cells than the first round's rule (the declared condition),
// else the first round's (round "nine"); before the study has chosen, the declared
// placeholder, DP-GIBO everywhere; once the low-SNR study has chosen (low-snr-rules.csv),
// its rule at each currency.
func TestDefaultRuleIsTheStudysChoice(t *testing.T) {
	path := filepath.Join("..", "..", "reproduction", "library-private", LibraryPrivateRulesFile)
	rows, err := records.ReadFile[RuleRow](path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	want := ruleName(private.Always{Method: private.DPGIBO})
	second, passSecond, passFirst := "", 0, 0
	for _, r := range rows {
		switch {
		case r.Round == "nine":
			want = r.Rule
		case r.Round == roundTwoChoice:
			second = r.Rule
		case r.Round == roundTwoNew && r.Pass:
			passSecond++
		case r.Round == roundTwoFirstRule && r.Pass:
			passFirst++
		}
	}
	if second != "" && passSecond > passFirst {
		want = second
	}
	// The low-SNR study's choice at each currency, once committed (low-snr-rules.csv).
	lowSNR, err := records.ReadFile[LowSNRRuleRow](filepath.Join("..", "..", "reproduction", "library-private", LowSNRRulesFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	chosen := map[string]string{} // by the latest round that chose
	for round := 1; round <= lowSNRRounds; round++ {
		for _, r := range lowSNR {
			if r.Round == lowSNRRuleRounds[round][1] {
				chosen[r.Target] = r.Rule
			}
		}
	}
	if len(chosen) > 0 {
		want = fmt.Sprintf("at (epsilon, delta): %s; at mu-GDP: %s", chosen[targetEpsDelta], chosen[targetGDP])
	}
	if got := ruleName(private.DefaultRule); got != want {
		t.Errorf("private.DefaultRule is %q; the committed study chose %q", got, want)
	}
}

// Contribution (3)'s table of readings reproduces the committed verdict at the declared
// reading (the same claims judged in the same Holm family), and has the 24 readings.
func TestContribution3DeclaredReadingIsTheCommittedVerdict(t *testing.T) {
	artefacts.Check(t)
	dir := filepath.Join("..", "..", "reproduction")
	res, err := verdict.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Contribution3Sensitivity(res)
	if err != nil {
		t.Fatal(err)
	}
	claimRows, err := records.ReadFile[verdict.ClaimRow](filepath.Join(dir, "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	stRows, err := records.ReadFile[verdict.StatementRow](filepath.Join(dir, "statements.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var want sensitivityRow
	for _, c := range claimRows {
		if c.StatementID == contribution3 && c.Counts {
			want.Claims++
			want.Reproduced += map[bool]int{true: 1}[c.Verdict == verdict.Reproduced]
			want.NotReproduced += map[bool]int{true: 1}[c.Verdict == verdict.NotReproduced]
		}
	}
	for _, s := range stRows {
		if s.StatementID == contribution3 {
			want.Verdict = s.Verdict
		}
	}
	declared := 0
	for _, r := range rows {
		if !r.Declared {
			continue
		}
		declared++
		if r.Claims != want.Claims || r.Reproduced != want.Reproduced || r.NotReproduced != want.NotReproduced || r.Verdict != want.Verdict {
			t.Errorf("declared reading %+v, committed %+v", r, want)
		}
	}
	if len(rows) != 24 || declared != 1 {
		t.Errorf("%d readings, %d declared; want 24 and 1", len(rows), declared)
	}
}
