package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/internal/records"
)

// The field table ranks each setting's methods by median final loss, the field's
// comparators in bold and the private ones marked, then gives the private methods' medians
// with their intervals (three seeds: the order statistics' widest, [min, max]); a folder
// without field figures gives nothing.
func TestFieldTableRanksMethods(t *testing.T) {
	dir := t.TempDir()
	var rows []records.Row
	for _, m := range []struct {
		method string
		loss   [3]float64
	}{{"dpgibo", [3]float64{0.3, 0.2, 0.4}}, {"dp-zo", [3]float64{0.5, 0.6, 0.1}}, {"dp-random", [3]float64{0.9, 0.8, 0.7}}} {
		for seed, l := range m.loss {
			rows = append(rows, records.Row{Suite: "field", Figure: "field-x", Config: "mu=1", Task: "bowl", Data: "synthetic", Method: m.method,
				D: 3, NUsers: 10, Mu: 1, Seed: seed + 1, Iter: 1, Evals: 8, Loss: l, Budget: 8})
		}
	}
	data, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if body, err := fieldTable(dir); err != nil || body != "" {
		t.Fatalf("empty folder: %q, %v", body, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "field-x.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	body, err := fieldTable(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| bowl | 3 | mu=1 | dpgibo (p) 0.3, **dp-zo (p)** 0.5, dp-random (p) 0.8 |",
		"| bowl | 3 | mu=1 | dpgibo 0.3 [0.2, 0.4] (3 seeds), **dp-zo** 0.5 [0.1, 0.6] (3 seeds), dp-random 0.8 [0.7, 0.9] (3 seeds) |",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("table\n%s\nlacks %q", body, want)
		}
	}
}
