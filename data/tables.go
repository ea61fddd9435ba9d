package data

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// breastCancerCSV is the Breast Cancer Wisconsin (Diagnostic) table (UCI, CC BY 4.0; see
// data/README.md), as Debian's python3-sklearn 1.2.1+dfsg-1 ships it: a first line
// "569,30,malignant,benign", then 569 rows of 30 features and the class (0 malignant,
// 1 benign).
//
//go:embed tables/breast_cancer.csv
var breastCancerCSV string

// wineCSV is the Wine table (UCI, CC BY 4.0; see data/README.md), as Debian's
// python3-sklearn 1.2.1+dfsg-1 ships it: a first line "178,13,class_0,class_1,class_2",
// then 178 rows of 13 features and the class (0, 1 or 2).
//
//go:embed tables/wine_data.csv
var wineCSV string

// digitsGz is the gzipped digits table (UCI, CC BY 4.0; see data/README.md), as Debian's
// python3-sklearn 1.2.1+dfsg-1 ships it: no header, 1797 rows of the 64 pixel values
// (0-16) of an 8x8 image, row by row, then the digit (0-9).
//
//go:embed tables/digits.csv.gz
var digitsGz []byte

// The data labels of the tables.
const (
	// BreastCancerLabel is the data label of the breast-cancer table.
	BreastCancerLabel = "breast-cancer"
	// WineLabel is the data label of the wine table.
	WineLabel = "wine"
	// DigitsLabel is the data label of the digits table.
	DigitsLabel = "digits"
)

// BreastCancer returns the Breast Cancer Wisconsin (Diagnostic) table: X, 569 rows of its
// 30 features (means, standard errors and worst values of ten cell-nucleus measurements),
// and y, 1 for benign and 0 for malignant, in the file's order. It checks the table's
// shape and every number.
func BreastCancer() (*mat.Dense, []float64, error) {
	return parseTable(BreastCancerLabel, breastCancerCSV, true, 569, 30, 2)
}

// Wine returns the Wine table: X, 178 rows of its 13 features (chemical analyses of wines
// grown in one region of Italy: alcohol, malic acid, ash, ..., proline), and y, the
// cultivar as 0, 1 or 2, in the file's order. It checks the table's shape and every
// number.
func Wine() (*mat.Dense, []float64, error) {
	return parseTable(WineLabel, wineCSV, true, 178, 13, 3)
}

// Digits returns the optical-recognition digits table: X, 1797 rows of 64 pixel values
// (counts 0-16 of an 8x8 image, pixel r*8+c in column r*8+c), and y, the digit 0-9, in the
// file's order. It decompresses the embedded file and checks the table's shape and every
// number, the pixels being integers in [0, 16].
func Digits() (*mat.Dense, []float64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(digitsGz))
	if err != nil {
		return nil, nil, fmt.Errorf("data: %s table: %w", DigitsLabel, err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, fmt.Errorf("data: %s table: %w", DigitsLabel, err)
	}
	x, y, err := parseTable(DigitsLabel, string(text), false, 1797, 64, 10)
	if err != nil {
		return nil, nil, err
	}
	for i := range 1797 {
		for j, v := range x.RawRowView(i) {
			if v < 0 || v > 16 || v != math.Trunc(v) {
				return nil, nil, fmt.Errorf("data: %s table, row %d, field %d: pixel value %v, want an integer in [0, 16]", DigitsLabel, i+1, j+1, v)
			}
		}
	}
	return x, y, nil
}

// parseTable reads the comma-separated table text named label: when header is set, a first
// line whose first two fields are rows and features; then rows lines, each of features
// finite numbers and the class, an integer in [0, classes). It returns the features as X
// and the classes as y, and an error naming the row and field of anything wrong. Rows are
// numbered from 1, not counting the header.
func parseTable(label, text string, header bool, rows, features, classes int) (*mat.Dense, []float64, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if header {
		head := strings.Split(strings.TrimSpace(lines[0]), ",")
		if len(head) < 2 || head[0] != strconv.Itoa(rows) || head[1] != strconv.Itoa(features) {
			return nil, nil, fmt.Errorf("data: %s table: header %q, want %d rows of %d features", label, lines[0], rows, features)
		}
		lines = lines[1:]
	}
	if len(lines) != rows {
		return nil, nil, fmt.Errorf("data: %s table has %d rows, want %d", label, len(lines), rows)
	}
	x := mat.NewDense(rows, features, nil)
	y := make([]float64, rows)
	for i, line := range lines {
		fields := strings.Split(strings.TrimSpace(line), ",")
		if len(fields) != features+1 {
			return nil, nil, fmt.Errorf("data: %s table, row %d: %d fields, want %d", label, i+1, len(fields), features+1)
		}
		for j, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("data: %s table, row %d, field %d: %w", label, i+1, j+1, err)
			}
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, nil, fmt.Errorf("data: %s table, row %d, field %d: %v is not finite", label, i+1, j+1, v)
			case j < features:
				x.Set(i, j, v)
			case v < 0 || v >= float64(classes) || v != math.Trunc(v):
				return nil, nil, fmt.Errorf("data: %s table, row %d: class %v, want an integer in [0, %d]", label, i+1, v, classes-1)
			default:
				y[i] = v
			}
		}
	}
	return x, y, nil
}
