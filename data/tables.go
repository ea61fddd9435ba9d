package data

import (
	_ "embed"
	"fmt"
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

// BreastCancerLabel is the data label of the breast-cancer table.
const BreastCancerLabel = "breast-cancer"

// BreastCancer returns the Breast Cancer Wisconsin (Diagnostic) table: X, 569 rows of its
// 30 features (means, standard errors and worst values of ten cell-nucleus measurements),
// and y, 1 for benign and 0 for malignant, in the file's order. It checks the table's
// shape and every number.
func BreastCancer() (*mat.Dense, []float64, error) {
	lines := strings.Split(strings.TrimSpace(breastCancerCSV), "\n")
	head := strings.Split(strings.TrimSpace(lines[0]), ",")
	if len(head) < 2 || head[0] != "569" || head[1] != "30" {
		return nil, nil, fmt.Errorf("data: breast-cancer table: header %q, want 569 rows of 30 features", lines[0])
	}
	const rows, features = 569, 30
	if len(lines)-1 != rows {
		return nil, nil, fmt.Errorf("data: breast-cancer table has %d rows, want %d", len(lines)-1, rows)
	}
	x := mat.NewDense(rows, features, nil)
	y := make([]float64, rows)
	for i, line := range lines[1:] {
		fields := strings.Split(strings.TrimSpace(line), ",")
		if len(fields) != features+1 {
			return nil, nil, fmt.Errorf("data: breast-cancer table, row %d: %d fields, want %d", i+1, len(fields), features+1)
		}
		for j, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("data: breast-cancer table, row %d, field %d: %w", i+1, j+1, err)
			}
			if j < features {
				x.Set(i, j, v)
			} else if v != 0 && v != 1 {
				return nil, nil, fmt.Errorf("data: breast-cancer table, row %d: class %v, want 0 or 1", i+1, v)
			} else {
				y[i] = v
			}
		}
	}
	return x, y, nil
}
