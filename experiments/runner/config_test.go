package runner_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines/gibo"
	"dpgibo/experiments/runner"
	"dpgibo/internal/records"
)

// A method's own config (Block.Config) changes the stems and labels of the cells of the
// methods that take it and of no other; a manifest's record of the block plans to the same
// cells; a config no method of the block takes is an error.
func TestMethodConfigChangesOnlyItsMethodsCells(t *testing.T) {
	figs := engineFigures()[:1]
	plain, err := runner.MakePlan(engineSuite, figs, "")
	if err != nil {
		t.Fatal(err)
	}
	figs = engineFigures()[:1]
	figs[0].Blocks[0].Config = gibo.Variant{Release: algo.ReleaseFallback, FallbackSNR: 0.3}
	withConfig, err := runner.MakePlan(engineSuite, figs, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Cells) != len(withConfig.Cells) {
		t.Fatalf("%d cells with the config, %d without", len(withConfig.Cells), len(plain.Cells))
	}
	for i, c := range withConfig.Cells {
		same := plain.Stems[i] == withConfig.Stems[i]
		if takes := c.Method == "dpgibo"; takes == same {
			t.Errorf("cell %s (method %s): stem with the config %s, without %s", withConfig.Stems[i], c.Method, withConfig.Stems[i], plain.Stems[i])
		}
	}
	for _, ref := range withConfig.Uses[0] {
		c := withConfig.Cells[ref.Cell]
		if want := c.Method == "dpgibo"; strings.HasSuffix(ref.Label, "release=fallback,fallback_snr=0.3") != want {
			t.Errorf("method %s: label %q", c.Method, ref.Label)
		}
	}
	// The manifest's record of the figures plans to the same cells.
	b, err := json.Marshal(figs)
	if err != nil {
		t.Fatal(err)
	}
	var decoded []runner.Figure
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	again, err := runner.MakePlan(engineSuite, decoded, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Stems, withConfig.Stems) {
		t.Error("the decoded figures plan to other stems")
	}
	figs[0].Blocks[0].Methods = []string{"random"}
	if _, err := runner.MakePlan(engineSuite, figs, ""); err == nil || !strings.Contains(err.Error(), "taken by none") {
		t.Errorf("a config no method takes: %v", err)
	}
}

// A cell of a method with its own config runs with it: on the engine's figure at a small
// mu, the fallback variant releases theta0 in some run (its last row is its start's loss),
// which the last-iterate release never does there.
func TestMethodConfigRuns(t *testing.T) {
	figs := engineFigures()[:1]
	figs[0].Blocks[0].Methods = []string{"dpgibo"}
	figs[0].Blocks[0].Algo.Mu = 0.05
	figs[0].Blocks[0].Config = gibo.Variant{Release: algo.ReleaseFallback}
	dir := t.TempDir()
	o := engineOptions(dir, 2)
	o.Figures = figs
	if err := runSuite(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	rows, err := records.ReadFile[records.Row](filepath.Join(dir, "e1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Each run's rows are contiguous and start at iteration 0 (theta0).
	fellBack, runs := 0, 0
	for i, r := range rows {
		if r.Iter != 0 {
			continue
		}
		runs++
		end := i + 1
		for end < len(rows) && rows[end].Iter != 0 {
			end++
		}
		if last := rows[end-1]; last.Iter > 0 && last.Loss == r.Loss {
			fellBack++
		}
	}
	if runs == 0 || fellBack == 0 {
		t.Errorf("%d runs; none of the fallback variant at mu = 0.05 released its start", runs)
	}
}
