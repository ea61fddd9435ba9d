package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/studies"
)

// The README line counts only algo's own defaults (defaults=library) and gives the range of
// their ratios; the docs table lists every variant with its pass count.
func TestDefaultsSummaryAndTable(t *testing.T) {
	dir := t.TempDir()
	csv := "problem,task,d,hand,variant,pairs,median_hand,median_variant,ratio,pass,estimate,ci_low,ci_high,gap_ratio\n" +
		"a,a,2,,defaults=library,10,1,1.02,1.02,true,0.01,0,0.02,\n" +
		"a,a,2,,defaults=before,10,1,1.3,1.3,false,0.3,0.2,0.4,\n" +
		"b,b,3,\"step=1,clip=2\",defaults=library,10,2,2.2,1.1,false,0.2,0.1,0.3,1.5\n"
	if err := os.WriteFile(filepath.Join(dir, studies.DefaultsFile), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	line, err := defaultsSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "within 1.05 x of hand-tuned settings on 1 of 2 problems (ratios 1.020 to 1.100") {
		t.Errorf("summary %q", line)
	}
	table, err := defaultsTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"`defaults=library` is within 1.05 x of hand-tuned on 1 of 2 problems.",
		"`defaults=before` is within 1.05 x of hand-tuned on 0 of 1 problems.", "| b | 3 | step=1,clip=2 | defaults=library |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
