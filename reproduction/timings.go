// Package reproduction gives programs the measurements committed beside the paper's
// reproduction in this folder. Its only export is the wall time of every committed cell, so
// that the runner's plan and progress ETA price a cell that was already measured by its
// measurement rather than by the cost model.
package reproduction

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"

	"dpgibo/internal/records"
)

// The timings of the committed runs: one row per cell, measured with the OpenBLAS build on
// the reproduction machine (each figure's manifest-NAME.json names the machine and BLAS).
//
//go:embed timings-*.csv
var timingFiles embed.FS

var cellSeconds = sync.OnceValues(func() (map[string]float64, error) {
	paths, err := fs.Glob(timingFiles, "timings-*.csv")
	if err != nil {
		return nil, err
	}
	total, count := map[string]float64{}, map[string]int{}
	for _, path := range paths {
		f, err := timingFiles.Open(path)
		if err != nil {
			return nil, err
		}
		rows, err := records.Unmarshal[records.Timing](f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("reproduction/%s: %w", path, err)
		}
		for _, r := range rows {
			total[r.Cell] += r.TotalSeconds
			count[r.Cell]++
		}
	}
	for cell, n := range count {
		total[cell] /= float64(n)
	}
	return total, nil
})

// CellSeconds returns the measured wall time in seconds of every cell of the committed runs,
// keyed by the cell's file stem (records.Timing.Cell), the mean where several committed runs
// measured the same cell (the stem ends with a hash of the cell's
// settings, so a cell whose settings changed is not found). The map is shared: do not modify
// it.
func CellSeconds() (map[string]float64, error) {
	return cellSeconds()
}
