package verdict

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/verdict/verdicttest"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
)

func marshalled[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	b, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A figure CSV that is not a good file of records.Row is ReadDir's error, the one
// records.ReadFile gives (naming the file, and the line and column of a bad cell), not a
// file skipped.
func TestReadDirRejectsMalformedFigureCSVs(t *testing.T) {
	good := marshalled(t, verdicttest.RowsOf("fig2a", "dpgibo", "", 2, 0.1, 0.2, 0.3))
	lines := strings.SplitAfter(string(good), "\n")
	header := strings.Split(strings.TrimSpace(lines[0]), ",")
	without := func(col string) []byte {
		j := -1
		for i, h := range header {
			if h == col {
				j = i
			}
		}
		var out []string
		for _, l := range strings.Split(strings.TrimSuffix(string(good), "\n"), "\n") {
			cells := strings.Split(l, ",")
			out = append(out, strings.Join(append(cells[:j:j], cells[j+1:]...), ","))
		}
		return []byte(strings.Join(out, "\n") + "\n")
	}
	nan := strings.Replace(string(good), ",0.2,", ",NaN,", 1)
	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"garbage header", "fig2a.csv", []byte("x" + strings.Repeat(",y", len(header)-1) + "\n" + strings.Join(lines[1:], "")),
			"fig2a.csv: line 1: missing required columns figure, config, task, data, method, d, n_users, n_train, seed, iter, evals, loss"},
		{"no loss", "fig2a.csv", without("loss"), "fig2a.csv: line 1: missing required column loss"},
		{"NaN loss", "fig2a.csv", []byte(nan), `fig2a.csv: line 5, column loss: "NaN" is not a finite number`},
		{"not gzip", "fig2a.csv.gz", good, "fig2a.csv.gz: not a gzip file"},
		{"truncated", "fig2a.csv.gz", gzipBytes(t, good)[:40], "fig2a.csv.gz: truncated (gzip: unexpected EOF)"},
	}
	if !strings.Contains(nan, "NaN") {
		t.Fatal("no loss 0.2 to replace")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "fig1.csv"), marshalled(t, verdicttest.RowsOf("fig1", "gibo", "", 2, 0.5, 0.6)), 0o644)
			path := filepath.Join(dir, c.file)
			os.WriteFile(path, c.data, 0o644)
			_, err := ReadDir(dir)
			if err == nil || err.Error() != filepath.Join(dir, c.want) {
				t.Fatalf("error %v\n   want %s", err, filepath.Join(dir, c.want))
			}
			_, readErr := records.ReadFile[records.Row](path)
			if readErr == nil || readErr.Error() != err.Error() {
				t.Errorf("ReadDir's error %v is not ReadFile's %v", err, readErr)
			}
		})
	}
}

// Files that are not loss traces are still skipped: theta paths, the runner's and the
// verdicts' own files, a figure without rows; and an absent fstar.csv is no optima.
func TestReadDirSkipsWhatIsNotALossTrace(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "fig1.csv"), marshalled(t, verdicttest.RowsOf("fig1", "gibo", "", 2, 0.5, 0.6)), 0o644)
	os.WriteFile(filepath.Join(dir, "fig3f.csv.gz"), gzipBytes(t, marshalled(t, []records.ThetaRow{
		{Figure: "fig3f", Method: "dpgibo", Seed: 1, Coord: 101, Name: "log C", Value: 0.5}})), 0o644)
	os.WriteFile(filepath.Join(dir, "fig2a.csv"), marshalled(t, []records.Row{}), 0o644)
	os.WriteFile(filepath.Join(dir, records.InvocationsFile), marshalled(t, []records.Invocation{{Figure: "fig1", WallSeconds: 3}}), 0o644)
	os.WriteFile(filepath.Join(dir, "timings-fig1.csv"), []byte("the full run's timings\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "summary.csv"), []byte("not a figure\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "theory_sweep.csv"), []byte("sweep,dim\nrate,4\n"), 0o644)
	res, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Figures) != 1 || res.Figures[0] != "fig1" || len(res.Curves) != 1 || len(res.FStar) != 0 {
		t.Errorf("read figures %v, %d curves, %d f*", res.Figures, len(res.Curves), len(res.FStar))
	}
}

// Every committed file of this package's record types under reproduction/ reads with the
// checks of package records, and every committed figure CSV has a loss trace's or a theta path's header.
func TestCommittedVerdictFilesRead(t *testing.T) {
	artefacts.Check(t)
	root := filepath.Join("..", "..", "reproduction")
	read := map[string]func(string) (int, error){
		"summary":     count(records.ReadFile[SummaryRow]),
		"comparisons": count(records.ReadFile[comparison]),
		"claims":      count(records.ReadFile[ClaimRow]),
		"statements":  count(records.ReadFile[StatementRow]),
		"power":       count(records.ReadFile[records.PowerRow]),
	}
	files, folders := 0, map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name, ok := records.CSVName(d.Name())
		if !ok {
			return nil
		}
		if figureCSV(d.Name()) {
			folders[filepath.Dir(path)] = true
		}
		f, ok := read[name]
		if !ok {
			return nil
		}
		n, err := f(path)
		if err != nil {
			return err
		}
		if n == 0 {
			t.Errorf("%s: no rows", path)
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 12 {
		t.Errorf("read %d committed verdict files", files)
	}
	// Each folder's figure CSVs: their headers here (every row of them is read as a whole
	// folder and judged by figures/readme's artefact test, a 25-second decode not done twice).
	for dir := range folders {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !figureCSV(e.Name()) {
				continue
			}
			header, err := records.Header(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Error(err)
			} else if !records.HasRequired[records.Row](header) && !records.HasRequired[records.ThetaRow](header) {
				t.Errorf("%s/%s: neither a loss trace's header nor a theta path's: %v", dir, e.Name(), header)
			}
		}
	}
	if len(folders) < 5 {
		t.Errorf("%d folders with figure CSVs", len(folders))
	}
}

func count[T any](read func(string) ([]T, error)) func(string) (int, error) {
	return func(path string) (int, error) {
		rows, err := read(path)
		return len(rows), err
	}
}
