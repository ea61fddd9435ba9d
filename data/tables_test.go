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
	x, y := checkedTable(t, "tables/breast_cancer.csv", breastCancerCSV, "fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed", BreastCancer)
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
	x, y := checkedTable(t, "tables/wine_data.csv", wineCSV, "10e8a802908b34f86e5da8ce962f3c806694bc98450a18f61851af59f324bede", Wine)
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
	x, y := checkedTable(t, "tables/anes96.csv", anes96TSV, "c124d8556d6f8c4329b1fea61e3dc6891c5e663f15b7fe5791235963420ba896", ANES96)
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
	x, y := checkedTable(t, "tables/modechoice.csv", modeChoiceCSV, "d2d72c1db440f8ffce01f58ed39fc1145569ec1703970dac1636c154fc01fd8e", ModeChoice)
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

// The shipped iris table is the file Debian's python3-sklearn 1.2.1+dfsg-1 ships, byte for
// byte, and reads as 150 rows of 4 features, 50 of each species; its first and last rows
// are those of the file.
func TestIrisTable(t *testing.T) {
	x, y := checkedTable(t, "tables/iris.csv", irisCSV, "f13ffa8fdd56fd8e6c8d16d4081a3fbd3114bcd0aae4256c43205169cd9d1449", Iris)
	r, c := x.Dims()
	counts := make([]int, 3)
	for _, v := range y {
		counts[int(v)]++
	}
	if r != 150 || c != 4 || !slices.Equal(counts, []int{50, 50, 50}) {
		t.Errorf("%d x %d, species %v; want 150 x 4 and [50 50 50]", r, c, counts)
	}
	checkRow(t, "iris", x, y, 0, []float64{5.1, 3.5, 1.4, 0.2}, 0)
	checkRow(t, "iris", x, y, 149, []float64{5.9, 3.0, 5.1, 1.8}, 2)
}

// The shipped macrodata table is the file Debian's python3-statsmodels 0.13.5+dfsg-7
// ships, byte for byte, and reads as 201 quarters of 11 features, the unemployment rate
// rising in the next quarter in 68 of them; the first and last rows are built from the
// file's first three and last three lines.
func TestMacrodataTable(t *testing.T) {
	x, y := checkedTable(t, "tables/macrodata.csv", macrodataCSV, "d93c0d3a7a77ef83c3af14e46032bb1d02ae3a512b22ab94159a8ca226fcf708", Macrodata)
	r, c := x.Dims()
	rises := 0.0
	for _, v := range y {
		rises += v
	}
	if r != 201 || c != 11 || rises != 68 {
		t.Errorf("%d x %d, %v rises; want 201 x 11 and 68", r, c, rises)
	}
	// g is the log growth from a to b, divided in float64 arithmetic as Macrodata does (a
	// quotient of constants would be exact).
	g := func(b, a float64) float64 { return math.Log(b / a) }
	// 1959Q1: 2710.349,1707.4,286.898,470.045,1886.9,28.980,139.7 (realgdp ... m1)
	// 1959Q2: 2778.801,1733.7,310.859,481.301,1919.7,29.150,141.7, tbilrate 3.08, unemp 5.1,
	// infl 2.34, realint 0.74; 1959Q3: unemp 5.3, a rise.
	first := []float64{g(2778.801, 2710.349), g(1733.7, 1707.4), g(310.859, 286.898),
		g(481.301, 470.045), g(1919.7, 1886.9), g(29.150, 28.980), g(141.7, 139.7),
		3.08, 5.1, 2.34, 0.74}
	checkRow(t, "macrodata", x, y, 0, first, 1)
	// 2009Q1: 12925.410,9209.2,1558.494,996.287,9926.4,212.671,1592.8; 2009Q2:
	// 12901.504,9189.0,1456.678,1023.528,10077.5,214.469,1653.6, 0.18, 9.2, 3.37, -3.19;
	// 2009Q3: unemp 9.6, a rise.
	last := []float64{g(12901.504, 12925.410), g(9189.0, 9209.2), g(1456.678, 1558.494),
		g(1023.528, 996.287), g(10077.5, 9926.4), g(214.469, 212.671), g(1653.6, 1592.8),
		0.18, 9.2, 3.37, -3.19}
	checkRow(t, "macrodata", x, y, 200, last, 1)
	checkCorruptions(t, "macrodata", &macrodataCSV, func() error { _, _, err := Macrodata(); return err }, []corruption{
		{"1959,2,2778.801", "1959,3,2778.801", "quarter 1959Q3, want 1959Q2"},
		{"1959,2,2778.801", "1959,2,0", "field 3 (realgdp): 0, want a positive number"},
		{"1959,2,2778.801,1733.7", "1959,2,2778.801,x", `field 4 (realcons): strconv.ParseFloat: parsing "x"`},
		{`"year","quarter"`, `"year","qtr"`, "header"},
	})
}

// corruption is one edit of a table's text (the first from becomes to) and what the error
// of loading it must say.
type corruption struct{ from, to, want string }

// checkCorruptions applies each edit to *text in turn, restoring it after, and checks that
// load fails with an error that names the table and says what the edit broke.
func checkCorruptions(t *testing.T, table string, text *string, load func() error, cases []corruption) {
	t.Helper()
	for _, tc := range cases {
		saved := *text
		*text = strings.Replace(saved, tc.from, tc.to, 1)
		err := load()
		*text = saved
		if err == nil || !strings.Contains(err.Error(), table+" table") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q -> %q: error %v, want one saying %q", table, tc.from, tc.to, err, tc.want)
		}
	}
}

// The shipped grunfeld table is the file Debian's python3-statsmodels 0.13.5+dfsg-7 ships,
// byte for byte, and reads as 220 firm-years of value, capital, firm and year, 20 years of
// each of 11 firms; its first and last rows are those of the file.
func TestGrunfeldTable(t *testing.T) {
	x, y := checkedTable(t, "tables/grunfeld.csv", grunfeldCSV, "6f6ca138e645eeee6ff3e54fe5b9b498f7ddb5c484237d2a8489c524b3c94098", Grunfeld)
	r, c := x.Dims()
	perFirm := make([]int, 11)
	for i := range r {
		perFirm[int(x.At(i, 2))]++
	}
	if r != 220 || c != 4 || slices.Min(perFirm) != 20 || slices.Max(perFirm) != 20 {
		t.Errorf("%d x %d, rows per firm %v; want 220 x 4 and 20 each", r, c, perFirm)
	}
	checkRow(t, "grunfeld", x, y, 0, []float64{3078.5, 2.8, 0, 1935}, 317.6)       // 317.6,3078.5,2.8,General Motors,1935
	checkRow(t, "grunfeld", x, y, 219, []float64{47.165, 83.788, 10, 1954}, 6.281) // 6.281,47.165,83.788,American Steel,1954
	checkCorruptions(t, "grunfeld", &grunfeldCSV, func() error { _, _, err := Grunfeld(); return err }, []corruption{
		{"2.8,General Motors,1935", "2.8,General Motor,1935", `row 1 (line 2), field 4 (firm): unknown firm "General Motor"`},
		{"2.8,General Motors,1935", "2.8,General Motors,1936", "General Motors in 1936, want General Motors in 1935"},
		{"317.6,3078.5", "-317.6,3078.5", "row 1 (line 2), field 1 (invest): -317.6, want a number in [0, +Inf]"},
		{"317.6,3078.5,2.8", "317.6,3078.5,0", "row 1 (line 2), field 3 (capital): 0, want a positive number"},
		{"317.6,3078.5,2.8,General Motors", "317.6,3078.5,General Motors", "row 1 (line 2): 4 fields, want 5"},
	})
}

// The shipped engel table is the file Debian's python3-statsmodels 0.13.5+dfsg-7 ships,
// byte for byte, and reads as 235 households' income and food expenditure; its first and
// last rows are those of the file.
func TestEngelTable(t *testing.T) {
	x, y := checkedTable(t, "tables/engel.csv", engelCSV, "796c3da0406291dd324c51901b51386be12b5f52e330afaf69584f57c06ad45c", Engel)
	if r, c := x.Dims(); r != 235 || c != 1 {
		t.Errorf("%d x %d, want 235 x 1", r, c)
	}
	checkRow(t, "engel", x, y, 0, []float64{420.157650843928}, 255.839424594576)
	checkRow(t, "engel", x, y, 234, []float64{1057.67671146451}, 750.320163419201)
	checkCorruptions(t, "engel", &engelCSV, func() error { _, _, err := Engel(); return err }, []corruption{
		{"420.157650843928", "0", "row 1 (line 2), field 1 (income): 0, want a positive number"},
	})
}

// checkedTable checks that text, the embedded file, has the SHA-256 sum data/README.md
// names, and returns the table load reads from it.
func checkedTable(t *testing.T, file, text, sum string, load func() (*mat.Dense, []float64, error)) (*mat.Dense, []float64) {
	t.Helper()
	got := sha256.Sum256([]byte(text))
	if hex.EncodeToString(got[:]) != sum {
		t.Errorf("%s has SHA-256 %x, not the file data/README.md names", file, got)
	}
	x, y, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return x, y
}
