package data

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
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

// The shipped wine table is the file Debian's python3-sklearn 1.2.1+dfsg-1 ships, byte for
// byte, and reads as 178 rows of 13 features with 59, 71 and 48 wines of the three
// cultivars (the counts UCI documents).
func TestWineTable(t *testing.T) {
	sum := sha256.Sum256([]byte(wineCSV))
	if got := hex.EncodeToString(sum[:]); got != "10e8a802908b34f86e5da8ce962f3c806694bc98450a18f61851af59f324bede" {
		t.Errorf("tables/wine_data.csv has SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := Wine()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	counts := make([]int, 3)
	for _, v := range y {
		counts[int(v)]++
	}
	if r != 178 || c != 13 || counts[0] != 59 || counts[1] != 71 || counts[2] != 48 {
		t.Errorf("%d x %d, classes %v; want 178 x 13 and [59 71 48]", r, c, counts)
	}
	if x.At(0, 0) != 14.23 || x.At(177, 12) != 560 || y[0] != 0 || y[177] != 2 {
		t.Errorf("first and last values %v, %v, classes %v, %v", x.At(0, 0), x.At(177, 12), y[0], y[177])
	}
}

// The shipped digits table is the gzipped file Debian's python3-sklearn 1.2.1+dfsg-1
// ships, byte for byte, and reads as 1797 rows of 64 pixels with 178, 182, 177, 183, 181,
// 182, 181, 179, 174 and 180 rows of the digits 0 to 9.
func TestDigitsTable(t *testing.T) {
	sum := sha256.Sum256(digitsGz)
	if got := hex.EncodeToString(sum[:]); got != "46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a" {
		t.Errorf("tables/digits.csv.gz has SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := Digits()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	counts := make([]int, 10)
	for _, v := range y {
		counts[int(v)]++
	}
	if want := []int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}; r != 1797 || c != 64 || !slices.Equal(counts, want) {
		t.Errorf("%d x %d, digits %v; want 1797 x 64 and %v", r, c, counts, want)
	}
	if x.At(0, 2) != 5 || x.At(0, 3) != 13 || x.At(1796, 62) != 1 || y[0] != 0 || y[1796] != 8 {
		t.Errorf("values %v, %v, %v, digits %v, %v", x.At(0, 2), x.At(0, 3), x.At(1796, 62), y[0], y[1796])
	}
}

// A malformed table is an error naming the table and, where there is one, the row.
func TestParseTableErrors(t *testing.T) {
	for _, tc := range []struct {
		text   string
		header bool
		want   string
	}{
		{"3,2,a,b\n1,2,0\n3,4,1\n", true, "header"},
		{"2,2,a,b\n1,2,0\n", true, "1 rows, want 2"},
		{"1,2,0\n3,4\n", false, "row 2: 2 fields"},
		{"1,x,0\n3,4,1\n", false, "row 1, field 2"},
		{"1,NaN,0\n3,4,1\n", false, "row 1, field 2: NaN is not finite"},
		{"1,2,0\n3,4,2\n", false, "row 2: class 2"},
		{"1,2,0\n3,4,0.5\n", false, "row 2: class 0.5"},
	} {
		_, _, err := parseTable("toy", tc.text, tc.header, 2, 2, 2)
		if err == nil || !strings.Contains(err.Error(), "toy table") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one naming the toy table and %q", tc.text, err, tc.want)
		}
	}
	if x, y, err := parseTable("toy", "2,2,a,b\n1,2,0\r\n3,4,1\n", true, 2, 2, 2); err != nil || x.At(1, 0) != 3 || y[1] != 1 {
		t.Errorf("a well-formed table: %v", err)
	}
}
