package outputs

import (
	"os"
	"path/filepath"
	"testing"

	"dpgibo/figures/studies"
	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// BenchmarkJudgeCommitted judges every committed figure of reproduction/: for the folder
// and each of its subfolders that holds figure CSVs, what Files computes once the CSVs are
// read (the verdict files, and the studies' tables where the folder holds their figures).
// Reading and decompressing the CSVs is outside the timing. One sub-benchmark per folder;
// run it with -benchtime=1x.
func BenchmarkJudgeCommitted(b *testing.B) {
	root := filepath.Join("..", "..", "reproduction")
	entries, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	dirs := []string{root}
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	judged := 0
	for _, dir := range dirs {
		res, err := verdict.ReadDir(dir)
		if err != nil {
			b.Fatalf("%s: %v", dir, err)
		}
		if len(res.Figures) == 0 {
			continue
		}
		timings, err := records.ReadTimings(dir)
		if err != nil {
			b.Fatalf("%s: %v", dir, err)
		}
		judged++
		name, _ := filepath.Rel(root, dir)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := verdict.Outputs(res); err != nil {
					b.Fatal(err)
				}
				if _, err := studies.Outputs(res, timings); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if judged == 0 {
		b.Fatal("no committed figure under reproduction/")
	}
}
