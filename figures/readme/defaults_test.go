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

// With defaults-loo.csv beside it, the table ends with the leave-one-out rows, the record
// of the held-out choices and revision 2's own.
func TestDefaultsTableWithLeaveOneOut(t *testing.T) {
	dir := t.TempDir()
	csv := "problem,task,d,hand,variant,pairs,median_hand,median_variant,ratio,pass,estimate,ci_low,ci_high,gap_ratio,median_start,above_start\n" +
		"a,a,2,,defaults=library,10,1,1.02,1.02,true,0.01,0,0.02,,2,false\n" +
		"b,b,3,,defaults=library,10,1,1.01,1.01,true,0.01,0,0.02,,0.9,true\n"
	loo := "held_out,chosen,problems,train_above_start,train_worst_ratio,train_mean_log_ratio,held_out_ratio,held_out_above_start,pass\n" +
		"a,\"defaults=library,rule=x\",1,0,1.01,0.01,1.03,false,true\n" +
		"b,defaults=library,1,0,1.02,0.02,1.01,true,false\n" +
		"none,\"defaults=library,rule=x\",2,0,1.03,0.02,0,false,false\n"
	for name, data := range map[string]string{studies.DefaultsFile: csv, studies.LOOFile: loo} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	table, err := defaultsTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| a | defaults=library,rule=x | 1.010 | 0 | 1.030 | false | true |",
		"Held out, the choice passes on 1 of 2 problems; `defaults=library` (revision 2) passes on 1 of 2. Chosen on all 2 problems: `defaults=library,rule=x`."} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// The comparison with the peers gives DP-GIBO's median at each mu, the peers', the ratio at
// mu = 1 to the better peer and the own times.
func TestLibraryPeersTable(t *testing.T) {
	dir := t.TempDir()
	csv := "problem,task,d,method,config,runs,median_loss,median_own_seconds,median_seconds\n" +
		"toy,toy,2,dpgibo,\"mu=0.5,defaults=library\",10,0.3,0.1,0.2\n" +
		"toy,toy,2,dpgibo,\"mu=1,defaults=library\",10,0.2,0.1,0.2\n" +
		"toy,toy,2,dpgibo,\"mu=+Inf,defaults=library\",10,0.1,0.1,0.2\n" +
		"toy,toy,2,tpe,,10,0.16,2.5,3\n" +
		"toy,toy,2,cmaes,,10,0.1,0.02,0.1\n"
	if err := os.WriteFile(filepath.Join(dir, studies.LibraryPeersFile), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	table, err := libraryPeersTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := "| toy | 2 | 0.3 | 0.2 |  | 0.1 | 0.16 | 0.1 | 2.000 | 0.1 | 2.5 | 0.02 |"; !strings.Contains(table, want) {
		t.Errorf("table lacks %q:\n%s", want, table)
	}
}
