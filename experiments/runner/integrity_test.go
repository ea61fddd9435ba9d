package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/data"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/records"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// fig1Run runs the quick suite's fig1 into a new directory and returns it with fig1.csv's
// bytes.
func fig1Run(t *testing.T) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	o := quickOptions(dir, 2)
	o.Only = "fig1"
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "fig1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, want
}

// firstCell is the stem of the first cell of the quick suite's fig1.
func firstCell(t *testing.T) string {
	t.Helper()
	figs, _ := suites.Figures(suites.Quick, "fig1")
	p, err := runner.MakePlan(suites.Quick, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	return p.Stems[0]
}

func TestDamagedCellsAreRunAgainOrRefused(t *testing.T) {
	dir, want := fig1Run(t)
	stem := firstCell(t)
	rowsPath := filepath.Join(dir, "cells", stem+".rows.csv")
	donePath := filepath.Join(dir, "cells", stem+".done.csv")
	good, err := os.ReadFile(rowsPath)
	if err != nil {
		t.Fatal(err)
	}
	goodDone, _ := os.ReadFile(donePath)
	lines := strings.SplitAfter(string(good), "\n")
	header := strings.Split(strings.TrimSpace(lines[0]), ",")
	lossCol := -1
	for j, h := range header {
		if h == "loss" {
			lossCol = j
		}
	}
	dropColumn := func(col int) string {
		var b strings.Builder
		for _, line := range lines {
			f := strings.Split(strings.TrimSuffix(line, "\n"), ",")
			if len(f) <= col {
				b.WriteString(line)
				continue
			}
			b.WriteString(strings.Join(append(f[:col:col], f[col+1:]...), ",") + "\n")
		}
		return b.String()
	}
	setNaN := func() string {
		f := strings.Split(strings.TrimSuffix(lines[1], "\n"), ",")
		f[lossCol] = "NaN"
		return lines[0] + strings.Join(f, ",") + "\n" + strings.Join(lines[2:], "")
	}
	oldFormat := func() []byte {
		recs, err := records.ReadFile[records.CellDone](donePath)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := records.Marshal([]records.Timing{recs[0].Timing})
		return b
	}()
	for _, tc := range []struct {
		name  string
		rows  string // replaces the rows file ("" keeps it)
		done  []byte // replaces the done file (nil keeps it)
		cause string
	}{
		{"last lines removed", strings.Join(lines[:len(lines)-3], ""), nil, "does not match its done record"},
		{"loss column removed", dropColumn(lossCol), nil, "does not match its done record"},
		{"NaN loss", setNaN(), nil, "does not match its done record"},
		{"older done format", "", oldFormat, "older format without checksums"},
	} {
		if tc.rows != "" {
			os.WriteFile(rowsPath, []byte(tc.rows), 0o644)
		}
		if tc.done != nil {
			os.WriteFile(donePath, tc.done, 0o644)
		}
		// -merge refuses, naming the cell, and writes nothing.
		os.Remove(filepath.Join(dir, "fig1.csv"))
		o := quickOptions(dir, 1)
		o.Only, o.Merge = "fig1", true
		err := runSuite(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), stem) || !strings.Contains(err.Error(), tc.cause) {
			t.Errorf("%s: -merge gave %v; want a refusal naming %s (%s)", tc.name, err, stem, tc.cause)
		}
		if _, err := os.Stat(filepath.Join(dir, "fig1.csv")); err == nil {
			t.Errorf("%s: -merge wrote fig1.csv from a damaged cell", tc.name)
		}
		// -resume runs exactly that cell again, says so, and restores the bytes.
		var notes bytes.Buffer
		ran := 0
		o = quickOptions(dir, 1)
		o.Only, o.Resume, o.Stderr = "fig1", true, &notes
		o.AfterCell = func() { ran++ }
		if err := runSuite(context.Background(), o); err != nil {
			t.Fatalf("%s: -resume: %v", tc.name, err)
		}
		if ran != 1 || !strings.Contains(notes.String(), "cell "+stem+": ") || !strings.Contains(notes.String(), tc.cause) {
			t.Errorf("%s: -resume ran %d cells, said %q; want that one cell, named, with the cause", tc.name, ran, notes.String())
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "fig1.csv")); !bytes.Equal(got, want) {
			t.Errorf("%s: fig1.csv after -resume differs from the undamaged run", tc.name)
		}
		if got, _ := os.ReadFile(rowsPath); !bytes.Equal(got, good) {
			t.Errorf("%s: the cell's rows after -resume differ from the undamaged run", tc.name)
		}
	}
	if got, _ := os.ReadFile(donePath); len(got) == 0 || len(goodDone) == 0 {
		t.Error("done record missing")
	}
}

func TestOtherBackendIsRefusedUnlessAllowed(t *testing.T) {
	dir, _ := fig1Run(t)
	stem := firstCell(t)
	donePath := filepath.Join(dir, "cells", stem+".done.csv")
	recs, err := records.ReadFile[records.CellDone](donePath)
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].BLAS != blasinfo.Backend() {
		t.Fatalf("done record names backend %q, this build is %q", recs[0].BLAS, blasinfo.Backend())
	}
	// Another backend, and in the openblas build also another OpenBLAS kernel set: a
	// resume refuses naming both and the command line that would work.
	// The command is the route README teaches: a binary built with that backend (or, when
	// run_all.sh started the run, run_all.sh with it).
	others := map[string]string{"openblas 0.3.21 core=Haswell": "CGO_ENABLED=1 go build -tags openblas -o .bin/experiments ./experiments, then OPENBLAS_CORETYPE=Haswell "}
	if blasinfo.Backend() != "gonum" {
		others = map[string]string{
			"gonum": "go build -o .bin/experiments ./experiments, then ",
			"openblas 0.3.21 core=NotThisMachinesOne": "CGO_ENABLED=1 go build -tags openblas -o .bin/experiments ./experiments, then OPENBLAS_CORETYPE=NotThisMachinesOne ",
		}
	}
	for other, command := range others {
		recs[0].BLAS = other
		b, _ := records.Marshal(recs)
		os.WriteFile(donePath, b, 0o644)
		for _, mode := range []string{"resume", "merge"} {
			o := quickOptions(dir, 1)
			o.Only = "fig1"
			o.Resume, o.Merge = mode == "resume", mode == "merge"
			err := runSuite(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), blasinfo.Backend()) ||
				!strings.Contains(err.Error(), "-allow-mixed-backend") {
				t.Errorf("-%s over a cell of %q: got %v; want a refusal naming both backends", mode, other, err)
			}
			if mode == "resume" && (err == nil || !strings.Contains(err.Error(), command)) {
				t.Errorf("-resume over a cell of %q: got %v; want the command %q", other, err, command)
			}
		}
	}
	o := quickOptions(dir, 1)
	o.Only, o.Merge, o.AllowMixedBackend = "fig1", true, true
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatalf("-merge -allow-mixed-backend: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest-fig1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m runner.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.CellBLAS) != 2 || m.BLAS != blasinfo.Backend() {
		t.Errorf("manifest of a mixed merge: blas %q, cell_blas %v; want this build's and both", m.BLAS, m.CellBLAS)
	}
}

func TestOnlyRunKeepsTheFullRunsTimings(t *testing.T) {
	dir := t.TempDir()
	full := []byte("the full run's timings\n")
	os.WriteFile(filepath.Join(dir, "timings.csv"), full, 0o644)
	o := quickOptions(dir, 2)
	o.Only = "fig1"
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "timings.csv")); !bytes.Equal(got, full) {
		t.Error("an -only=fig1 run overwrote timings.csv")
	}
	rows, err := records.ReadFile[records.Timing](filepath.Join(dir, "timings-fig1.csv"))
	if err != nil || len(rows) == 0 || rows[0].Cell == "" {
		t.Errorf("timings-fig1.csv: %d rows, %v", len(rows), err)
	}
}

// A bad CT-slice file is reported before any cell starts, not when the first SVR cell
// builds its task.
func TestBadCTSliceFileFoundBeforeTheFirstCell(t *testing.T) {
	path := filepath.Join(t.TempDir(), "slice_localization_data.csv")
	var b strings.Builder
	b.WriteString(strings.Join(data.Header(), ","))
	b.WriteString("\n")
	for i := 0; i < 3; i++ {
		row := make([]string, data.Columns)
		for j := range row {
			row[j] = "0.5"
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	built := 0
	o := quickOptions(t.TempDir(), 1)
	o.Only, o.DataPath = "fig2b", path
	o.NewTask = func(s runner.TaskSpec) (tasks.Task, error) {
		built++
		return catalog.New(s)
	}
	err := runSuite(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), path) || built > 0 {
		t.Errorf("bad CT-slice file: got %v after building %d tasks; want an error naming the file before any cell", err, built)
	}
}
