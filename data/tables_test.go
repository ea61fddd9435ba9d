package data

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
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
		_, _, err := parseTable("toy", tc.text, layout{sep: ",", counts: tc.header, classes: 2}, 2, 2)
		if err == nil || !strings.Contains(err.Error(), "toy table") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one naming the toy table and %q", tc.text, err, tc.want)
		}
	}
	if x, y, err := parseTable("toy", "2,2,a,b\n1,2,0\r\n3,4,1\n", layout{sep: ",", counts: true, classes: 2}, 2, 2); err != nil || x.At(1, 0) != 3 || y[1] != 1 {
		t.Errorf("a well-formed table: %v", err)
	}
}

// The shipped anes96 table is the file Debian's python3-statsmodels 0.13.5+dfsg-7 ships,
// byte for byte, and reads as 944 respondents of 9 features, 551 expecting to vote for
// Clinton and 393 for Dole; its first and last rows are those of the file.
func TestANES96Table(t *testing.T) {
	sum := sha256.Sum256([]byte(anes96TSV))
	if got := hex.EncodeToString(sum[:]); got != "c124d8556d6f8c4329b1fea61e3dc6891c5e663f15b7fe5791235963420ba896" {
		t.Errorf("tables/anes96.csv has SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := ANES96()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	dole := 0.0
	for _, v := range y {
		dole += v
	}
	if r != 944 || c != 9 || dole != 393 {
		t.Errorf("%d x %d, %v for Dole; want 944 x 9 and 393", r, c, dole)
	}
	checkRow(t, "anes96", x, y, 0, []float64{0, 7, 7, 1, 6, 6, 36, 3, 1}, 1)
	checkRow(t, "anes96", x, y, 943, []float64{18, 7, 4, 2, 6, 3, 61, 7, 24}, 1)
}

// The shipped randhie table decompresses to the file Debian's python3-statsmodels
// 0.13.5+dfsg-7 ships, byte for byte, and reads as 20190 rows of 9 features and the
// visits; its first and last rows are those of the file.
func TestRANDHIETable(t *testing.T) {
	text, err := gunzip(RANDHIELabel, randhieGz)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	if got := hex.EncodeToString(sum[:]); got != "9f6c87d05aef087a82cc4465310c8cd3f38327be6eafa43bd81fb98c4f3d088c" {
		t.Errorf("tables/randhie.csv.gz decompresses to SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := RANDHIE()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	if r != 20190 || c != 9 || slices.Max(y) != 77 {
		t.Errorf("%d x %d, at most %v visits; want 20190 x 9 and 77", r, c, slices.Max(y))
	}
	checkRow(t, "randhie", x, y, 0, []float64{4.61512, 1, 6.907755, 0, 0, 13.73189, 1, 0, 0}, 0)
	checkRow(t, "randhie", x, y, 20189, []float64{3.258096, 0, 6.620073, 8.006368, .1442925, 10.57626, 0, 0, 0}, 6)
}

// checkRow checks row i of a table against the file's values.
func checkRow(t *testing.T, label string, x *mat.Dense, y []float64, i int, features []float64, target float64) {
	t.Helper()
	if got := x.RawRowView(i); !slices.Equal(got, features) || y[i] != target {
		t.Errorf("%s row %d: %v and %v, want %v and %v", label, i+1, got, y[i], features, target)
	}
}

// A corrupted copy of a statsmodels table is an error naming the row, the line of the file
// and the column: a value that is not a number, not finite or outside the column's
// documented range, a target outside its range, a wrong header or a missing field.
func TestCorruptedTables(t *testing.T) {
	randhie, err := gunzip(RANDHIELabel, randhieGz)
	if err != nil {
		t.Fatal(err)
	}
	// corrupt replaces field j (0-based) of line k (1-based, the header is line 1).
	corrupt := func(text, sep string, k, j int, v string) string {
		lines := strings.Split(text, "\n")
		fields := strings.Split(lines[k-1], sep)
		fields[j] = v
		lines[k-1] = strings.Join(fields, sep)
		return strings.Join(lines, "\n")
	}
	for _, tc := range []struct {
		label, text string
		l           layout
		rows        int
		want        string
	}{
		{ANES96Label, corrupt(anes96TSV, "\t", 6, 2, "x"), anes96Layout, 944, `row 5 (line 6), field 3 (selfLR): strconv.ParseFloat: parsing "x"`},
		{ANES96Label, corrupt(anes96TSV, "\t", 6, 2, "8"), anes96Layout, 944, "row 5 (line 6), field 3 (selfLR): 8, want an integer in [1, 7]"},
		{ANES96Label, corrupt(anes96TSV, "\t", 945, 8, "3.5"), anes96Layout, 944, "row 944 (line 945), field 9 (income): 3.5, want an integer in [1, 24]"},
		{ANES96Label, corrupt(anes96TSV, "\t", 2, 9, "2"), anes96Layout, 944, "row 1 (line 2): class 2, want an integer in [0, 1]"},
		{ANES96Label, corrupt(anes96TSV, "\t", 1, 2, "'selfRL'"), anes96Layout, 944, "header"},
		{ANES96Label, corrupt(anes96TSV, "\t", 3, 0, "Inf"), anes96Layout, 944, "row 2 (line 3), field 1 (popul): +Inf is not finite"},
		{RANDHIELabel, corrupt(randhie, ",", 101, 0, "2.5"), randhieLayout, 20190, "row 100 (line 101), field 1 (mdvis): 2.5, want an integer in [0, +Inf]"},
		{RANDHIELabel, corrupt(randhie, ",", 101, 0, "-1"), randhieLayout, 20190, "row 100 (line 101), field 1 (mdvis): -1, want an integer in [0, +Inf]"},
		{RANDHIELabel, corrupt(randhie, ",", 20191, 8, "NaN"), randhieLayout, 20190, "row 20190 (line 20191), field 9 (hlthf): NaN is not finite"},
		{RANDHIELabel, corrupt(randhie, ",", 7, 5, "1.5"), randhieLayout, 20190, "row 6 (line 7), field 6 (physlm): 1.5, want a number in [0, 1]"},
		{RANDHIELabel, corrupt(randhie, ",", 7, 1, "4.7"), randhieLayout, 20190, "row 6 (line 7), field 2 (lncoins): 4.7, want a number in [0, 4.61512051684126]"},
		{RANDHIELabel, strings.TrimSuffix(randhie, ",0\n") + "\n", randhieLayout, 20190, "row 20190 (line 20191): 9 fields, want 10"},
	} {
		_, _, err := parseTable(tc.label, tc.text, tc.l, tc.rows, 9)
		if err == nil || !strings.Contains(err.Error(), tc.label+" table") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming the table and %q", tc.label, err, tc.want)
		}
	}
	if math.Log(101) != 4.61512051684126 {
		t.Errorf("log(101) = %v; the lncoins case above names another bound", math.Log(101))
	}
}

// The shipped modechoice table is the file Debian's python3-statsmodels 0.13.5+dfsg-7
// ships, byte for byte, and reads as 210 travellers of 17 features, 58 of whom flew; the
// first and last travellers are those of the file.
func TestModeChoiceTable(t *testing.T) {
	sum := sha256.Sum256([]byte(modeChoiceCSV))
	if got := hex.EncodeToString(sum[:]); got != "d2d72c1db440f8ffce01f58ed39fc1145569ec1703970dac1636c154fc01fd8e" {
		t.Errorf("tables/modechoice.csv has SHA-256 %s, not the file data/README.md names", got)
	}
	x, y, err := ModeChoice()
	if err != nil {
		t.Fatal(err)
	}
	r, c := x.Dims()
	air := 0.0
	for _, v := range y {
		air += v
	}
	if r != 210 || c != len(ModeChoiceFeatures) || c != 17 || air != 58 {
		t.Errorf("%d x %d, %v flew; want 210 x 17 and 58", r, c, air)
	}
	// Traveller 1: "1;1;0;69;59;100;70;35;1", "1;2;0;34;31;372;71;35;1",
	// "1;3;0;35;25;417;70;35;1", "1;4;1;0;10;180;30;35;1" (chose car).
	checkRow(t, "modechoice", x, y, 0, []float64{35, 1, 69, 34, 35, 59, 31, 25, 10, 100, 372, 417, 180, 70, 71, 70, 30}, 0)
	// A broken file is refused with the row and the reason.
	for _, tc := range []struct{ from, to, want string }{
		{"1;4;1;0;10;180;30;35;1", "1;4;1;5;10;180;30;35;1", "car with terminal time 5"},
		{"1;4;1;0;10;180;30;35;1", "1;4;0;0;10;180;30;35;1", "traveller 1 chose 0 modes"},
		{"1;4;1;0;10;180;30;35;1", "1;4;1;0;10;180;30;36;1", "income or party size differs"},
		{"1;2;0;34;31;372;71;35;1", "1;3;0;34;31;372;71;35;1", "want traveller 1, mode 2"},
	} {
		saved := modeChoiceCSV
		modeChoiceCSV = strings.Replace(saved, tc.from, tc.to, 1)
		_, _, err := ModeChoice()
		modeChoiceCSV = saved
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q -> %q: error %v, want one saying %q", tc.from, tc.to, err, tc.want)
		}
	}
}
