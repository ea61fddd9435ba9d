package studies

import (
	"io/fs"
	"path/filepath"
	"testing"

	"dpgibo/internal/records"
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
		switch d.Name() {
		case EquivalenceFile:
			r, err := records.ReadFile[EquivalenceRow](path)
			if err != nil {
				return err
			}
			rows = len(r)
		case DefaultsFile:
			r, err := records.ReadFile[DefaultsRow](path)
			if err != nil {
				return err
			}
			rows = len(r)
		case LOOFile:
			r, err := records.ReadFile[LOORow](path)
			if err != nil {
				return err
			}
			rows = len(r)
		case LibraryPeersFile:
			r, err := records.ReadFile[PeerRow](path)
			if err != nil {
				return err
			}
			rows = len(r)
		default:
			return nil
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
