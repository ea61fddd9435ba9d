// Package records defines the tidy CSV files that the experiment runner writes and the
// figures read: one Row per reported iteration of one run (one file per figure), one
// ThetaRow per recorded coordinate of a released theta (the theta paths of fig3f) and one
// Timing per run (timings.csv). Every file is read and written through gocsv, so a column
// is renamed in exactly one place: the struct tags below.
//
// Reading a file checks it against its record type (check.go): the columns a type tags
// required must be in the header, no column may appear twice, extra columns are ignored,
// and a cell that does not parse, an empty required number or a NaN or infinite value of a
// finite column is an error naming the file, the line and the column, e.g.
//
//	results/fig1.csv: line 17, column loss: "abc" is not a number
//
// A damaged .gz file is an error naming the file too: "not a gzip file", "truncated
// (gzip: unexpected EOF)" or "corrupt (...)".
//
// Floating-point values are written with the shortest decimal that reads back to the same
// float64, and +Inf (the mu of a non-private method) as "+Inf", so a CSV read and written
// again is byte-identical.
package records

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gocarina/gocsv"
)

// Row is one reported iteration of one run of one method: the tidy long format shared by
// every figure CSV. The configuration columns repeat on every row so that any subset of
// rows is self-describing.
//
// The required columns (the records tags) are those without which a figure or a verdict
// would be wrong rather than less labelled: the keys of a curve (figure, config, task,
// data, method, d), the data setting that finds f* in fstar.csv (d, n_users, n_train), the
// run (seed) and the point (iter, evals, loss). A file lacking one of them is an error
// instead of curves silently merged, drawn flat or matched to the wrong f*; loss must be
// finite. The other columns only describe a run (titles, legends, the privacy ledger) or
// are diagnostics, which came later than the rest and are empty for most methods: they
// are optional, and a missing one reads as zero or absent.
type Row struct {
	// Suite is the suite that produced the row: "paper", "quick" or "private".
	Suite string `csv:"suite"`
	// Figure is the figure the row belongs to, e.g. "fig1".
	Figure string `csv:"figure" records:"required"`
	// Config labels the swept configuration within the figure, e.g. "mu=0.1"; empty when
	// the figure sweeps nothing for this method.
	Config string `csv:"config" records:"required"`
	// Task is the task's registry name: grouplasso, gpreg or svr.
	Task string `csv:"task" records:"required"`
	// Data names the data the task ran on: synthetic, ctslice or ctslice-synthetic.
	Data string `csv:"data" records:"required"`
	// Method is the method's registry name, e.g. dpgibo, gibo, random, ucb, dp-random.
	Method string `csv:"method" records:"required"`
	// Private is true when the released theta is differentially private (from the ledger).
	Private bool `csv:"private"`
	// D is the number of hyperparameters.
	D int `csv:"d" records:"required"`
	// NUsers is n, the number of validation users.
	NUsers int `csv:"n_users" records:"required"`
	// NTrain is the number of training rows of the task.
	NTrain int `csv:"n_train" records:"required"`
	// Mu is the total mu of mu-GDP from the method's ledger (+Inf when not private).
	Mu float64 `csv:"mu"`
	// NoiseStd is sigma, the evaluation noise standard deviation the surrogate was told
	// (DP-GIBO and GIBO; 0 for other methods).
	NoiseStd float64 `csv:"noise_std"`
	// EvalNoise is the standard deviation of the noise actually added to every per-user
	// loss the method observed (0: noiseless evaluations).
	EvalNoise float64 `csv:"eval_noise"`
	// BiasTol is the gradient bias tolerance of Algorithm 1, line 4 (0: fixed batch).
	BiasTol float64 `csv:"bias_tol"`
	// Clip is B, the per-user gradient clipping norm (0 for methods without clipping).
	Clip float64 `csv:"clip"`
	// Step is eta, the base step size (0 for methods without steps).
	Step float64 `csv:"step"`
	// Iters is T, the configured number of iterations of DP-GIBO and GIBO (0 otherwise).
	Iters int `csv:"iters"`
	// Batch is the number of points evaluated in this iteration.
	Batch int `csv:"batch"`
	// Budget is the evaluation budget the method was given.
	Budget int `csv:"budget"`
	// Seed is the replication seed (1, 2, ...).
	Seed int `csv:"seed" records:"required"`
	// Iter is the iteration index (0: the start theta0 before any evaluation).
	Iter int `csv:"iter" records:"required"`
	// Evals is the number of evaluations of the per-user losses charged so far.
	Evals int `csv:"evals" records:"required"`
	// Loss is f(theta) = mean_i L(theta, x_i) of the released theta on the noiseless task,
	// computed by the runner and never charged to the method.
	Loss float64 `csv:"loss" records:"required,finite"`
	// DPEpsilon is epsilon at delta = 1e-5 of the method's ledger (+Inf when not private).
	DPEpsilon float64 `csv:"dp_epsilon"`

	// The last columns are DP-GIBO's and GIBO's per-iteration diagnostics (empty for other
	// methods and for iteration 0). GradNorm, NoiseNorm and ClippedFrac are computed from
	// the validation data and are NOT private (algo.NonPrivateDiagnostics): they explain
	// results and must not be published with a private release.

	// GradNorm is the Euclidean norm of the clipped mean gradient before noise
	// (Algorithm 1, line 8).
	GradNorm OptFloat `csv:"grad_norm"`
	// NoiseNorm is the Euclidean norm of the privacy noise vector drawn (0 for GIBO).
	NoiseNorm OptFloat `csv:"noise_norm"`
	// ClippedFrac is the share of users whose surrogate gradient was clipped.
	ClippedFrac OptFloat `csv:"clipped_frac"`
	// NoiseScale is s, the per-coordinate standard deviation of the privacy noise of this
	// iteration (0 for GIBO). With a fixed clip it is 2 clip sqrt(iters)/(n_users mu); with
	// adaptive clipping (config "adaptive") the clip column holds B_t of the iteration and
	// s follows it, with only part of mu spent on the gradients, so readers take s from
	// here. SNR = grad_norm/(noise_scale sqrt(d)).
	NoiseScale OptFloat `csv:"noise_scale"`
	// TrialsNonPrivate is the number of trials K that a private selection with a random
	// number of trials ran (dp-select-geometric, dp-select-negbin, dp-select-poisson,
	// dp-hypo; empty for every other method), whose iter and evals hold the budget, the mean
	// of K. It is NOT private: the selections' theorems cover the released theta only.
	// Files written before this column existed give K as iter and evals instead.
	TrialsNonPrivate OptFloat `csv:"trials_nonprivate"`
}

// OptFloat is an optional float64 column: an empty cell when absent. Present values are
// written as gocsv writes float64 (shortest 'f' decimal, "+Inf" for +Inf), so a CSV read
// and written again is byte-identical.
type OptFloat struct {
	Value float64
	Valid bool
}

// Some returns a present OptFloat holding v.
func Some(v float64) OptFloat { return OptFloat{Value: v, Valid: true} }

// MarshalCSV writes the value or an empty cell.
func (o OptFloat) MarshalCSV() (string, error) {
	if !o.Valid {
		return "", nil
	}
	return strconv.FormatFloat(o.Value, 'f', -1, 64), nil
}

// UnmarshalCSV reads what MarshalCSV writes; an empty cell is absent.
func (o *OptFloat) UnmarshalCSV(s string) error {
	if s == "" {
		*o = OptFloat{}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number: %q", s)
	}
	*o = Some(v)
	return nil
}

// ThetaRow is one coordinate of one released theta: the optimisation paths of fig3f. The
// required columns are those the drawing of a path needs: the figure, the run (method,
// seed), the point (iter) and the coordinate (coord, name, value); value must be finite.
type ThetaRow struct {
	Suite   string  `csv:"suite"`
	Figure  string  `csv:"figure" records:"required"`
	Task    string  `csv:"task"`
	Data    string  `csv:"data"`
	Method  string  `csv:"method" records:"required"`
	Private bool    `csv:"private"`
	Mu      float64 `csv:"mu"`
	D       int     `csv:"d"`
	Seed    int     `csv:"seed" records:"required"`
	Iter    int     `csv:"iter" records:"required"`
	Evals   int     `csv:"evals"`
	// Coord is the 0-based index of the coordinate in theta.
	Coord int `csv:"coord" records:"required"`
	// Name says what the coordinate is, e.g. "log C".
	Name string `csv:"name" records:"required"`
	// Value is theta[Coord].
	Value float64 `csv:"value" records:"required,finite"`
}

// FStar is the best-known optimum of one data setting of a run (OUT/fstar.csv): the smallest
// f(theta) = mean_i L(theta, x_i) found by long non-private searches, the reference of the
// figures' suboptimality f(theta) - f*. The setting columns match the figure CSVs' columns of
// the same names (n_train 0 is the task's default size). Every column but theta_source is
// required (a missing setting column would give one f* to settings that differ in it);
// f_star must be finite.
type FStar struct {
	Task   string `csv:"task" records:"required"`
	Data   string `csv:"data" records:"required"`
	D      int    `csv:"d" records:"required"`
	NUsers int    `csv:"n_users" records:"required"`
	NTrain int    `csv:"n_train" records:"required"`
	// FStar is f*, attained at a theta inside the task's box.
	FStar float64 `csv:"f_star" records:"required,finite"`
	// ThetaSource says how the theta attaining f* was found.
	ThetaSource string `csv:"theta_source"`
}

// Timing is the wall time of one run (one cell of the runner). DesignSeconds is everything
// the method did besides evaluating losses: TotalSeconds - SetupSeconds - EvalSeconds -
// ReportSeconds. No column is required: timings only describe costs, and a done record of
// the older format (CellDone) is a Timing alone.
type Timing struct {
	// Figures lists the figures that use the cell, separated by ';'.
	Figures string `csv:"figures"`
	// Cell is the cell's file name stem in the cells directory.
	Cell   string `csv:"cell"`
	Task   string `csv:"task"`
	Data   string `csv:"data"`
	Method string `csv:"method"`
	D      int    `csv:"d"`
	Config string `csv:"config"`
	Seed   int    `csv:"seed"`
	// Evals is the number of evaluations the method used.
	Evals int `csv:"evals"`
	// SetupSeconds is the time to build the task (data generation or loading).
	SetupSeconds float64 `csv:"setup_seconds"`
	// DesignSeconds is the method's own computation (surrogates, acquisition, steps).
	DesignSeconds float64 `csv:"design_seconds"`
	// EvalSeconds is the time spent in the method's calls of Losses.
	EvalSeconds float64 `csv:"eval_seconds"`
	// ReportSeconds is the time the runner spent computing the reported losses.
	ReportSeconds float64 `csv:"report_seconds"`
	// TotalSeconds is the wall time of the whole cell.
	TotalSeconds float64 `csv:"total_seconds"`
}

// InvocationsFile is the log of runner invocations committed beside the results: one
// Invocation per line, appended by whoever runs a figure (a manifest keeps only the last
// invocation of its figure).
const InvocationsFile = "invocations.csv"

// Invocation is one invocation of the runner for one figure (-only=NAME): the commit it was
// built from, when it started, how long it took and its exit status. No column is required
// (the log only describes costs).
type Invocation struct {
	Figure      string  `csv:"figure"`
	Commit      string  `csv:"commit"`
	Start       string  `csv:"start"`
	WallSeconds float64 `csv:"wall_seconds"`
	Exit        int     `csv:"exit"`
}

// Marshal writes rows (a slice of Row, ThetaRow or Timing) as CSV with a header line.
func Marshal[T any](rows []T) ([]byte, error) {
	var buf bytes.Buffer
	if len(rows) == 0 {
		// gocsv writes a header even for an empty slice; keep that behaviour explicit.
		rows = []T{}
	}
	if err := gocsv.Marshal(&rows, &buf); err != nil {
		return nil, fmt.Errorf("records: writing CSV: %w", err)
	}
	return buf.Bytes(), nil
}

// Unmarshal reads CSV with a header line into a slice of Row, ThetaRow or Timing (any
// record type), with the checks of the package comment; an error is a *fileError naming
// the line and the column, or the reader's own error.
func Unmarshal[T any](r io.Reader) ([]T, error) {
	return decode[T](r)
}

// ReadFile reads the CSV file at path into a slice of Row, ThetaRow or Timing (any record
// type); a path ending in .gz is read through gzip. A file that does not exist gives the
// error of os.Open (errors.Is(err, fs.ErrNotExist)); any other error is a *fileError naming
// the file.
func ReadFile[T any](path string) ([]T, error) {
	key, keep := keptKeyOf[T](path)
	if !keep {
		return readFile[T](path)
	}
	e := kept.entry(key)
	if e == nil {
		return readFile[T](path)
	}
	// One decoding per file and type, however many goroutines ask at once (parallel tests
	// reading the same folder wait for it rather than each decoding it).
	e.once.Do(func() { e.rows, e.err = readFile[T](path) })
	if e.err != nil {
		kept.drop(key, e)
		return nil, e.err
	}
	return slices.Clone(e.rows.([]T)), nil
}

// readFile is ReadFile without KeepDecoded.
func readFile[T any](path string) ([]T, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rows, err := decode[T](r)
	if err != nil {
		return nil, inFile(path, err)
	}
	return rows, nil
}

// KeepDecoded makes ReadFile keep every file it decodes, until stop is called, and return
// a copy of the kept rows when a file of the same bytes is read again as the same record
// type. It is for a process that reads the same files many times, as the tests that judge
// and render reproduction/ do; a command that reads each file once gains nothing and would
// hold every file in memory.
func KeepDecoded() (stop func()) {
	kept.Lock()
	kept.files = map[keptKey]*keptEntry{}
	kept.Unlock()
	return func() {
		kept.Lock()
		kept.files = nil
		kept.Unlock()
	}
}

// kept holds the files KeepDecoded keeps (nil files: none).
var kept keptFiles

type keptFiles struct {
	sync.Mutex
	files map[keptKey]*keptEntry
}

// keptEntry is one kept file: its rows (a []T), decoded once.
type keptEntry struct {
	once sync.Once
	rows any
	err  error
}

// keptKey is a file's content (its SHA-256) and the record type it was decoded as.
type keptKey struct {
	sum [sha256.Size]byte
	typ reflect.Type
}

// keptKeyOf is path's key for rows of type T, and whether files are being kept.
func keptKeyOf[T any](path string) (keptKey, bool) {
	kept.Lock()
	on := kept.files != nil
	kept.Unlock()
	if !on {
		return keptKey{}, false
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return keptKey{}, false
	}
	return keptKey{sum: sha256.Sum256(raw), typ: reflect.TypeFor[T]()}, true
}

// entry is key's entry, made when missing; nil when files are no longer kept.
func (k *keptFiles) entry(key keptKey) *keptEntry {
	k.Lock()
	defer k.Unlock()
	if k.files == nil {
		return nil
	}
	e, ok := k.files[key]
	if !ok {
		e = &keptEntry{}
		k.files[key] = e
	}
	return e
}

// drop forgets e, a file that did not decode, so that a later read tries again and names
// its own path.
func (k *keptFiles) drop(key keptKey, e *keptEntry) {
	k.Lock()
	defer k.Unlock()
	if k.files != nil && k.files[key] == e {
		delete(k.files, key)
	}
}

// Header returns the header of the CSV file at path (through gzip when path ends in .gz),
// with the errors of ReadFile.
func Header(path string) ([]string, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	header, err := csv.NewReader(r).Read()
	if err == io.EOF {
		return nil, &fileError{Path: path, Err: errors.New("empty file (no header line)")}
	}
	if err != nil {
		return nil, inFile(path, csvError(err, nil, nil))
	}
	return header, nil
}

// required returns the columns that a file of record type T must have, in the order of
// T's fields.
func required[T any]() []string {
	return schemaOf[T]().requiredNames()
}

// HasRequired reports whether header holds every required column of record type T, each
// once.
func HasRequired[T any](header []string) bool {
	_, err := schemaOf[T]().bind(header)
	return err == nil
}

// Open opens the file at path for reading, through gzip when path ends in .gz. A .gz file
// that is not gzip, or whose gzip stream is damaged, gives a *fileError naming the file
// (errNotGzip, errTruncated, errCorrupt), when opened or when read.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	fail := func(err error) (io.ReadCloser, error) {
		f.Close()
		return nil, &fileError{Path: path, Err: err}
	}
	b := bufio.NewReader(f)
	if magic, err := b.Peek(2); err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		if err != nil && err != io.EOF {
			return fail(err)
		}
		return fail(errNotGzip)
	}
	z, err := gzip.NewReader(b)
	if err != nil {
		return fail(gzipError(err))
	}
	return &gzipFile{z: z, f: f, path: path}, nil
}

// gzipFile reads through gzip, says what a gzip error means (gzipError) and names the file
// in it, and closes both the reader and the file.
type gzipFile struct {
	z    *gzip.Reader
	f    *os.File
	path string
}

func (g *gzipFile) Read(p []byte) (int, error) {
	n, err := g.z.Read(p)
	if err != nil && err != io.EOF {
		err = &fileError{Path: g.path, Err: gzipError(err)}
	}
	return n, err
}

func (g *gzipFile) Close() error {
	err := g.z.Close()
	if ferr := g.f.Close(); err == nil {
		err = ferr
	}
	return err
}

// FindCSV returns the path of dir/NAME.csv, or of dir/NAME.csv.gz when only the compressed
// file exists (committed raw data), and false when neither does.
func FindCSV(dir, name string) (string, bool) {
	for _, file := range []string{name + ".csv", name + ".csv.gz"} {
		path := filepath.Join(dir, file)
		if _, err := os.Stat(path); err == nil {
			return path, true
		}
	}
	return "", false
}

// CSVName returns the name NAME of a file NAME.csv or NAME.csv.gz, and false for any other
// file.
func CSVName(file string) (string, bool) {
	for _, ext := range []string{".csv", ".csv.gz"} {
		if name, ok := strings.CutSuffix(file, ext); ok {
			return name, true
		}
	}
	return "", false
}

// File is one output file: its name in the output directory and its bytes, computed before
// anything is written (WriteFiles).
type File struct {
	Name string
	Data []byte
}

// WriteFiles writes files into dir (which must exist), each atomically (WriteFileAtomic),
// and returns the paths written.
func WriteFiles(dir string, files []File) ([]string, error) {
	var written []string
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		if err := WriteFileAtomic(path, f.Data); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

// WriteFileAtomic writes data to path through a temporary file in the same directory and
// a rename, so that a reader (or a run resumed after a kill) sees either the old file or the
// complete new one, never a partial write. The data is synced before the rename.
func WriteFileAtomic(path string, data []byte) error {
	writes.RLock()
	defer writes.RUnlock()
	dir, base := filepath.Split(path)
	dir = cmp.Or(dir, ".")
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// ClaimsHistory is one row of reproduction/claims-history.csv: a claims hash of one figure
// (claims.Hash), the commit whose code declared it, the commit of the first results
// that recorded it in their manifest (empty while none has), the figure's first committed
// results, and whether the claims were declared before those first results or after.
type ClaimsHistory struct {
	Figure            string `csv:"figure" records:"required"`
	ClaimsHash        string `csv:"claims_hash" records:"required"`
	DeclaredCommit    string `csv:"declared_commit" records:"required"`
	ResultsCommit     string `csv:"results_commit"`
	FirstResultCommit string `csv:"first_result_commit"`
	Declared          string `csv:"declared" records:"required"`
}

// ClaimHistory is one row of reproduction/claim-history.csv (written by
// figures/claimshistory): one version of one claim, its own hash (claims.ClaimHash), the
// commit that declared it, whether that was before or after its figure's first committed
// results, and the claim that supersedes it (empty while it is the claim's current version).
type ClaimHistory struct {
	Claim          string `csv:"claim" records:"required"`
	Figure         string `csv:"figure" records:"required"`
	ClaimHash      string `csv:"claim_hash" records:"required"`
	DeclaredCommit string `csv:"declared_commit" records:"required"`
	Declared       string `csv:"declared" records:"required"`
	SupersededBy   string `csv:"superseded_by"`
	// SeedsRaised names a declared raise of the seeds of curves the claim reads, after its
	// figure's results (claims.SeedRaise): "FIGURE: FROM to TO seeds after results".
	SeedsRaised string `csv:"seeds_raised"`
}

// PowerRow is one row of the power table (reproduction/power/power.csv and plan.csv,
// written by figures/power): for a statement with a counted claim on Figure, the shares of
// bootstrap replicates at Seeds seeds in which it is reproduced and not reproduced.
type PowerRow struct {
	Figure      string `csv:"figure"`
	StatementID string `csv:"statement_id"`
	// Committed is the statement's verdict on the committed seeds; Seeds0 their number.
	Committed string `csv:"committed"`
	Seeds0    int    `csv:"seeds_committed"`
	Seeds     int    `csv:"seeds"`
	// PReproduced, PNotReproduced and PDecided are shares of Replicates bootstrap replicates.
	PReproduced    float64 `csv:"p_reproduced"`
	PNotReproduced float64 `csv:"p_not_reproduced"`
	PDecided       float64 `csv:"p_decided"`
	Replicates     int     `csv:"replicates"`
	// CellSeconds is what Seeds seeds of the whole figure cost at the committed timings'
	// mean cell-seconds per seed; ExtraCellSeconds what the seeds beyond the committed add.
	CellSeconds      float64 `csv:"cell_seconds"`
	ExtraCellSeconds float64 `csv:"extra_cell_seconds"`
}

// ReadTimings reads timings.csv and every timings-NAME.csv of dir, in file name order.
func ReadTimings(dir string) ([]Timing, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "timings*.csv"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Timing
	for _, p := range paths {
		rows, err := ReadFile[Timing](p)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}
