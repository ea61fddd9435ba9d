package reproduction

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"dpgibo/internal/records"
)

// CellSeconds holds every cell of every committed timings file, each at the mean of its
// measurements, and every time is positive and finite.
func TestCellSecondsHoldsEveryCommittedCell(t *testing.T) {
	times, err := CellSeconds()
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob("timings-*.csv")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no committed timings (%v)", err)
	}
	total, count := map[string]float64{}, map[string]int{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := records.Unmarshal[records.Timing](f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			total[r.Cell] += r.TotalSeconds
			count[r.Cell]++
		}
	}
	if len(times) != len(count) {
		t.Errorf("CellSeconds has %d cells, the files %d", len(times), len(count))
	}
	repeated := 0
	for cell, n := range count {
		if n > 1 {
			repeated++
		}
		want := total[cell] / float64(n)
		got, ok := times[cell]
		if !ok || math.Abs(got-want) > 1e-12*want || !(got > 0) || math.IsInf(got, 0) {
			t.Errorf("%s: CellSeconds %v (present %v), want the mean %v of %d positive measurements", cell, got, ok, want, n)
		}
	}
	if repeated == 0 {
		t.Error("no cell is timed twice (fig3f's cells are fig2b's): the mean is untested")
	}
}
