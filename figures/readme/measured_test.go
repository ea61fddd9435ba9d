package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeRows[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	b, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The measured cost sums each figure's cells and its logged invocations, counts a cell
// shared by two figures once in the suite total, and reads a subfolder's own log.
func TestCostTableSumsTimingsAndInvocations(t *testing.T) {
	dir := t.TempDir()
	for _, fig := range []string{"figA", "figB"} {
		writeJSON(t, filepath.Join(dir, "manifest-"+fig+".json"), runinfo.Manifest{Suite: "paper", Only: fig, BLAS: "openblas 0.3.21 core=Haswell"})
	}
	writeRows(t, filepath.Join(dir, "timings-figA.csv"), []records.Timing{
		{Figures: "figA", Cell: "c1", TotalSeconds: 10, DesignSeconds: 4, EvalSeconds: 5},
		{Figures: "figA;figB", Cell: "c2", TotalSeconds: 20, DesignSeconds: 1, EvalSeconds: 18},
	})
	writeRows(t, filepath.Join(dir, "timings-figB.csv"), []records.Timing{
		{Figures: "figA;figB", Cell: "c2", TotalSeconds: 20, DesignSeconds: 1, EvalSeconds: 18},
	})
	writeRows(t, filepath.Join(dir, records.InvocationsFile), []records.Invocation{
		{Figure: "figA", WallSeconds: 100}, {Figure: "figA", WallSeconds: 25}, {Figure: "figB", WallSeconds: 1}, {Figure: "figC", WallSeconds: 7},
	})
	sub := filepath.Join(dir, "purego")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(sub, "manifest-figA.json"), runinfo.Manifest{Suite: "paper", Only: "figA", BLAS: "gonum"})
	writeRows(t, filepath.Join(sub, "timings-figA.csv"), []records.Timing{{Figures: "figA", Cell: "c1", TotalSeconds: 30}})
	writeRows(t, filepath.Join(sub, records.InvocationsFile), []records.Invocation{{Figure: "figA", WallSeconds: 3600}})

	table, err := costTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| . | paper | figA | OpenBLAS | 2 | 30 | 5 | 23 | 2 | 2m5s |",
		"| . | paper | figB | OpenBLAS | 1 | 20 | 1 | 18 | 1 | 1s |",
		"| purego | paper | figA | pure Go | 1 | 30 | 0 | 0 | 1 | 1h0m0s |",
		"| . | paper | OpenBLAS | 2 | 2 | 30 | 2m6s |",
		"| purego | paper | pure Go | 1 | 1 | 30 | 1h0m0s |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("cost table lacks %q:\n%s", want, table)
		}
	}
	totals, err := suiteTotals(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The expected time: the top folder's distinct cells (10 s and 20 s) at 2 workers,
	// not the invocations' sum (2m6s) nor the subfolder's run.
	if !strings.Contains(totals, "20s (the paper suite, 2 figures)") || strings.Contains(totals, "2m6s") || strings.Contains(totals, "1h0m0s") {
		t.Errorf("the expected times should schedule the top folder's cells only: %q", totals)
	}
	// The line below README's two commands says the same time.
	line, err := runAllTime(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "on 2 cores: about 20s (the paper suite's 2 figures with OpenBLAS, at -workers=2 on ") || strings.Contains(line, "1h0m0s") {
		t.Errorf("run_all.sh's expected time should schedule the top folder's paper cells only: %q", line)
	}
	for seconds, want := range map[float64]string{59.4: "59s", 5436: "1h31m", 5400: "1h30m", 3620: "1h0m", 150: "3m"} {
		if got := minutesText(seconds); got != want {
			t.Errorf("minutesText(%g) = %q, want %q", seconds, got, want)
		}
	}
}

// The build agreement pairs each claim judged in both folders and counts the equal verdicts.
func TestBuildAgreementComparesVerdicts(t *testing.T) {
	ref, dir := t.TempDir(), t.TempDir()
	writeJSON(t, filepath.Join(ref, "manifest-figA.json"), runinfo.Manifest{Suite: "paper", Only: "figA", BLAS: "openblas 0.3.21 core=Haswell"})
	writeJSON(t, filepath.Join(dir, "manifest-figA.json"), runinfo.Manifest{Suite: "paper", Only: "figA", BLAS: "gonum"})
	writeRows(t, filepath.Join(ref, "claims.csv"), []verdict.ClaimRow{
		{Claim: "a", Figure: "figA", Verdict: verdict.Reproduced}, {Claim: "b", Figure: "figA", Verdict: verdict.Inconclusive},
		{Claim: "c", Figure: "figB", Verdict: verdict.Reproduced},
	})
	writeRows(t, filepath.Join(dir, "claims.csv"), []verdict.ClaimRow{
		{Claim: "a", Figure: "figA", Verdict: verdict.Reproduced}, {Claim: "b", Figure: "figA", Verdict: verdict.NotReproduced},
		{Claim: "c", Figure: "figB", Verdict: verdict.NotYetRun},
	})
	table, err := buildAgreement(dir, ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| claim | figure | OpenBLAS | pure Go | same |", "| `a` | figA | reproduced | reproduced | true |",
		"| `b` | figA | inconclusive | not reproduced | false |", "1 of 2 claims have the same verdict"} {
		if !strings.Contains(table, want) {
			t.Errorf("agreement table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "`c`") {
		t.Errorf("a claim not run in one build is listed:\n%s", table)
	}
}

// The own-time table groups the baselines' figures' timings by method, task and d, gives
// the share of own time as summed design over summed total seconds, and marks the goal met
// or not (none on group LASSO); other figures are left out.
func TestOwnTimeTableSharesAndGoals(t *testing.T) {
	dir := t.TempDir()
	rows := []records.Timing{
		{Figures: "fig-peers", Task: "svr", Method: "tpe", D: 103, Seed: 1, DesignSeconds: 10, TotalSeconds: 50},
		{Figures: "fig-peers", Task: "svr", Method: "tpe", D: 103, Seed: 2, DesignSeconds: 2, TotalSeconds: 50},
		{Figures: "fig-peers", Task: "svr", Method: "cmaes", D: 103, Seed: 1, DesignSeconds: 1, TotalSeconds: 40},
		{Figures: "fig-private", Task: "gpreg", Method: "dp-ucb", D: 10, Seed: 1, DesignSeconds: 6, TotalSeconds: 20},
		{Figures: "fig-peers", Task: "grouplasso", Method: "tpe", D: 10, Seed: 1, DesignSeconds: 1, TotalSeconds: 1.1},
		{Figures: "fig1", Task: "grouplasso", Method: "dpgibo", D: 10, Seed: 1, DesignSeconds: 1, TotalSeconds: 2},
	}
	writeRows(t, filepath.Join(dir, "timings-x.csv"), rows)
	got, err := ownTimeTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| fig-peers | svr | 103 | tpe | 2 | 50 | 6 | 0.120 | 0.10 | no |",
		"| fig-peers | svr | 103 | cmaes | 1 | 40 | 1 | 0.025 | 0.10 | yes |",
		"| fig-private | gpreg | 10 | dp-ucb | 1 | 20 | 6 | 0.300 | 0.25 | no |",
		"| fig-peers | grouplasso | 10 | tpe | 1 | 1.1 | 1 | 0.909 |  |  |",
		"1 of 3 method x task x d rows with a goal",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("own-time table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "dpgibo") {
		t.Errorf("fig1 is not a baselines' figure, yet in the table:\n%s", got)
	}
}
