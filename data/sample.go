package data

import (
	"bytes"
	_ "embed" // the sample is embedded so that it is found from any working directory
	"fmt"
	"sync"
)

// The real sample: the first 681 rows of the UCI file (patients 0 and 1), embedded from
// data/ctslice-sample.csv (source and licence in data/README.md).
const (
	// SampleLabel is the data label of everything computed on the sample, distinct from
	// RealLabel (the full file) and StandinLabel.
	SampleLabel = "ctslice-sample"
	// sampleRows is the number of data rows of the sample.
	sampleRows = 681
	// SampleTrainPatient and SampleValPatient are the patients of the sample's split by
	// patient: the svr task trains on every slice of patient 0 (583 slices, reference 5.9
	// to 39.8) and validates on the slices of patient 1 (98 slices, reference 17.7 to 23.7,
	// inside the training range). Neighbouring slices of one patient are near-duplicates,
	// so a random split of the rows would validate on copies of training rows.
	SampleTrainPatient = 0
	SampleValPatient   = 1
	// sampleFile is the sample's file name in data/.
	sampleFile = "ctslice-sample.csv"
)

//go:embed ctslice-sample.csv
var sampleCSV []byte

var loadSample = sync.OnceValues(func() (*CTSlice, error) {
	return readCSV(bytes.NewReader(sampleCSV), "data/"+sampleFile, LoadOptions{ExpectRows: sampleRows})
})

// Sample returns the embedded real sample (the first 681 rows of the UCI file, unchanged).
// The returned data is shared: callers must not modify it.
func Sample() (*CTSlice, error) {
	d, err := loadSample()
	if err != nil {
		return nil, fmt.Errorf("data: embedded sample: %w", err)
	}
	return d, nil
}

// PatientRows returns the indices of d's rows that belong to patient, in file order.
func PatientRows(d *CTSlice, patient int) []int {
	var rows []int
	for i, p := range d.PatientID {
		if p == patient {
			rows = append(rows, i)
		}
	}
	return rows
}
