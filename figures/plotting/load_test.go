package plotting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/internal/records"
)

// A bad input among many is found before anything is drawn or written: the error names
// the file, line and column, and the output directory keeps exactly what it held.
func TestRenderDirWritesNothingOnABadInput(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	smallInputs(t, in)
	// noise-misspec is drawn late (figures are drawn in name order): a loss that is not a
	// number on its line 4.
	path := filepath.Join(in, "noise-misspec.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	cells := strings.Split(lines[3], ",")
	cells[22] = "NaN" // loss
	lines[3] = strings.Join(cells, ",")
	if strings.Split(lines[0], ",")[22] != "loss" {
		t.Fatalf("column 23 of %s is not loss", lines[0])
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	os.WriteFile(filepath.Join(out, "fig1.png"), []byte("an earlier figure"), 0o644)
	files, err := RenderDir(in, out, nil)
	if err == nil || err.Error() != path+`: line 4, column loss: "NaN" is not a finite number` {
		t.Fatalf("error %v", err)
	}
	entries, _ := os.ReadDir(out)
	if len(files) != 0 || len(entries) != 1 {
		t.Errorf("wrote %v; the output directory holds %d files", files, len(entries))
	}
	if b, _ := os.ReadFile(filepath.Join(out, "fig1.png")); string(b) != "an earlier figure" {
		t.Error("fig1.png was overwritten")
	}
	// A figure named in -only is read as its record type too: fig3f as theta paths.
	os.WriteFile(filepath.Join(in, "fig3f.csv"), []byte("figure,method,seed,iter,coord,value\nfig3f,gibo,1,0,101,0.5\n"), 0o644)
	if _, err := RenderDir(in, filepath.Join(out, "new"), []string{"fig3f"}); err == nil ||
		err.Error() != filepath.Join(in, "fig3f.csv")+": line 1: missing required column name" {
		t.Errorf("theta paths without name: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "new")); !os.IsNotExist(err) {
		t.Error("the output directory was created although nothing was drawn")
	}
}

// A figure whose every loss is f* draws its gap variant on the floor instead of making
// gonum panic on an empty log range.
func TestGapVariantWithEveryLossOnTheFloor(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	rows := traceRows("fig1", "grouplasso", "synthetic", []int{2}, []string{""}, []string{"gibo", "random"}, 3, 4)
	for i := range rows {
		rows[i].Loss = 0.5
	}
	writeCSV(t, in, "fig1", rows)
	writeCSV(t, in, "fstar", []records.FStar{{Task: "grouplasso", Data: "synthetic", D: 2, NUsers: 10, FStar: 0.5}})
	files, err := RenderDirAs(in, out, nil, []string{"png"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || filepath.Base(files[1]) != "fig1-gap.png" {
		t.Errorf("wrote %v", files)
	}
}

// A folder that holds only figures of one's own (a suite this package does not know) is
// drawn, each as a figure of one's own; its other CSVs (a study's table) are not figures.
func TestRenderDirDrawsAFolderOfOwnFigures(t *testing.T) {
	in, out := t.TempDir(), t.TempDir()
	writeCSV(t, in, "my-study-a", traceRows("my-study-a", "bowl", "synthetic", []int{3}, []string{"mu=1"}, []string{"dpgibo", "dp-random"}, 3, 5))
	if err := os.WriteFile(filepath.Join(in, "my-table.csv"), []byte("problem,ratio\na,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := RenderDir(in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || !strings.Contains(strings.Join(files, " "), "my-study-a") || strings.Contains(strings.Join(files, " "), "my-table") {
		t.Errorf("drew %v", files)
	}
}
