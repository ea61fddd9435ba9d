package data

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"slices"
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

// anes96TSV is a subset of the American National Election Studies 1996 (public domain; see
// data/README.md), as Debian's python3-statsmodels 0.13.5+dfsg-7 ships it: tab-separated, a
// first line of the ten column names in single quotes (anes96Layout), then 944 rows, one
// respondent each, of nine features and the expected vote (0 Clinton, 1 Dole).
//
//go:embed tables/anes96.csv
var anes96TSV string

// randhieGz is the gzipped RAND Health Insurance Experiment table (public domain; see
// data/README.md), the file Debian's python3-statsmodels 0.13.5+dfsg-7 ships compressed by
// gzip -9n: comma-separated, a first line of the ten column names (randhieLayout), then
// 20190 rows, one person-year each, of the outpatient visits and nine features.
//
//go:embed tables/randhie.csv.gz
var randhieGz []byte

// modeChoiceCSV is the travel mode choice table of Greene and Hensher (public domain; see
// data/README.md), as Debian's python3-statsmodels 0.13.5+dfsg-7 ships it: semicolon-
// separated, a first line of the nine column names (modeChoiceLayout), then 840 rows, four
// per traveller (the modes air, train, bus and car, in that order).
//
//go:embed tables/modechoice.csv
var modeChoiceCSV string

// The data labels of the tables.
const (
	// BreastCancerLabel is the data label of the breast-cancer table.
	BreastCancerLabel = "breast-cancer"
	// WineLabel is the data label of the wine table.
	WineLabel = "wine"
	// DigitsLabel is the data label of the digits table.
	DigitsLabel = "digits"
	// ANES96Label is the data label of the American National Election Studies 1996 table.
	ANES96Label = "anes96"
	// RANDHIELabel is the data label of the RAND Health Insurance Experiment table.
	RANDHIELabel = "randhie"
	// ModeChoiceLabel is the data label of the travel mode choice table.
	ModeChoiceLabel = "modechoice"
)

// The layouts of statsmodels' files, each under a first line of the column names: anes96's
// target, the vote, is a class in the last field; randhie's, the visits, a count in the
// first.
var (
	anes96Layout = layout{
		sep:     "\t",
		names:   []string{"popul", "TVnews", "selfLR", "ClinLR", "DoleLR", "PID", "age", "educ", "income", "vote"},
		classes: 2,
		spans:   anes96Spans,
	}
	// modeChoiceLayout reads the file's rows as they stand, psize last in the place of a
	// target; ModeChoice then gathers each traveller's four rows.
	modeChoiceLayout = layout{
		sep:    ";",
		names:  []string{"individual", "mode", "choice", "ttme", "invc", "invt", "gc", "hinc", "psize"},
		target: span{1, 6, true},
		spans: []span{
			{1, 210, true},         // individual
			{1, 4, true},           // mode: 1 air, 2 train, 3 bus, 4 car
			{0, 1, true},           // choice
			{0, math.Inf(1), true}, // ttme: terminal waiting time, minutes (0 for car)
			{0, math.Inf(1), true}, // invc: in-vehicle cost, dollars
			{0, math.Inf(1), true}, // invt: in-vehicle time, minutes
			{0, math.Inf(1), true}, // gc: generalised cost, dollars
			{0, math.Inf(1), true}, // hinc: household income, $1000s
		},
	}
	randhieLayout = layout{
		sep:         ",",
		names:       []string{"mdvis", "lncoins", "idp", "lpi", "fmde", "physlm", "disea", "hlthg", "hlthf", "hlthp"},
		targetFirst: true,
		target:      span{0, math.Inf(1), true},
		spans:       randhieSpans,
	}
)

// BreastCancer returns the Breast Cancer Wisconsin (Diagnostic) table: X, 569 rows of its
// 30 features (means, standard errors and worst values of ten cell-nucleus measurements),
// and y, 1 for benign and 0 for malignant, in the file's order. It checks the table's
// shape and every number.
func BreastCancer() (*mat.Dense, []float64, error) {
	return parseTable(BreastCancerLabel, breastCancerCSV, layout{sep: ",", counts: true, classes: 2}, 569, 30)
}

// Wine returns the Wine table: X, 178 rows of its 13 features (chemical analyses of wines
// grown in one region of Italy: alcohol, malic acid, ash, ..., proline), and y, the
// cultivar as 0, 1 or 2, in the file's order. It checks the table's shape and every
// number.
func Wine() (*mat.Dense, []float64, error) {
	return parseTable(WineLabel, wineCSV, layout{sep: ",", counts: true, classes: 3}, 178, 13)
}

// Digits returns the optical-recognition digits table: X, 1797 rows of 64 pixel values
// (counts 0-16 of an 8x8 image, pixel r*8+c in column r*8+c), and y, the digit 0-9, in the
// file's order. It decompresses the embedded file and checks the table's shape and every
// number, the pixels being integers in [0, 16].
func Digits() (*mat.Dense, []float64, error) {
	text, err := gunzip(DigitsLabel, digitsGz)
	if err != nil {
		return nil, nil, err
	}
	x, y, err := parseTable(DigitsLabel, text, layout{sep: ",", classes: 10}, 1797, 64)
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

// ANES96 returns the American National Election Studies 1996 table: X, 944 rows (one
// respondent each) of its nine features in the file's column order (popul, TVnews, selfLR,
// ClinLR, DoleLR, PID, age, educ, income; codes in data/README.md), and y, the expected
// vote: 0 for Clinton, 1 for Dole, in the file's order. It checks the header, the table's
// shape and every number: each feature an integer in its documented range (anes96Spans).
func ANES96() (*mat.Dense, []float64, error) {
	return parseTable(ANES96Label, anes96TSV, anes96Layout, 944, 9)
}

// RANDHIE returns the RAND Health Insurance Experiment table: X, 20190 rows (one
// person-year each) of its nine features in the file's column order (lncoins, idp, lpi,
// fmde, physlm, disea, hlthg, hlthf, hlthp; meanings in data/README.md), and y, mdvis, the
// number of outpatient visits to a doctor, in the file's order. It decompresses the
// embedded file and checks the header, the table's shape and every number: mdvis a
// non-negative integer, each feature in its documented range (randhieSpans).
func RANDHIE() (*mat.Dense, []float64, error) {
	text, err := gunzip(RANDHIELabel, randhieGz)
	if err != nil {
		return nil, nil, err
	}
	return parseTable(RANDHIELabel, text, randhieLayout, 20190, 9)
}

// ModeChoice returns the travel mode choice table with one row per traveller: X, 210 rows of
// 17 features (ModeChoiceFeatures: household income, party size, then the terminal time
// of air, train and bus, and the in-vehicle cost, in-vehicle time and generalised cost of
// air, train, bus and car, in that order), and y, 1 when the traveller chose air and 0 for
// a ground mode. It checks the header, every number (integers in their documented ranges)
// and that each traveller has the four modes in order, one choice, one income and party
// size, and no terminal time for car.
func ModeChoice() (*mat.Dense, []float64, error) {
	const travellers, modes = 210, 4
	rows, psize, err := parseTable(ModeChoiceLabel, modeChoiceCSV, modeChoiceLayout, travellers*modes, 8)
	if err != nil {
		return nil, nil, err
	}
	const individual, mode, choice, ttme, invc, invt, gc, hinc = 0, 1, 2, 3, 4, 5, 6, 7
	x := mat.NewDense(travellers, len(ModeChoiceFeatures), nil)
	y := make([]float64, travellers)
	for k := range travellers {
		chosen := 0
		first := rows.RawRowView(k * modes)
		for m := range modes {
			i := k*modes + m
			row := rows.RawRowView(i)
			switch {
			case row[individual] != float64(k+1) || row[mode] != float64(m+1):
				return nil, nil, fmt.Errorf("data: %s table, row %d: traveller %v, mode %v; want traveller %d, mode %d (four rows per traveller, modes in order)", ModeChoiceLabel, i+1, row[individual], row[mode], k+1, m+1)
			case row[hinc] != first[hinc] || psize[i] != psize[k*modes]:
				return nil, nil, fmt.Errorf("data: %s table, row %d: traveller %d's income or party size differs between its rows", ModeChoiceLabel, i+1, k+1)
			case m == modes-1 && row[ttme] != 0:
				return nil, nil, fmt.Errorf("data: %s table, row %d: car with terminal time %v, want 0", ModeChoiceLabel, i+1, row[ttme])
			}
			if row[choice] == 1 {
				chosen++
				if m == 0 {
					y[k] = 1
				}
			}
			if m < modes-1 {
				x.Set(k, 2+m, row[ttme])
			}
			x.Set(k, 5+m, row[invc])
			x.Set(k, 9+m, row[invt])
			x.Set(k, 13+m, row[gc])
		}
		if chosen != 1 {
			return nil, nil, fmt.Errorf("data: %s table: traveller %d chose %d modes, want 1", ModeChoiceLabel, k+1, chosen)
		}
		x.Set(k, 0, first[hinc])
		x.Set(k, 1, psize[k*modes])
	}
	return x, y, nil
}

// ModeChoiceFeatures name the columns of ModeChoice's X.
var ModeChoiceFeatures = []string{"hinc", "psize", "ttme_air", "ttme_train", "ttme_bus",
	"invc_air", "invc_train", "invc_bus", "invc_car", "invt_air", "invt_train", "invt_bus", "invt_car",
	"gc_air", "gc_train", "gc_bus", "gc_car"}

// anes96Spans are the ranges of anes96's features, from the codes statsmodels' description
// of the table lists.
var anes96Spans = []span{
	{0, math.Inf(1), true}, // popul: population of the census place, in thousands
	{0, 7, true},           // TVnews: times a week the respondent watches TV news
	{1, 7, true},           // selfLR: own leaning, 1 extremely liberal to 7 extremely conservative
	{1, 7, true},           // ClinLR: Clinton's leaning as the respondent sees it, same scale
	{1, 7, true},           // DoleLR: Dole's leaning as the respondent sees it, same scale
	{0, 6, true},           // PID: party identification, 0 strong Democrat to 6 strong Republican
	{18, 120, true},        // age: a voter's, in years
	{1, 7, true},           // educ: 1 grades 1-8 to 7 PhD
	{1, 24, true},          // income: household income bracket, 1 under $3,000 to 24 $105,000 and over
}

// randhieSpans are the ranges of randhie's features, from statsmodels' description of the
// table. physlm is documented as an indicator but takes fractional values in [0, 1] in
// the file.
var randhieSpans = []span{
	{0, math.Log(101), false}, // lncoins: log(coinsurance + 1), coinsurance in [0, 100]
	{0, 1, true},              // idp: individual deductible plan
	{0, math.Inf(1), false},   // lpi: log(max(1, annual participation incentive payment))
	{0, math.Inf(1), false},   // fmde: log(max(1, MDE / (0.01 coinsurance))), 0 with idp
	{0, 1, false},             // physlm: physical limitation
	{0, math.Inf(1), false},   // disea: chronic diseases
	{0, 1, true},              // hlthg: self-rated health good
	{0, 1, true},              // hlthf: self-rated health fair
	{0, 1, true},              // hlthp: self-rated health poor
}

// gunzip decompresses the embedded gzipped table named label.
func gunzip(label string, gz []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return "", fmt.Errorf("data: %s table: %w", label, err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return "", fmt.Errorf("data: %s table: %w", label, err)
	}
	return string(text), nil
}

// span is the range [lo, hi] of a column's values, integers when integer is set.
type span struct {
	lo, hi  float64
	integer bool
}

// check returns an error describing v when it lies outside the span.
func (s span) check(v float64) error {
	switch {
	case s.integer && (v < s.lo || v > s.hi || v != math.Trunc(v)):
		return fmt.Errorf("%v, want an integer in [%v, %v]", v, s.lo, s.hi)
	case v < s.lo || v > s.hi:
		return fmt.Errorf("%v, want a number in [%v, %v]", v, s.lo, s.hi)
	}
	return nil
}

// layout is how a table's text is laid out.
type layout struct {
	// sep separates the fields of a line: "," or "\t".
	sep string
	// counts: a first line whose first two fields are the rows and the features (sklearn's
	// files). names: a first line of these column names, each bare or in single quotes
	// (statsmodels' files). Neither: no header.
	counts bool
	names  []string
	// targetFirst: the target is a line's first field, else its last; the other fields are
	// the features, in order.
	targetFirst bool
	// classes > 0: the target is a class, an integer in [0, classes); else it lies in target.
	classes int
	target  span
	// spans, when set, are the ranges of the features, one each; else a feature is any
	// finite number.
	spans []span
}

// row names data row i (0-based) for an error: "row 5", counted from 1 without the header;
// a table with column names adds the line of the file, "row 5 (line 6)".
func (l layout) row(i int) string {
	if l.names != nil {
		return fmt.Sprintf("row %d (line %d)", i+1, i+2)
	}
	return fmt.Sprintf("row %d", i+1)
}

// field names field j (0-based) of data row i for an error: "row 5, field 3"; a table with
// column names adds the line and the column's name, "row 5 (line 6), field 3 (selfLR)".
func (l layout) field(i, j int) string {
	if l.names != nil {
		return fmt.Sprintf("%s, field %d (%s)", l.row(i), j+1, l.names[j])
	}
	return fmt.Sprintf("%s, field %d", l.row(i), j+1)
}

// parseTable reads the table text named label, laid out as l: the header l declares, then
// rows lines, each of features finite numbers and the target. It returns the features as
// X and the targets as y, and an error naming the row and field of anything wrong (see
// layout.field).
func parseTable(label, text string, l layout, rows, features int) (*mat.Dense, []float64, error) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	switch {
	case l.counts:
		head := strings.Split(strings.TrimSpace(lines[0]), l.sep)
		if len(head) < 2 || head[0] != strconv.Itoa(rows) || head[1] != strconv.Itoa(features) {
			return nil, nil, fmt.Errorf("data: %s table: header %q, want %d rows of %d features", label, lines[0], rows, features)
		}
		lines = lines[1:]
	case l.names != nil:
		head := strings.Split(strings.TrimSpace(lines[0]), l.sep)
		for j := range head {
			if h := head[j]; len(h) >= 2 && h[0] == '\'' && h[len(h)-1] == '\'' {
				head[j] = h[1 : len(h)-1]
			}
		}
		if !slices.Equal(head, l.names) {
			return nil, nil, fmt.Errorf("data: %s table: header %q, want the columns %s", label, lines[0], strings.Join(l.names, ", "))
		}
		lines = lines[1:]
	}
	if len(lines) != rows {
		return nil, nil, fmt.Errorf("data: %s table has %d rows, want %d", label, len(lines), rows)
	}
	x := mat.NewDense(rows, features, nil)
	y := make([]float64, rows)
	target := features
	if l.targetFirst {
		target = 0
	}
	for i, line := range lines {
		fields := strings.Split(strings.TrimSpace(line), l.sep)
		if len(fields) != features+1 {
			return nil, nil, fmt.Errorf("data: %s table, %s: %d fields, want %d", label, l.row(i), len(fields), features+1)
		}
		for j, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("data: %s table, %s: %w", label, l.field(i, j), err)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("data: %s table, %s: %v is not finite", label, l.field(i, j), v)
			}
			if j != target {
				k := j
				if l.targetFirst {
					k--
				}
				if l.spans != nil {
					if err := l.spans[k].check(v); err != nil {
						return nil, nil, fmt.Errorf("data: %s table, %s: %w", label, l.field(i, j), err)
					}
				}
				x.Set(i, k, v)
				continue
			}
			if l.classes > 0 && (v < 0 || v >= float64(l.classes) || v != math.Trunc(v)) {
				return nil, nil, fmt.Errorf("data: %s table, %s: class %v, want an integer in [0, %d]", label, l.row(i), v, l.classes-1)
			}
			if l.classes == 0 {
				if err := l.target.check(v); err != nil {
					return nil, nil, fmt.Errorf("data: %s table, %s: %w", label, l.field(i, j), err)
				}
			}
			y[i] = v
		}
	}
	return x, y, nil
}
