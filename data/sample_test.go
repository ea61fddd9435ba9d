package data

import (
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestSampleIsTwoPatientsOfTheRealFile(t *testing.T) {
	d, err := Sample()
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != sampleRows {
		t.Fatalf("sample has %d rows, want %d", d.Rows(), sampleRows)
	}
	train, val := PatientRows(d, SampleTrainPatient), PatientRows(d, SampleValPatient)
	if len(train) != 583 || len(val) != 98 || len(train)+len(val) != d.Rows() {
		t.Fatalf("patients %d and %d have %d and %d rows of %d, want 583 and 98 covering the sample",
			SampleTrainPatient, SampleValPatient, len(train), len(val), d.Rows())
	}
	// The validation patient's targets lie inside the training patient's range.
	lo, hi := d.Y[train[0]], d.Y[train[0]]
	for _, i := range train {
		lo, hi = min(lo, d.Y[i]), max(hi, d.Y[i])
	}
	for _, i := range val {
		if d.Y[i] < lo || d.Y[i] > hi {
			t.Errorf("validation slice %d has reference %v outside the training range [%v, %v]", i, d.Y[i], lo, hi)
		}
	}
	// The loader fixture is the first 50 rows of each patient of the sample, unchanged.
	fix, err := Load(fixture, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows := append(append([]int(nil), train[:50]...), val[:50]...)
	for k, i := range rows {
		if fix.PatientID[k] != d.PatientID[i] || fix.Y[k] != d.Y[i] || !mat.Equal(fix.X.RowView(k), d.X.RowView(i)) {
			t.Fatalf("fixture row %d differs from sample row %d", k+1, i+1)
		}
	}
}

func TestReadmeNamesTheSampleSourceAndLicence(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{sampleFile, SampleLabel, "CC BY 4.0", "archive.ics.uci.edu"} {
		if !strings.Contains(s, want) {
			t.Errorf("data/README.md does not mention %q", want)
		}
	}
}
