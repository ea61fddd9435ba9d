package studies

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

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

// The library's default rule is the one the committed private-tuner study chose on the nine
// problems (library-private-rules.csv, round "nine"), so that the code cannot drift from the
// study; before the study has chosen, it is the declared placeholder, DP-GIBO everywhere.
func TestDefaultRuleIsTheStudysChoice(t *testing.T) {
	path := filepath.Join("..", "..", "reproduction", "library-private", LibraryPrivateRulesFile)
	rows, err := records.ReadFile[RuleRow](path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	want := RuleName(private.Always{Method: private.DPGIBO})
	for _, r := range rows {
		if r.Round == "nine" {
			want = r.Rule
		}
	}
	if got := RuleName(private.DefaultRule); got != want {
		t.Errorf("private.DefaultRule is %q; the committed study chose %q", got, want)
	}
}
