package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
)

// resample draws whole seeds: every curve of the figure takes the run of the same drawn
// seed (pairs stay pairs), renumbered 1..n, and other figures' curves are untouched.
func TestResampleKeepsPairs(t *testing.T) {
	res := &verdict.Results{Figures: []string{"f", "g"}}
	for _, m := range []string{"dpgibo", "gibo"} {
		c := &verdict.Curve{Figure: "f", Method: m, D: 2}
		for s := 1; s <= 3; s++ {
			c.Runs = append(c.Runs, verdict.Run{Seed: s, Loss: float64(10*s) + float64(len(m))})
		}
		res.Curves = append(res.Curves, c)
	}
	other := &verdict.Curve{Figure: "g", Method: "random", Runs: []verdict.Run{{Seed: 1, Loss: 5}}}
	res.Curves = append(res.Curves, other)
	got := resample(res, "f", []int{1, 2, 3}, []int{2, 2, 0, 1})
	if got.Curves[2] != other {
		t.Error("a curve of another figure was replaced")
	}
	for _, c := range got.Curves[:2] {
		if len(c.Runs) != 4 {
			t.Fatalf("%s: %d runs, want 4", c.Method, len(c.Runs))
		}
		for i, want := range []int{3, 3, 1, 2} { // committed seeds of the drawn indices
			r := c.Runs[i]
			if r.Seed != i+1 || r.Loss != float64(10*want)+float64(len(c.Method)) {
				t.Errorf("%s run %d: seed %d loss %g, want seed %d from committed seed %d", c.Method, i, r.Seed, r.Loss, i+1, want)
			}
		}
	}
	if len(res.Curves[0].Runs) != 3 || res.Curves[0].Runs[2].Seed != 3 {
		t.Error("resample changed the committed curves")
	}
}

// The table on the committed fig2b: one row per statement with a counted claim there and per
// n (the committed number first), shares in [0, 1] that add up, costs that grow with n, and
// the same bytes with one worker and with two.
func TestPowerTableOnCommittedResults(t *testing.T) {
	artefacts.Check(t)
	in := filepath.Join("..", "..", "reproduction")
	res, err := verdict.ReadDir(in)
	if err != nil {
		t.Fatal(err)
	}
	n0 := len(seeds(res, "fig2b"))
	dir := t.TempDir()
	var outs []string
	for _, w := range []string{"1", "2"} {
		out := filepath.Join(dir, "power-"+w+".csv")
		var stdout, stderr bytes.Buffer
		n := fmt.Sprintf("2,%d", n0+3)
		if err := run([]string{"-in", in, "-figures", "fig2b", "-n", n, "-replicates", "6", "-workers", w, "-out", out}, &stdout, &stderr); err != nil {
			t.Fatalf("%v: %s", err, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	if outs[0] != outs[1] {
		t.Error("the table depends on -workers")
	}
	rows, err := records.Unmarshal[Row](strings.NewReader(outs[0]))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string][]int{}
	for _, r := range rows {
		seen[r.StatementID] = append(seen[r.StatementID], r.Seeds)
		if r.PReproduced < 0 || r.PNotReproduced < 0 || r.PDecided > 1 || r.PDecided != r.PReproduced+r.PNotReproduced {
			t.Errorf("%+v: shares out of range or not adding up", r)
		}
		if r.Seeds == r.Seeds0 && r.ExtraCellSeconds != 0 || r.Seeds > r.Seeds0 && !(r.ExtraCellSeconds > 0) {
			t.Errorf("%+v: extra cell-seconds", r)
		}
	}
	for _, id := range []string{"app-svr-converge", "fig2-caption-svr"} {
		// 2 is below the committed seeds and is not tried; n0 + 3 is.
		if got := seen[id]; len(got) != 2 || got[0] != n0 || got[1] != n0+3 {
			t.Errorf("%s: seeds tried %v, want [%d %d]", id, got, n0, n0+3)
		}
	}
	var stderr bytes.Buffer
	if err := run([]string{"-in", in, "-figures", "nope"}, &bytes.Buffer{}, &stderr); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown figure: error %v, want one naming it", err)
	}
	if err := run([]string{"-in", in, "-n", "1"}, &bytes.Buffer{}, &stderr); err == nil || !strings.Contains(err.Error(), "-n") {
		t.Errorf("-n 1: error %v, want one naming -n", err)
	}
}
