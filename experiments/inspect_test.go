package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// readCSV reads a whole CSV file or buffer.
func readCSV(t *testing.T, data []byte) [][]string {
	t.Helper()
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return records
}

// checkDump compares a dumped CSV with the dataset the task uses, value for value.
func checkDump(t *testing.T, path string, ds tasks.Dataset) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	records := readCSV(t, data)
	rows, cols := ds.X.Dims()
	if len(records) != rows+1 {
		t.Fatalf("%s: %d records, want header + %d rows", path, len(records), rows)
	}
	header := records[0]
	if len(header) != cols+1 || header[0] != "x1" || header[cols-1] != "x"+strconv.Itoa(cols) || header[cols] != "y" {
		t.Fatalf("%s: header %v", path, header)
	}
	for i, rec := range records[1:] {
		for j, field := range rec {
			v, err := strconv.ParseFloat(field, 64)
			if err != nil {
				t.Fatalf("%s row %d field %d: %v", path, i+1, j+1, err)
			}
			want := ds.Y[i]
			if j < cols {
				want = ds.X.At(i, j)
			}
			if math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("%s row %d field %d: %v, task uses %v", path, i+1, j+1, v, want)
			}
		}
	}
}

func TestInspectDumpData(t *testing.T) {
	for _, spec := range []catalog.Spec{
		{Name: "grouplasso", D: 2, Seed: 3},
		{Name: "gpreg", D: 3, Seed: 3, NTrain: 30, NVal: 20},
	} {
		dir := filepath.Join(t.TempDir(), "nested", spec.Name)
		var out bytes.Buffer
		if err := runInspect(&out, nil, spec, dir, ""); err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		if out.Len() != 0 {
			t.Errorf("%s: dump wrote %q to the output", spec.Name, out.String())
		}
		task, err := catalog.New(spec)
		if err != nil {
			t.Fatal(err)
		}
		train, val := task.Data()
		checkDump(t, filepath.Join(dir, "train.csv"), train)
		checkDump(t, filepath.Join(dir, "val.csv"), val)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 2 {
			t.Errorf("%s: directory holds %d entries, want only train.csv and val.csv", spec.Name, len(entries))
		}
	}
}

func TestInspectEvalTheta(t *testing.T) {
	spec := catalog.Spec{Name: "grouplasso", D: 3, Seed: 5}
	theta := []float64{-1.5, -3, -0.25}
	var out bytes.Buffer
	if err := runInspect(&out, nil, spec, "", "-1.5, -3,-0.25"); err != nil {
		t.Fatal(err)
	}
	task, err := catalog.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, task.Users())
	if err := task.Losses(theta, want); err != nil {
		t.Fatal(err)
	}
	records := readCSV(t, out.Bytes())
	if len(records) != task.Users()+1 || strings.Join(records[0], ",") != "user,loss" {
		t.Fatalf("%d records, header %v", len(records), records[0])
	}
	for i, rec := range records[1:] {
		user, err := strconv.Atoi(rec[0])
		if err != nil || user != i {
			t.Fatalf("row %d: user %q", i+1, rec[0])
		}
		loss, err := strconv.ParseFloat(rec[1], 64)
		if err != nil || math.Float64bits(loss) != math.Float64bits(want[i]) {
			t.Fatalf("user %d: loss %q, task gives %v", i, rec[1], want[i])
		}
	}
}

func TestInspectBothAtOnce(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runInspect(&out, nil, catalog.Spec{Name: "gpreg", D: 2, Seed: 1, NTrain: 10, NVal: 7}, dir, "0,0"); err != nil {
		t.Fatal(err)
	}
	if n := len(readCSV(t, out.Bytes())); n != 8 {
		t.Errorf("%d loss records, want 8", n)
	}
	for _, f := range []string{"train.csv", "val.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestInspectErrors(t *testing.T) {
	gl := catalog.Spec{Name: "grouplasso", D: 2, Seed: 1}
	for _, tc := range []struct {
		name      string
		spec      catalog.Spec
		dir, eval string
		want      []string
	}{
		{"wrong count", gl, "", "-1,-1,-1", []string{"d = 2", "got 3"}},
		{"out of box", gl, "", "-1,0.5", []string{"outside the box", "theta[1]"}},
		{"below box", gl, "", "-6.5,-1", []string{"outside the box", "theta[0]"}},
		{"not a number", gl, "", "-1,abc", []string{"value 2", `"abc"`, "not a number"}},
		{"empty value", gl, "", "-1,", []string{"value 2", "not a number"}},
		{"nan", gl, "", "NaN,-1", []string{"not finite"}},
		{"unknown task", catalog.Spec{Name: "nosuch"}, "", "0", []string{`"nosuch"`, "grouplasso", "gpreg"}},
		{"unknown task dump", catalog.Spec{Name: "nosuch"}, t.TempDir(), "", []string{`"nosuch"`}},
		{"nothing to do", gl, "", "", []string{"nothing to do"}},
	} {
		var out bytes.Buffer
		err := runInspect(&out, nil, tc.spec, tc.dir, tc.eval)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, w)
			}
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %q despite the error", tc.name, out.String())
		}
	}
}

func TestInspectDumpIntoFileFails(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runInspect(&out, nil, catalog.Spec{Name: "grouplasso", D: 2, Seed: 1}, file, ""); err == nil {
		t.Fatal("dumping into a regular file succeeded")
	}
}

func TestInspectWarnsOnStandIn(t *testing.T) {
	t.Setenv("DPGIBO_CTSLICE", "")
	var out, warn bytes.Buffer
	spec := catalog.Spec{Name: "svr", D: 5, Seed: 1, NTrain: 20, NVal: 10}
	if err := runInspect(&out, &warn, spec, "", "0,0,-1,0,-1"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(warn.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "ctslice-synthetic") || !strings.Contains(lines[0], "fetch") {
		t.Fatalf("want one warning line naming the stand-in and the fetch command, got %q", warn.String())
	}
	if strings.Contains(out.String(), "warning") {
		t.Fatal("the warning leaked into the CSV on stdout")
	}
}
