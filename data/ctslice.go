// Package data reads the UCI "Relative location of CT slices on axial axis" data set
// (Graf, Kriegel, Schubert, Poelsterl and Cavallaro, 2011; CC BY 4.0), finds it on disk, and
// generates an offline stand-in of the same shape when it is absent.
//
// # The file
//
// UCI ships slice_localization_data.csv inside a zip archive. The CSV has a header row
//
//	patientId,value0,value1,...,value383,reference
//
// and 53500 data rows, one per CT slice: the patient's id, 384 image features (histograms
// of bone structures and air inclusions; values in [0, 1], with -0.25 marking histogram bins
// that lie outside the image) and the target, the slice's relative location on the axial
// axis (documented range [0, 180]; 0 is the top of the head). Rows are grouped by patient.
//
// Load reads the CSV, the zip as UCI ships it (the CSV inside, directly or inside a nested
// zip) or a directory holding either, checks the header and the shape, and returns one
// clear error naming what is wrong (file, line, column). Find applies the project's lookup
// order for the file. Standin generates the offline stand-in (see its doc comment).
//
// The file is fetched with `bash data/fetch.sh` (needs curl and internet access); see
// data/README.md.
package data

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

const (
	// Features is the number of image features per slice (value0..value383).
	Features = 384
	// Columns is the number of CSV columns: patientId, the features and reference.
	Columns = Features + 2
	// FullRows is the number of data rows of the full UCI file.
	FullRows = 53500
	// outsideImage is the feature value that marks a histogram bin outside the image.
	outsideImage = -0.25
	// targetMax is the upper end of the documented target range [0, targetMax].
	targetMax = 180.0
	// CSVName is the name of the CSV file inside UCI's archive.
	CSVName = "slice_localization_data.csv"
	// archiveName is the name data/fetch.sh gives the downloaded UCI archive.
	archiveName = "ctslice-uci.zip"
	// FetchCommand is the command, run from the repository root, that downloads the data.
	FetchCommand = "bash data/fetch.sh"
	// StandInWarning is the line a program prints once when the SVR task runs on the
	// labelled stand-in because the data were not found.
	StandInWarning = "warning: CT-slice data not found; SVR results are on the labelled stand-in ctslice-synthetic (get the real data with: " + FetchCommand + ")"
)

// CTSlice is the CT-slice data set, or a part of it: one row per slice.
type CTSlice struct {
	// PatientID is the patient of each row.
	PatientID []int
	// X holds the Features image features of each row (rows x Features).
	X *mat.Dense
	// Y is the target "reference": the slice's relative location on the axial axis.
	Y []float64
}

// Rows returns the number of slices.
func (d *CTSlice) Rows() int { return len(d.Y) }

// LoadOptions configure Load (and the embedded sample's reader).
type LoadOptions struct {
	// ExpectRows is the number of data rows the file must have; zero skips the row-count
	// check (for samples and test fixtures). Use FullRows for the UCI file.
	ExpectRows int
}

// Header returns the expected CSV header: patientId, value0..value383, reference.
func Header() []string {
	h := make([]string, 0, Columns)
	h = append(h, "patientId")
	for j := 0; j < Features; j++ {
		h = append(h, "value"+strconv.Itoa(j))
	}
	return append(h, "reference")
}

// Load reads the CT-slice data from path: the CSV itself, the zip archive as UCI ships it,
// or a directory that holds either (CSVName, else a zip archive). Files ending in .zip,
// or starting with the zip signature, are read as archives.
func Load(path string, opt LoadOptions) (*CTSlice, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("data: CT-slice data: %w", err)
	}
	if info.IsDir() {
		file, err := findInDir(path)
		if err != nil {
			return nil, err
		}
		if file == "" {
			return nil, fmt.Errorf("data: directory %s holds neither %s nor a .zip archive (run %s)", path, CSVName, FetchCommand)
		}
		path = file
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: CT-slice data: %w", err)
	}
	defer f.Close()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if strings.EqualFold(filepath.Ext(path), ".zip") || (n == 4 && string(magic[:]) == "PK\x03\x04") {
		zr, err := zip.NewReader(f, info.Size())
		if err != nil {
			return nil, fmt.Errorf("data: %s is not a readable zip archive: %w", path, err)
		}
		return loadZip(zr, path, opt, 0)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("data: %s: %w", path, err)
	}
	return readCSV(f, path, opt)
}

// loadZip finds the CSV in an archive (by name, else the only .csv) or, failing that, in a
// nested .zip, and reads it.
func loadZip(zr *zip.Reader, name string, opt LoadOptions, depth int) (*CTSlice, error) {
	var csvs, zips []*zip.File
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		base := filepath.Base(f.Name)
		if strings.HasPrefix(base, ".") || strings.HasPrefix(f.Name, "__MACOSX/") {
			continue
		}
		switch strings.ToLower(filepath.Ext(base)) {
		case ".csv":
			if base == CSVName {
				csvs = append([]*zip.File{f}, csvs...)
			} else {
				csvs = append(csvs, f)
			}
		case ".zip":
			zips = append(zips, f)
		}
	}
	if len(csvs) > 0 {
		if filepath.Base(csvs[0].Name) != CSVName && len(csvs) > 1 {
			return nil, fmt.Errorf("data: archive %s holds several CSV files and none is %s", name, CSVName)
		}
		rc, err := csvs[0].Open()
		if err != nil {
			return nil, fmt.Errorf("data: archive %s: %w", name, err)
		}
		defer rc.Close()
		return readCSV(rc, name+":"+csvs[0].Name, opt)
	}
	if len(zips) > 0 && depth == 0 {
		var lastErr error
		for _, z := range zips {
			rc, err := z.Open()
			if err != nil {
				return nil, fmt.Errorf("data: archive %s: %w", name, err)
			}
			body, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, fmt.Errorf("data: archive %s: reading %s: %w", name, z.Name, err)
			}
			inner, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
			if err != nil {
				return nil, fmt.Errorf("data: archive %s: %s is not a readable zip archive: %w", name, z.Name, err)
			}
			d, err := loadZip(inner, name+":"+z.Name, opt, depth+1)
			if err == nil || !errors.Is(err, errNoCSV) {
				return d, err
			}
			lastErr = err
		}
		return nil, lastErr
	}
	return nil, fmt.Errorf("data: archive %s: %w", name, errNoCSV)
}

var errNoCSV = errors.New("no " + CSVName + " (nor any .csv) inside")

// readCSV parses CT-slice CSV text from r; name is used in error messages. It checks the
// header (patientId, value0..value383, reference), that every row has Columns fields, that
// every cell is a finite number, that patientId is an integer, and, when opt.ExpectRows is
// positive, the number of data rows.
func readCSV(r io.Reader, name string, opt LoadOptions) (*CTSlice, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("data: %s is empty (want a header row and data rows)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("data: %s: reading the header: %w", name, err)
	}
	if err := checkHeader(header, name); err != nil {
		return nil, err
	}
	capRows := opt.ExpectRows
	if capRows <= 0 {
		capRows = 1024
	}
	ids := make([]int, 0, capRows)
	ys := make([]float64, 0, capRows)
	xs := make([]float64, 0, capRows*Features)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("data: %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != Columns {
			return nil, fmt.Errorf("data: %s: line %d has %d fields, want %d (patientId, value0..value%d, reference)", name, line, len(rec), Columns, Features-1)
		}
		id, err := parseCell(rec[0], name, line, 0)
		if err != nil {
			return nil, err
		}
		if id != math.Trunc(id) || id < 0 || id > math.MaxInt32 {
			return nil, fmt.Errorf("data: %s: line %d, column %q: %q is not a non-negative integer patient id", name, line, "patientId", rec[0])
		}
		for j := 1; j <= Features; j++ {
			v, err := parseCell(rec[j], name, line, j)
			if err != nil {
				return nil, err
			}
			xs = append(xs, v)
		}
		y, err := parseCell(rec[Columns-1], name, line, Columns-1)
		if err != nil {
			return nil, err
		}
		ids = append(ids, int(id))
		ys = append(ys, y)
	}
	if len(ys) == 0 {
		return nil, fmt.Errorf("data: %s has a header but no data rows", name)
	}
	if opt.ExpectRows > 0 && len(ys) != opt.ExpectRows {
		return nil, fmt.Errorf("data: %s has %d data rows, want %d (is the file complete? re-run %s)", name, len(ys), opt.ExpectRows, FetchCommand)
	}
	return &CTSlice{PatientID: ids, X: mat.NewDense(len(ys), Features, xs), Y: ys}, nil
}

func checkHeader(header []string, name string) error {
	want := Header()
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	if len(header) != len(want) {
		return fmt.Errorf("data: %s: header has %d columns, want %d (patientId, value0..value%d, reference)", name, len(header), len(want), Features-1)
	}
	for j, h := range header {
		if strings.TrimSpace(h) != want[j] {
			return fmt.Errorf("data: %s: header column %d is %q, want %q", name, j+1, h, want[j])
		}
	}
	return nil
}

func parseCell(s, name string, line, col int) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("data: %s: line %d, column %d (%q): %q is not a finite number", name, line, col+1, Header()[col], s)
	}
	return v, nil
}

// WriteCSV writes d in the UCI file's format (header and one row per slice), with every
// number in its shortest exact form.
func WriteCSV(w io.Writer, d *CTSlice) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header()); err != nil {
		return fmt.Errorf("data: writing CSV header: %w", err)
	}
	rec := make([]string, Columns)
	for i := range d.Y {
		rec[0] = strconv.Itoa(d.PatientID[i])
		for j := 0; j < Features; j++ {
			rec[j+1] = strconv.FormatFloat(d.X.At(i, j), 'g', -1, 64)
		}
		rec[Columns-1] = strconv.FormatFloat(d.Y[i], 'g', -1, 64)
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("data: writing CSV row %d: %w", i+1, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("data: writing CSV: %w", err)
	}
	return nil
}

// findInDir returns the CT-slice file inside dir: CSVName if present, else archiveName, else
// the first .zip file in name order; "" when there is none.
func findInDir(dir string) (string, error) {
	for _, name := range []string{CSVName, archiveName} {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, nil
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("data: reading directory %s: %w", dir, err)
	}
	var zips []string
	for _, e := range entries {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".zip") {
			zips = append(zips, e.Name())
		}
	}
	sort.Strings(zips)
	if len(zips) == 0 {
		return "", nil
	}
	return filepath.Join(dir, zips[0]), nil
}
