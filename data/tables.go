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

// irisCSV is Fisher's iris table (UCI, CC BY 4.0; see data/README.md), as Debian's
// python3-sklearn 1.2.1+dfsg-1 ships it: a first line "150,4,setosa,versicolor,virginica",
// then 150 rows of 4 features and the species (0 setosa, 1 versicolor, 2 virginica).
//
//go:embed tables/iris.csv
var irisCSV string

// macrodataCSV is the US macroeconomic table (public domain; see data/README.md), as
// Debian's python3-statsmodels 0.13.5+dfsg-7 ships it: comma-separated, a first line of the
// 14 column names in double quotes (macrodataLayout), then 203 rows, one quarter each,
// 1959Q1 to 2009Q3.
//
//go:embed tables/macrodata.csv
var macrodataCSV string

// grunfeldCSV is Grunfeld's investment table (public domain; see data/README.md), as
// Debian's python3-statsmodels 0.13.5+dfsg-7 ships it: comma-separated, a first line of the
// five column names (grunfeldLayout), then 220 rows, 20 years (1935-1954) of each of 11
// firms, the firm by name.
//
//go:embed tables/grunfeld.csv
var grunfeldCSV string

// engelCSV is Engel's food expenditure table (public domain; see data/README.md), as
// Debian's python3-statsmodels 0.13.5+dfsg-7 ships it: comma-separated, a first line of the
// two column names in double quotes (engelLayout), then 235 rows, one household each, of
// its income and food expenditure.
//
//go:embed tables/engel.csv
var engelCSV string

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
	// IrisLabel is the data label of Fisher's iris table.
	IrisLabel = "iris"
	// MacrodataLabel is the data label of the US macroeconomic table.
	MacrodataLabel = "macrodata"
	// GrunfeldLabel is the data label of Grunfeld's investment table.
	GrunfeldLabel = "grunfeld"
	// EngelLabel is the data label of Engel's food expenditure table.
	EngelLabel = "engel"
)

// The layouts of statsmodels' files, each under a first line of the column names: anes96's
// target, the vote, is a class in the last field; randhie's, the visits, a count in the
// first; grunfeld's, the investment, an amount in the first; engel's, the food
// expenditure, an amount in the last.
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
	// macrodataLayout reads the file's rows as they stand, realint last in the place of a
	// target; Macrodata then builds each quarter's features and label.
	macrodataLayout = layout{
		sep:    ",",
		names:  []string{"year", "quarter", "realgdp", "realcons", "realinv", "realgovt", "realdpi", "cpi", "m1", "tbilrate", "unemp", "pop", "infl", "realint"},
		target: span{math.Inf(-1), math.Inf(1), false},
		spans: []span{
			{1959, 2009, true},                 // year
			{1, 4, true},                       // quarter
			{0, math.Inf(1), false},            // realgdp: real GDP, billions of chained 2005 dollars
			{0, math.Inf(1), false},            // realcons: real personal consumption expenditures, same unit
			{0, math.Inf(1), false},            // realinv: real gross private domestic investment, same unit
			{0, math.Inf(1), false},            // realgovt: real federal expenditures and investment, same unit
			{0, math.Inf(1), false},            // realdpi: real disposable personal income, same unit
			{0, math.Inf(1), false},            // cpi: consumer price index, 1982-84 = 100
			{0, math.Inf(1), false},            // m1: M1 money stock
			{0, 100, false},                    // tbilrate: 3-month treasury bill rate, percent
			{0, 100, false},                    // unemp: unemployment rate, percent
			{0, math.Inf(1), false},            // pop: population, millions
			{math.Inf(-1), math.Inf(1), false}, // infl: inflation rate, percent a year
		},
	}
	// grunfeldLayout reads the file's rows once Grunfeld has replaced each firm's name by
	// its index in grunfeldFirms.
	grunfeldLayout = layout{
		sep:         ",",
		names:       []string{"invest", "value", "capital", "firm", "year"},
		targetFirst: true,
		target:      span{0, math.Inf(1), false},
		spans: []span{
			{0, math.Inf(1), false}, // value: market value, millions of 1947 dollars
			{0, math.Inf(1), false}, // capital: stock of plant and equipment, millions of 1947 dollars
			{0, 10, true},           // firm: index in grunfeldFirms
			{1935, 1954, true},      // year
		},
	}
	engelLayout = layout{
		sep:    ",",
		names:  []string{"income", "foodexp"},
		target: span{0, math.Inf(1), false},
		spans:  []span{{0, math.Inf(1), false}}, // income, Belgian francs a year
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

// Iris returns Fisher's iris table: X, 150 rows of its 4 features (sepal length, sepal
// width, petal length, petal width, in cm), and y, the species as 0 (setosa), 1
// (versicolor) or 2 (virginica), in the file's order. It checks the table's shape and
// every number.
func Iris() (*mat.Dense, []float64, error) {
	return parseTable(IrisLabel, irisCSV, layout{sep: ",", counts: true, classes: 3}, 150, 4)
}

// Macrodata returns the US macroeconomic table as 201 rows, one for each quarter t from
// 1959Q2 to 2009Q2 (the second to the second-to-last of the file's 203 quarters, 1959Q1 to
// 2009Q3). X holds 11 features of quarter t: the log growth log(v_t / v_(t-1)) from the
// quarter before of realgdp, realcons, realinv, realgovt, realdpi, cpi and m1, then the
// levels of tbilrate, unemp, infl and realint, in that order; y is 1 when the unemployment
// rate of quarter t+1 is above that of quarter t, else 0. It checks the header, every
// number (each in its documented range, the amounts whose log is taken positive) and that
// the quarters follow each other from 1959Q1.
func Macrodata() (*mat.Dense, []float64, error) {
	const quarters = 203
	rows, realint, err := parseTable(MacrodataLabel, macrodataCSV, macrodataLayout, quarters, 13)
	if err != nil {
		return nil, nil, err
	}
	const year, quarter, tbilrate, unemp, infl = 0, 1, 9, 10, 12
	growth := []int{2, 3, 4, 5, 6, 7, 8} // realgdp, realcons, realinv, realgovt, realdpi, cpi, m1
	for _, j := range growth {
		if err := positive(MacrodataLabel, macrodataLayout, mat.Col(nil, j, rows), j); err != nil {
			return nil, nil, err
		}
	}
	for i := range quarters {
		row := rows.RawRowView(i)
		if row[year] != float64(1959+i/4) || row[quarter] != float64(i%4+1) {
			return nil, nil, fmt.Errorf("data: %s table, %s: quarter %vQ%v, want %dQ%d (the quarters in order from 1959Q1)", MacrodataLabel, macrodataLayout.row(i), row[year], row[quarter], 1959+i/4, i%4+1)
		}
	}
	x := mat.NewDense(quarters-2, len(growth)+4, nil)
	y := make([]float64, quarters-2)
	for t := 1; t < quarters-1; t++ {
		prev, now := rows.RawRowView(t-1), rows.RawRowView(t)
		out := x.RawRowView(t - 1)
		for k, j := range growth {
			out[k] = math.Log(now[j] / prev[j])
		}
		out[7], out[8], out[9], out[10] = now[tbilrate], now[unemp], now[infl], realint[t]
		if rows.At(t+1, unemp) > now[unemp] {
			y[t-1] = 1
		}
	}
	return x, y, nil
}

// grunfeldFirms are the firms of the grunfeld table in the file's order; Grunfeld's firm
// column is an index into it.
var grunfeldFirms = []string{"General Motors", "US Steel", "General Electric", "Chrysler", "Atlantic Refining",
	"IBM", "Union Oil", "Westinghouse", "Goodyear", "Diamond Match", "American Steel"}

// Grunfeld returns Grunfeld's investment table: X, 220 rows (one firm-year each) of four
// columns, the firm's market value and stock of plant and equipment (millions of 1947
// dollars), the firm as an index 0-10 (General Motors, US Steel, General Electric,
// Chrysler, Atlantic Refining, IBM, Union Oil, Westinghouse, Goodyear, Diamond Match,
// American Steel) and the year, and y, the firm's gross investment (millions of 1947
// dollars), in the file's order. It checks the header, the firm names, every number
// (investment, value and capital positive) and that the rows are the 20 years 1935-1954 of
// each firm in turn, in the order above.
func Grunfeld() (*mat.Dense, []float64, error) {
	const firms, years = 11, 20
	// firmField is the firm's field in a line of the file; value, capital, firm and year
	// are columns 0-3 of X.
	const firmField, value, capital, firm, year = 3, 0, 1, 2, 3
	lines := strings.Split(strings.TrimSpace(grunfeldCSV), "\n")
	for i := 1; i < len(lines); i++ {
		fields := strings.Split(strings.TrimSpace(lines[i]), grunfeldLayout.sep)
		if len(fields) != len(grunfeldLayout.names) {
			continue // parseTable reports the count
		}
		k := slices.Index(grunfeldFirms, fields[firmField])
		if k < 0 {
			return nil, nil, fmt.Errorf("data: %s table, %s: unknown firm %q", GrunfeldLabel, grunfeldLayout.field(i-1, firmField), fields[firmField])
		}
		fields[firmField] = strconv.Itoa(k)
		lines[i] = strings.Join(fields, grunfeldLayout.sep)
	}
	x, y, err := parseTable(GrunfeldLabel, strings.Join(lines, "\n"), grunfeldLayout, firms*years, 4)
	if err != nil {
		return nil, nil, err
	}
	for _, err := range []error{
		positive(GrunfeldLabel, grunfeldLayout, y, 0),
		positive(GrunfeldLabel, grunfeldLayout, mat.Col(nil, value, x), value+1),
		positive(GrunfeldLabel, grunfeldLayout, mat.Col(nil, capital, x), capital+1),
	} {
		if err != nil {
			return nil, nil, err
		}
	}
	for i := range firms * years {
		if f, yr := x.At(i, firm), x.At(i, year); f != float64(i/years) || yr != float64(1935+i%years) {
			return nil, nil, fmt.Errorf("data: %s table, %s: %s in %v, want %s in %d (the 20 years of each firm in turn)", GrunfeldLabel, grunfeldLayout.row(i), grunfeldFirms[int(f)], yr, grunfeldFirms[i/years], 1935+i%years)
		}
	}
	return x, y, nil
}

// Engel returns Engel's food expenditure table: X, 235 rows (one household each) of one
// column, the household's income, and y, its food expenditure (both Belgian francs a
// year), in the file's order. It checks the header and every number, both positive.
func Engel() (*mat.Dense, []float64, error) {
	x, y, err := parseTable(EngelLabel, engelCSV, engelLayout, 235, 1)
	if err != nil {
		return nil, nil, err
	}
	if err := positive(EngelLabel, engelLayout, mat.Col(nil, 0, x), 0); err != nil {
		return nil, nil, err
	}
	if err := positive(EngelLabel, engelLayout, y, 1); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// positive returns an error naming the first value of col, field f (0-based) of every row of
// a table laid out as l, that is not positive: a value whose log a task takes.
func positive(label string, l layout, col []float64, f int) error {
	for i, v := range col {
		if !(v > 0) {
			return fmt.Errorf("data: %s table, %s: %v, want a positive number", label, l.field(i, f), v)
		}
	}
	return nil
}

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
	// sep separates the fields of a line: ",", ";" or "\t".
	sep string
	// counts: a first line whose first two fields are the rows and the features (sklearn's
	// files). names: a first line of these column names, each bare or in single or double
	// quotes (statsmodels' files). Neither: no header.
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
			if h := head[j]; len(h) >= 2 && (h[0] == '\'' || h[0] == '"') && h[len(h)-1] == h[0] {
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
