package runner_test

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/experiments/runner"
)

// The cell encoding is frozen: every committed manifest's own blocks (the figures it
// recorded, not the suites' code today), planned again, give the manifest's cell list stem
// for stem and its config hash. A change of the encoding that would give a committed
// computation a second stem, or break -from and -resume across it, fails here.
func TestCommittedBlocksPlanToTheirStemsAndConfigHash(t *testing.T) {
	root := filepath.Join("..", "..", "reproduction")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "manifest") || filepath.Ext(path) != ".json" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var m runner.Manifest
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		p, err := runner.MakePlan(m.Suite, m.Figures, cmp.Or(m.DataSource, "stand-in"))
		if err != nil {
			t.Errorf("%s: planning its own blocks: %v", path, err)
			return nil
		}
		var stems []string
		for _, c := range p.Cells {
			stems = append(stems, c.Stem())
		}
		if !slices.Equal(stems, m.CellList) {
			i := 0
			for i < min(len(stems), len(m.CellList)) && stems[i] == m.CellList[i] {
				i++
			}
			t.Errorf("%s: its blocks plan to %d cells, it lists %d; the first difference is cell %d", path, len(stems), len(m.CellList), i+1)
		}
		if got := runner.ConfigHash(m.Suite, p); got != m.ConfigHash {
			t.Errorf("%s: its blocks hash to %.12s, it records %.12s", path, got, m.ConfigHash)
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 80 {
		t.Errorf("checked %d committed manifests, want every one (86 when this test was written)", checked)
	}
}
