// Package outputs writes every verdict file of a results folder: the claims' verdicts
// (package figures/verdict) and the studies' tables (package figures/studies), each
// computed before any is written.
package outputs

import (
	"os"

	"dpgibo/figures/studies"
	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// WriteDir reads the figure CSVs of dir and writes the verdict files into dir: see WriteTo.
func WriteDir(dir string) ([]string, error) { return WriteTo(dir, dir) }

// WriteTo reads the figure CSVs of dir and writes Files(dir) into out (created if needed),
// each file atomically, only after every one has been computed. It returns the paths
// written; a directory without figure CSVs writes nothing and returns none.
func WriteTo(dir, out string) ([]string, error) {
	files, err := Files(dir)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return records.WriteFiles(out, files)
}

// Files reads the figure CSVs (and timings) of dir and returns, without writing them, the
// verdict files (verdict.Outputs) and the studies' tables when dir holds their figures
// (studies.Outputs). A directory without figure CSVs gives none.
func Files(dir string) ([]records.File, error) {
	res, err := verdict.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(res.Figures) == 0 {
		return nil, nil
	}
	files, err := verdict.Outputs(res)
	if err != nil {
		return nil, err
	}
	timings, err := records.ReadTimings(dir)
	if err != nil {
		return nil, err
	}
	more, err := studies.Outputs(res, timings)
	if err != nil {
		return nil, err
	}
	return append(files, more...), nil
}
