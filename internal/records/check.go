package records

import (
	"compress/flate"
	"compress/gzip"
	"encoding"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gocarina/gocsv"
)

// The checks made when a record file is read (Unmarshal, ReadFile). A record type declares
// them in a `records` tag beside a field's `csv` tag:
//
//	required  the header must hold the column. The cells of a required numeric column may
//	          not be empty (gocsv would read an empty cell as 0).
//	finite    the column's numbers must be finite: NaN, +Inf and -Inf are errors. An empty
//	          cell of an optional column (an absent value) passes.
//
// Whatever the tags, a header naming a column twice is an error, and columns the type does
// not know are ignored: columns may be added to a file, never renamed, so a reader of an
// older type reads a newer file. A column added after files were committed is optional, so
// the older files still read. Every error names the line (1-based, the header is line 1)
// and the column of the first bad cell in file order, and ReadFile adds the file's path.

// tagName is the struct tag holding a column's checks.
const tagName = "records"

// fileError is a problem with a record file: where it is and what it is. Its text is
// "PATH: line N, column NAME: what", without the parts that are unknown or do not apply (a
// gzip error is in no line; a header error in no one column).
type fileError struct {
	// Path is the file as given to ReadFile or Header; "" for Unmarshal.
	Path string
	// Line is the 1-based line of the problem (the header is line 1); 0 when the problem
	// is not in one line.
	Line int
	// Column is the name of the column of the bad cell; "" when the problem is not in one
	// cell.
	Column string
	Err    error
}

func (e *fileError) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
		if e.Column != "" {
			fmt.Fprintf(&b, ", column %s", e.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *fileError) Unwrap() error { return e.Err }

// inFile returns err naming the file at path: a fileError gets the path, any other error
// becomes one.
func inFile(path string, err error) error {
	var fe *fileError
	if errors.As(err, &fe) {
		c := *fe
		c.Path = path
		return &c
	}
	return &fileError{Path: path, Err: err}
}

// errNotGzip is the error of a file named .gz that does not start like a gzip stream.
var errNotGzip = errors.New("not a gzip file")

// errTruncated is the error of a gzip stream that ends early.
var errTruncated = errors.New("truncated")

// errCorrupt is the error of a gzip stream whose data is damaged.
var errCorrupt = errors.New("corrupt")

// gzipError says what a gzip error means for the file: truncated or corrupt, with gzip's
// own words in parentheses, e.g. "truncated (gzip: unexpected EOF)".
func gzipError(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case err == nil, err == io.EOF:
		return err
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w (gzip: %v)", errTruncated, err)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		return fmt.Errorf("%w (%v)", errCorrupt, err)
	}
	return err
}

// kind is how a column's cells are parsed, for the words of an error.
type kind int

const (
	kindOther kind = iota
	kindString
	kindBool
	kindInt
	kindUint
	kindFloat
	kindOptFloat
)

// column is one column of a record type.
type column struct {
	// keys are the names that select the column (gocsv's: the csv tag's names, or the
	// field's name); keys[0] names it in errors.
	keys     []string
	kind     kind
	required bool
	finite   bool
}

// schema is the columns of a record type, in declaration order.
type schema struct {
	columns []column
	err     error // an invalid records tag
}

var schemas sync.Map // reflect.Type -> *schema

// schemaOf returns the schema of T.
func schemaOf[T any]() *schema {
	t := reflect.TypeFor[T]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := schemas.Load(t); ok {
		return s.(*schema)
	}
	s := &schema{}
	if t.Kind() != reflect.Struct {
		s.err = fmt.Errorf("records: %v is not a struct", t)
	} else {
		s.err = s.add(t)
	}
	v, _ := schemas.LoadOrStore(t, s)
	return v.(*schema)
}

var (
	csvUnmarshaler  = reflect.TypeFor[gocsv.TypeUnmarshaller]()
	csvMarshaler    = reflect.TypeFor[gocsv.TypeMarshaller]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	optFloatType    = reflect.TypeFor[OptFloat]()
)

// oneColumn reports whether gocsv reads a struct type as one column (it marshals itself)
// rather than as one column per field.
func oneColumn(t reflect.Type) bool {
	for _, t := range []reflect.Type{t, reflect.PointerTo(t)} {
		for _, i := range []reflect.Type{csvUnmarshaler, csvMarshaler, textUnmarshaler, textMarshaler} {
			if t.Implements(i) {
				return true
			}
		}
	}
	return false
}

// add appends the columns of struct type t, as gocsv maps them: exported fields, embedded
// structs' fields in place.
func (s *schema) add(t reflect.Type) error {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.PkgPath != "" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		nested := ft.Kind() == reflect.Struct && !oneColumn(ft)
		opts, tagged := f.Tag.Lookup(tagName)
		if f.Anonymous || nested {
			if tagged {
				return fmt.Errorf("records: %v.%s: a %s tag on a field that is not one column", t, f.Name, tagName)
			}
			if f.Anonymous && nested {
				if err := s.add(ft); err != nil {
					return err
				}
			}
			// A named struct field is read by gocsv as prefixed columns, which this
			// schema does not check.
			continue
		}
		c := column{keys: csvKeys(f), kind: kindOf(ft)}
		if c.keys == nil {
			continue
		}
		if tagged {
			for _, o := range strings.Split(opts, ",") {
				switch strings.TrimSpace(o) {
				case "required":
					c.required = true
				case "finite":
					if c.kind != kindFloat && c.kind != kindOptFloat {
						return fmt.Errorf("records: %v.%s: finite on a column that is not a float", t, f.Name)
					}
					c.finite = true
				default:
					return fmt.Errorf("records: %v.%s: unknown %s option %q", t, f.Name, tagName, o)
				}
			}
		}
		s.columns = append(s.columns, c)
	}
	return nil
}

// csvKeys returns the names gocsv gives the field's column (nil for a field it skips).
func csvKeys(f reflect.StructField) []string {
	tag := f.Tag.Get(gocsv.TagName)
	var keys []string
	for _, k := range strings.Split(tag, gocsv.TagSeparator) {
		k = strings.TrimSpace(k)
		if k == "omitempty" || strings.HasPrefix(k, "partial") || strings.HasPrefix(k, "default=") {
			continue
		}
		keys = append(keys, k)
	}
	switch {
	case len(keys) == 1 && keys[0] == "-":
		return nil
	case len(keys) == 0 || keys[0] == "":
		return []string{f.Name}
	}
	return keys
}

func kindOf(t reflect.Type) kind {
	if t == optFloatType {
		return kindOptFloat
	}
	if oneColumn(t) {
		return kindOther
	}
	switch t.Kind() {
	case reflect.String:
		return kindString
	case reflect.Bool:
		return kindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kindInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return kindUint
	case reflect.Float32, reflect.Float64:
		return kindFloat
	}
	return kindOther
}

// name is the column's name in errors.
func (c *column) name() string { return c.keys[0] }

// matches reports whether the header cell h selects the column, as gocsv matches them
// (surrounding spaces or zero-width characters such as a byte order mark are ignored).
func (c *column) matches(h string) bool {
	for _, k := range c.keys {
		if h == k || strings.TrimSpace(h) == k || stripZeroWidth(h) == k {
			return true
		}
	}
	return false
}

func stripZeroWidth(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u200B', '\uFEFF', '\u200D', '\u200C':
			return -1
		}
		return r
	}, s)
}

// headerName is how a header cell is compared with the others to find a column named twice.
func headerName(h string) string { return strings.TrimSpace(stripZeroWidth(h)) }

// bind maps every header cell to the column it selects (nil for a column the type does not
// know) and checks the header: every required column present (the first thing to say of a
// file that is not of the type at all), no column twice.
func (s *schema) bind(header []string) ([]*column, error) {
	if s.err != nil {
		return nil, s.err
	}
	cols := make([]*column, len(header))
	first := map[string]int{}
	var twice error
	for i, h := range header {
		name := headerName(h)
		for j := range s.columns {
			if c := &s.columns[j]; c.matches(h) {
				cols[i], name = c, c.name()
				break
			}
		}
		if j, ok := first[name]; ok && twice == nil {
			twice = fmt.Errorf("column %s appears twice (columns %d and %d)", name, j+1, i+1)
		}
		if _, ok := first[name]; !ok {
			first[name] = i
		}
	}
	var missing []string
	for j := range s.columns {
		if c := &s.columns[j]; c.required && !slices.Contains(cols, c) {
			missing = append(missing, c.name())
		}
	}
	switch {
	case len(missing) == 1:
		return nil, &fileError{Line: 1, Err: fmt.Errorf("missing required column %s", missing[0])}
	case len(missing) > 1:
		return nil, &fileError{Line: 1, Err: fmt.Errorf("missing required columns %s", strings.Join(missing, ", "))}
	case twice != nil:
		return nil, &fileError{Line: 1, Err: twice}
	}
	return cols, nil
}

// requiredNames returns the names of the required columns.
func (s *schema) requiredNames() []string {
	var out []string
	for _, c := range s.columns {
		if c.required {
			out = append(out, c.name())
		}
	}
	return out
}

// check returns what is wrong with the cell s of column c by the column's tags: an empty
// cell of a required number, or a number that is not finite. Cells that do not parse are
// left to gocsv, which reads them.
func (c *column) check(s string) error {
	if c == nil || (!c.required && !c.finite) {
		return nil
	}
	numeric := c.kind == kindInt || c.kind == kindUint || c.kind == kindFloat || c.kind == kindOptFloat
	if c.required && numeric && strings.TrimSpace(s) == "" {
		return c.notParsed(s)
	}
	if !c.finite {
		return nil
	}
	var v float64
	var err error
	switch c.kind {
	case kindFloat: // as gocsv reads a float
		t := strings.TrimSpace(s)
		if t == "" {
			return nil
		}
		v, err = strconv.ParseFloat(strings.ReplaceAll(t, ",", "."), 64)
	case kindOptFloat: // as OptFloat.UnmarshalCSV reads one
		if s == "" {
			return nil
		}
		v, err = strconv.ParseFloat(s, 64)
	}
	if err != nil || !(math.IsNaN(v) || math.IsInf(v, 0)) {
		return nil
	}
	return fmt.Errorf("%q is not a finite number", s)
}

// notParsed is the error of a cell s that column c cannot hold.
func (c *column) notParsed(s string) error {
	if c == nil {
		return fmt.Errorf("%q cannot be read", s)
	}
	switch c.kind {
	case kindInt:
		return fmt.Errorf("%q is not an integer", s)
	case kindUint:
		return fmt.Errorf("%q is not a non-negative integer", s)
	case kindFloat, kindOptFloat:
		return fmt.Errorf("%q is not a number", s)
	case kindBool:
		return fmt.Errorf("%q is not true or false", s)
	}
	return fmt.Errorf("%q cannot be read", s)
}

// rows are CSV records that gocsv decodes (gocsv.Decoder).
type rows [][]string

func (r rows) GetCSVRows() ([][]string, error) { return r, nil }

// cellError is a problem in record i (0: the header), cell j.
type cellError struct {
	i, j int
	err  error
}

// decode reads CSV with a header line from r into a slice of T with every check of the
// package comment above; errors are fileErrors without a path, or the reader's own.
func decode[T any](r io.Reader) ([]T, error) {
	s := schemaOf[T]()
	if s.err != nil {
		return nil, s.err
	}
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &fileError{Err: errors.New("empty file (no header line)")}
	}
	if err != nil {
		return nil, csvError(err, nil, nil)
	}
	cols, err := s.bind(header)
	if err != nil {
		return nil, err
	}
	recs := rows{header}
	lines := []int{1}
	var bad *cellError
	for bad == nil {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err, rec, header)
		}
		line, _ := cr.FieldPos(0)
		recs, lines = append(recs, rec), append(lines, line)
		for j, cell := range rec {
			if err := cols[j].check(cell); err != nil {
				bad = &cellError{len(recs) - 1, j, err}
				break
			}
		}
	}
	// gocsv reads the records up to the first that failed a check; a cell it cannot
	// parse before that one is the first error in the file.
	var out []T
	err = gocsv.UnmarshalDecoder(recs, &out)
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe) && pe.Line >= 2 && pe.Line-1 < len(recs) && pe.Column >= 1 && pe.Column <= len(header):
		i, j := pe.Line-1, pe.Column-1
		if bad == nil || i < bad.i || (i == bad.i && j < bad.j) {
			bad = &cellError{i, j, cols[j].notParsed(recs[i][j])}
		}
	case err != nil:
		return nil, fmt.Errorf("records: reading CSV: %w", err)
	}
	if bad != nil {
		name := headerName(header[bad.j])
		if c := cols[bad.j]; c != nil {
			name = c.name()
		}
		return nil, &fileError{Line: lines[bad.i], Column: name, Err: bad.err}
	}
	return out, nil
}

// csvError turns an error of encoding/csv (or of the reader under it) into a fileError: a
// syntax error at its line, a record rec with the wrong number of fields at the line where
// the record starts.
func csvError(err error, rec, header []string) error {
	var fe *fileError
	if errors.As(err, &fe) {
		return err // the gzip reader's
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &fileError{Err: err}
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &fileError{Line: pe.StartLine, Err: fmt.Errorf("%d fields, the header has %d", len(rec), len(header))}
	}
	return &fileError{Line: pe.Line, Err: pe.Err}
}
