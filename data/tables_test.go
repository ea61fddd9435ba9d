package data

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// The shipped table is the file Debian's python3-sklearn 1.2.1+dfsg-1 ships, byte for byte,
// and reads as 569 rows of 30 features with 212 malignant and 357 benign (the counts UCI
// documents).
func TestBreastCancerTable(t *testing.T) {
	sum := sha256.Sum256([]byte(breastCancerCSV))
	if got := hex.EncodeToString(sum[:]); got != "fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed" {
		t.Errorf("tables/breast_cancer.csv has SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := BreastCancer()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	benign := 0.0
	for _, v := range y {
		benign += v
	}
	if r != 569 || c != 30 || benign != 357 {
		t.Errorf("%d x %d, %v benign; want 569 x 30 and 357", r, c, benign)
	}
	if x.At(0, 0) != 17.99 || x.At(568, 29) != 0.07039 {
		t.Errorf("first and last values %v, %v", x.At(0, 0), x.At(568, 29))
	}
}
