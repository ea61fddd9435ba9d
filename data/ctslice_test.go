package data

import (
	"archive/zip"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const fixture = "testdata/ctslice-fixture.csv"

func readFixture(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// zipBytes returns a zip archive holding the given files.
func zipBytes(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkFixture(t *testing.T, d *CTSlice) {
	t.Helper()
	if d.Rows() != 100 {
		t.Fatalf("rows = %d, want 100", d.Rows())
	}
	if r, c := d.X.Dims(); r != 100 || c != Features {
		t.Fatalf("X is %dx%d, want 100x%d", r, c, Features)
	}
	// Values read back from the fixture's text (first row, patient 0; row 51, patient 1).
	if d.PatientID[0] != 0 || d.PatientID[50] != 1 || d.PatientID[99] != 1 {
		t.Errorf("patient ids %d, %d, %d; want 0, 1, 1", d.PatientID[0], d.PatientID[50], d.PatientID[99])
	}
	if d.Y[0] != 21.803851 {
		t.Errorf("reference of row 1 = %v, want 21.803851", d.Y[0])
	}
	if d.X.At(0, 6) != outsideImage {
		t.Errorf("value6 of row 1 = %v, want -0.25", d.X.At(0, 6))
	}
	for i := 0; i < d.Rows(); i++ {
		for j := 0; j < Features; j++ {
			v := d.X.At(i, j)
			if v != outsideImage && (v < 0 || v > 1) {
				t.Fatalf("feature (%d, %d) = %v outside [0, 1] and not -0.25", i, j, v)
			}
		}
		if d.Y[i] < 0 || d.Y[i] > targetMax {
			t.Fatalf("reference %v outside [0, 180]", d.Y[i])
		}
	}
}

func TestLoadFixtureCSV(t *testing.T) {
	d, err := Load(fixture, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFixture(t, d)
	// The last row of the fixture, checked against its text.
	lines := strings.Split(strings.TrimSpace(readFixture(t)), "\n")
	last := strings.Split(lines[len(lines)-1], ",")
	want, err := strconv.ParseFloat(last[384], 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.X.At(99, 383); got != want {
		t.Errorf("value383 of the last row = %v, text has %s", got, last[384])
	}
}

func TestLoadZip(t *testing.T) {
	body := []byte(readFixture(t))
	dir := t.TempDir()
	// The CSV directly inside the archive, and inside a nested zip.
	flat := writeFile(t, dir, "flat.zip", string(zipBytes(t, map[string][]byte{CSVName: body, "readme.txt": []byte("x")})))
	nested := writeFile(t, dir, "nested.zip", string(zipBytes(t, map[string][]byte{
		"slice_localization_data.zip": zipBytes(t, map[string][]byte{CSVName: body}),
	})))
	for _, p := range []string{flat, nested} {
		d, err := Load(p, LoadOptions{ExpectRows: 100})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkFixture(t, d)
	}
	empty := writeFile(t, dir, "empty.zip", string(zipBytes(t, map[string][]byte{"notes.txt": []byte("x")})))
	if _, err := Load(empty, LoadOptions{}); err == nil || !strings.Contains(err.Error(), CSVName) {
		t.Errorf("archive without CSV: error %v, want one naming %s", err, CSVName)
	}
}

func TestLoadErrors(t *testing.T) {
	good := readFixture(t)
	lines := strings.Split(strings.TrimRight(good, "\n"), "\n")
	replaceLine := func(i int, f func(string) string) string {
		c := append([]string(nil), lines...)
		c[i] = f(c[i])
		return strings.Join(c, "\n") + "\n"
	}
	cases := []struct {
		name, body string
		opt        LoadOptions
		want       []string // substrings of the error
	}{
		{"wrong header", replaceLine(0, func(s string) string { return strings.Replace(s, "value3,", "valu3,", 1) }),
			LoadOptions{}, []string{"header column 5", `"valu3"`, `"value3"`}},
		{"missing reference column", replaceLine(0, func(s string) string { return strings.Replace(s, ",reference", "", 1) }),
			LoadOptions{}, []string{"header has 385 columns, want 386"}},
		{"ragged row", replaceLine(7, func(s string) string { return s[:strings.LastIndex(s, ",")] }),
			LoadOptions{}, []string{"line 8", "385 fields, want 386"}},
		{"non-numeric cell", replaceLine(12, func(s string) string {
			f := strings.Split(s, ",")
			f[43] = "abc"
			return strings.Join(f, ",")
		}), LoadOptions{}, []string{"line 13", "column 44", `"value42"`, `"abc"`}},
		{"NaN cell", replaceLine(3, func(s string) string {
			f := strings.Split(s, ",")
			f[385] = "NaN"
			return strings.Join(f, ",")
		}), LoadOptions{}, []string{"line 4", `"reference"`, "not a finite number"}},
		{"fractional patient id", replaceLine(2, func(s string) string { return "0.5" + s[1:] }),
			LoadOptions{}, []string{"line 3", `"patientId"`}},
		{"row count", good, LoadOptions{ExpectRows: FullRows}, []string{"100 data rows, want 53500"}},
		{"header only", lines[0] + "\n", LoadOptions{}, []string{"no data rows"}},
		{"empty", "", LoadOptions{}, []string{"empty"}},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, "case"+string(rune('a'+i))+".csv", c.body)
			_, err := Load(p, c.opt)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
	if _, err := Load(filepath.Join(dir, "absent.csv"), LoadOptions{}); err == nil {
		t.Error("missing file: no error")
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	d, err := Load(fixture, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, d); err != nil {
		t.Fatal(err)
	}
	back, err := readCSV(&buf, "round trip", LoadOptions{ExpectRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Y {
		if back.Y[i] != d.Y[i] || back.PatientID[i] != d.PatientID[i] {
			t.Fatalf("row %d differs after a round trip", i)
		}
		for j := 0; j < Features; j++ {
			if back.X.At(i, j) != d.X.At(i, j) {
				t.Fatalf("cell (%d, %d) differs after a round trip", i, j)
			}
		}
	}
}

func TestFindOrder(t *testing.T) {
	root := t.TempDir()
	// A fake module root with data/ctslice/, and a working directory below it.
	writeFile(t, root, "go.mod", "module dpgibo\n\ngo 1.26\n")
	modData := filepath.Join(root, DefaultDir)
	if err := os.MkdirAll(modData, 0o755); err != nil {
		t.Fatal(err)
	}
	modFile := writeFile(t, modData, CSVName, "x")
	work := filepath.Join(root, "experiments")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv(EnvVar, "")

	got, err := Find("")
	if err != nil || got.Origin != originModule || !sameFile(got.Path, modFile) {
		t.Fatalf("module root step: got %+v, %v; want %s from %s", got, err, modFile, originModule)
	}

	// data/ctslice/ below the working directory wins over the module root.
	wdData := filepath.Join(work, DefaultDir)
	if err := os.MkdirAll(wdData, 0o755); err != nil {
		t.Fatal(err)
	}
	wdZip := writeFile(t, wdData, "download.zip", "x")
	got, err = Find("")
	if err != nil || got.Origin != originDir || !sameFile(got.Path, wdZip) {
		t.Fatalf("working-directory step: got %+v, %v; want %s", got, err, wdZip)
	}

	// The environment variable wins over both; it may name a directory.
	envDir := t.TempDir()
	envFile := writeFile(t, envDir, CSVName, "x")
	t.Setenv(EnvVar, envDir)
	got, err = Find("")
	if err != nil || got.Origin != originEnv || got.Path != envFile {
		t.Fatalf("environment step: got %+v, %v; want %s", got, err, envFile)
	}

	// The explicit path wins over everything.
	flagFile := writeFile(t, t.TempDir(), "mine.csv", "x")
	got, err = Find(flagFile)
	if err != nil || got.Origin != originFlag || got.Path != flagFile {
		t.Fatalf("flag step: got %+v, %v; want %s", got, err, flagFile)
	}

	// A given path that does not exist is an error, not a fall-through.
	if _, err := Find(filepath.Join(envDir, "absent.csv")); err == nil || !strings.Contains(err.Error(), originFlag) {
		t.Errorf("missing flag path: error %v, want one naming %s", err, originFlag)
	}
	t.Setenv(EnvVar, filepath.Join(envDir, "absent"))
	if _, err := Find(""); err == nil || !strings.Contains(err.Error(), EnvVar) {
		t.Errorf("missing env path: error %v, want one naming %s", err, EnvVar)
	}
	// A given directory without data is an error too.
	t.Setenv(EnvVar, t.TempDir())
	if _, err := Find(""); err == nil || !strings.Contains(err.Error(), "holds neither") {
		t.Errorf("empty env directory: error %v", err)
	}

	// Nothing anywhere: the stand-in.
	t.Setenv(EnvVar, "")
	t.Chdir(t.TempDir())
	got, err = Find("")
	if err != nil || got.Path != "" || got.Origin != OriginNone {
		t.Fatalf("nothing present: got %+v, %v", got, err)
	}
}

func sameFile(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

func TestStandinShapeAndConventions(t *testing.T) {
	const rows = 4000
	d := standinRows(rows, 1)
	if d.Rows() != rows {
		t.Fatalf("rows = %d", d.Rows())
	}
	outside, zeros := 0, 0
	for i := 0; i < rows; i++ {
		if i > 0 && d.PatientID[i] < d.PatientID[i-1] {
			t.Fatalf("rows not grouped by patient at row %d", i)
		}
		if d.Y[i] < 0 || d.Y[i] > targetMax {
			t.Fatalf("target %v outside [0, 180]", d.Y[i])
		}
		for j := 0; j < Features; j++ {
			v := d.X.At(i, j)
			switch {
			case v == outsideImage:
				outside++
			case v == 0:
				zeros++
			case v < 0 || v > 1:
				t.Fatalf("feature (%d, %d) = %v", i, j, v)
			}
		}
	}
	cells := float64(rows * Features)
	if f := float64(outside) / cells; f < 0.02 || f > 0.5 {
		t.Errorf("fraction of -0.25 cells %.3f, want some but not most", f)
	}
	if f := float64(zeros) / cells; f < 0.3 {
		t.Errorf("fraction of zero cells %.3f, want most cells zero like the UCI file", f)
	}
	// Same seed, same data; another seed, other data.
	again := standinRows(rows, 1)
	other := standinRows(rows, 2)
	same, differ := true, false
	for i := 0; i < rows; i++ {
		if again.Y[i] != d.Y[i] || again.X.At(i, 100) != d.X.At(i, 100) {
			same = false
		}
		if other.Y[i] != d.Y[i] {
			differ = true
		}
	}
	if !same || !differ {
		t.Errorf("seeding: same seed reproduces = %v, other seed differs = %v", same, differ)
	}
}

// The target is a nonlinear function of the key features: two rows whose key features
// agree closely have close targets.
func TestStandinKeyFeaturesDetermineTarget(t *testing.T) {
	d := standinRows(3000, 3)
	worst := 0.0
	for a := 0; a < 300; a++ {
		for b := a + 1; b < d.Rows(); b += 7 {
			dist := 0.0
			for _, j := range keyFeatures {
				dist = math.Max(dist, math.Abs(d.X.At(a, j)-d.X.At(b, j)))
			}
			if dist < 0.01 {
				worst = math.Max(worst, math.Abs(d.Y[a]-d.Y[b]))
			}
		}
	}
	if worst > 3 {
		t.Errorf("rows with key features within 0.01 have targets %.2f apart", worst)
	}
}
