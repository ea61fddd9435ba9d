package records

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpgibo/internal/artefacts"
)

// sampleRows is a small figure CSV: a method with diagnostics and one without.
func sampleRows(t *testing.T) []byte {
	t.Helper()
	var rows []Row
	for it := range 4 {
		rows = append(rows, Row{Suite: "paper", Figure: "fig1", Task: "grouplasso", Data: "synthetic", Method: "random",
			D: 10, NUsers: 150, Mu: math.Inf(1), Seed: 1, Iter: it, Evals: 11 * it, Loss: 1 / float64(it+1),
			DPEpsilon: math.Inf(1)})
		rows = append(rows, Row{Suite: "paper", Figure: "fig1", Config: "mu=0.1", Task: "grouplasso", Data: "synthetic",
			Method: "dpgibo", Private: true, D: 10, NUsers: 150, Mu: 0.1, Seed: 1, Iter: it, Evals: 11 * it,
			Loss: 2 / float64(it+1), DPEpsilon: 0.5, GradNorm: Some(0.5), NoiseNorm: Some(math.Inf(1)),
			ClippedFrac: Some(0.25), NoiseScale: Some(0.1)})
	}
	b, err := Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// edit returns the CSV b with the cell of column col on line line (1-based, header = 1)
// set to value.
func edit(t *testing.T, b []byte, line int, col, value string) []byte {
	t.Helper()
	lines := strings.Split(string(b), "\n")
	j := slices.Index(strings.Split(lines[0], ","), col)
	if j < 0 {
		t.Fatalf("no column %s", col)
	}
	cells := strings.Split(lines[line-1], ",")
	cells[j] = value
	lines[line-1] = strings.Join(cells, ",")
	return []byte(strings.Join(lines, "\n"))
}

// dropColumn returns the CSV b without column col.
func dropColumn(t *testing.T, b []byte, col string) []byte {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	j := slices.Index(strings.Split(lines[0], ","), col)
	if j < 0 {
		t.Fatalf("no column %s", col)
	}
	for i, l := range lines {
		cells := strings.Split(l, ",")
		lines[i] = strings.Join(slices.Delete(cells, j, j+1), ",")
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func readErr(t *testing.T, name string, data []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile[Row](path)
	if err == nil {
		return nil
	}
	var fe *fileError
	if !errors.As(err, &fe) || fe.Path != path {
		t.Errorf("%s: error %v is not a fileError naming the file", name, err)
	}
	// Compare without the temporary directory.
	return errors.New(strings.ReplaceAll(err.Error(), filepath.Dir(path)+string(filepath.Separator), ""))
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRequiredColumns(t *testing.T) {
	for _, c := range []struct {
		got, want []string
	}{
		{required[Row](), []string{"figure", "config", "task", "data", "method", "d", "n_users", "n_train", "seed", "iter", "evals", "loss"}},
		{required[ThetaRow](), []string{"figure", "method", "seed", "iter", "coord", "name", "value"}},
		{required[FStar](), []string{"task", "data", "d", "n_users", "n_train", "f_star"}},
		{required[Timing](), nil},
		{required[CellDone](), nil},
		{required[Invocation](), nil},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("required columns %v, want %v", c.got, c.want)
		}
	}
	for _, s := range []*schema{schemaOf[Row](), schemaOf[ThetaRow](), schemaOf[FStar](), schemaOf[Timing](),
		schemaOf[CellDone](), schemaOf[Invocation]()} {
		if s.err != nil {
			t.Error(s.err)
		}
	}
	// CellDone has Timing's columns in place, then its own.
	if n := len(schemaOf[CellDone]().columns); n != len(schemaOf[Timing]().columns)+5 {
		t.Errorf("CellDone has %d columns", n)
	}
	type badTag struct {
		A float64 `csv:"a" records:"requried"`
	}
	type finiteInt struct {
		A int `csv:"a" records:"finite"`
	}
	if _, err := Unmarshal[badTag](strings.NewReader("a\n1\n")); err == nil || !strings.Contains(err.Error(), `unknown records option "requried"`) {
		t.Errorf("misspelt option: %v", err)
	}
	if _, err := Unmarshal[finiteInt](strings.NewReader("a\n1\n")); err == nil || !strings.Contains(err.Error(), "finite on a column that is not a float") {
		t.Errorf("finite int: %v", err)
	}
}

func TestHeaderIsCheckedAgainstTheType(t *testing.T) {
	good := sampleRows(t)
	header := strings.SplitN(string(good), "\n", 2)[0]
	garbage := strings.Repeat("x,", strings.Count(header, ","))
	for _, c := range []struct {
		name string
		data []byte
		want string // "" for no error
	}{
		{"garbage.csv", []byte(garbage + "x\n" + strings.SplitN(string(good), "\n", 2)[1]),
			"garbage.csv: line 1: missing required columns figure, config, task, data, method, d, n_users, n_train, seed, iter, evals, loss"},
		{"twiceunknown.csv", []byte(strings.Replace(string(good), "\n", ",x,x\n", 1)), "twiceunknown.csv: line 1: column x appears twice (columns 30 and 31)"},
		{"other.csv", []byte("a,b\n1,2\n"),
			"other.csv: line 1: missing required columns figure, config, task, data, method, d, n_users, n_train, seed, iter, evals, loss"},
		{"noloss.csv", dropColumn(t, good, "loss"), "noloss.csv: line 1: missing required column loss"},
		{"twice.csv", []byte(strings.Replace(string(good), "dp_epsilon", "loss", 1)),
			"twice.csv: line 1: column loss appears twice (columns 23 and 24)"},
		{"empty.csv", nil, "empty.csv: empty file (no header line)"},
		{"fields.csv", []byte(strings.Replace(string(good), ",+Inf,,,,,\n", ",+Inf,,,,\n", 2)),
			"fields.csv: line 2: 28 fields, the header has 29"},
		{"quote.csv", edit(t, good, 4, "config", `a"b`), `quote.csv: line 4: bare " in non-quoted-field`},
		// Added columns, optional columns missing, and a byte order mark are fine.
		{"extra.csv", []byte(strings.ReplaceAll(string(good), "\n", ",x\n")), ""},
		{"older.csv", dropColumn(t, dropColumn(t, dropColumn(t, good, "noise_scale"), "grad_norm"), "suite"), ""},
		{"bom.csv", append([]byte("\ufeff"), good...), ""},
	} {
		err := readErr(t, c.name, c.data)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: error %v\n want %s", c.name, err, c.want)
		}
	}
	rows, err := Unmarshal[Row](bytes.NewReader(dropColumn(t, good, "grad_norm")))
	if err != nil || len(rows) != 8 || rows[1].GradNorm.Valid || rows[1].NoiseScale != Some(0.1) || rows[1].Loss != 2 {
		t.Errorf("a file without grad_norm: %v %+v", err, rows)
	}
	if !HasRequired[Row](strings.Split(header, ",")) || HasRequired[ThetaRow](strings.Split(header, ",")) {
		t.Error("HasRequired: a Row header is not a Row's, or is a ThetaRow's")
	}
}

func TestCellErrorsNameLineAndColumn(t *testing.T) {
	good := sampleRows(t)
	twoBad := edit(t, edit(t, good, 3, "d", "ten"), 6, "loss", "NaN")
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"fig1.csv", edit(t, good, 7, "loss", "abc"), `fig1.csv: line 7, column loss: "abc" is not a number`},
		{"fig1.csv", edit(t, good, 7, "loss", "NaN"), `fig1.csv: line 7, column loss: "NaN" is not a finite number`},
		{"fig1.csv", edit(t, good, 2, "loss", "-Inf"), `fig1.csv: line 2, column loss: "-Inf" is not a finite number`},
		{"fig1.csv", edit(t, good, 9, "loss", ""), `fig1.csv: line 9, column loss: "" is not a number`},
		{"fig1.csv", edit(t, good, 5, "seed", " "), `fig1.csv: line 5, column seed: " " is not an integer`},
		{"fig1.csv", edit(t, good, 5, "iter", "x"), `fig1.csv: line 5, column iter: "x" is not an integer`},
		{"fig1.csv", edit(t, good, 8, "noise_norm", "big"), `fig1.csv: line 8, column noise_norm: "big" is not a number`},
		{"fig1.csv", edit(t, good, 8, "private", "maybe"), `fig1.csv: line 8, column private: "maybe" is not true or false`},
		// The first bad cell in file order, whichever check finds it.
		{"fig1.csv", twoBad, `fig1.csv: line 3, column d: "ten" is not an integer`},
		{"fig1.csv", edit(t, edit(t, good, 3, "d", "ten"), 2, "loss", "NaN"), `fig1.csv: line 2, column loss: "NaN" is not a finite number`},
		{"fig1.csv", edit(t, edit(t, good, 4, "d", "ten"), 4, "loss", "NaN"), `fig1.csv: line 4, column d: "ten" is not an integer`},
		// A quoted cell over two lines (3 and 4): lines count in the file, not in records.
		{"fig1.csv", edit(t, edit(t, good, 3, "config", "\"a\nb\""), 5, "loss", "x"), `fig1.csv: line 5, column loss: "x" is not a number`},
	} {
		err := readErr(t, c.name, c.data)
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v\n   want %s", err, c.want)
		}
	}
	// Empty optional cells, infinite mu and diagnostics are values, not errors.
	rows, err := Unmarshal[Row](bytes.NewReader(edit(t, good, 3, "budget", "")))
	if err != nil || !math.IsInf(rows[0].Mu, 1) || !math.IsInf(rows[1].NoiseNorm.Value, 1) || rows[0].GradNorm.Valid {
		t.Errorf("optional cells: %v", err)
	}
	// Unmarshal gives the same error without a path.
	_, err = Unmarshal[Row](bytes.NewReader(twoBad))
	if err == nil || err.Error() != `line 3, column d: "ten" is not an integer` {
		t.Errorf("Unmarshal: %v", err)
	}
	theta := "suite,figure,task,data,method,private,mu,d,seed,iter,evals,coord,name,value\n" +
		"q,fig3f,svr,ctslice,dpgibo,true,1,103,1,0,0,101,log C,0.5\nq,fig3f,svr,ctslice,dpgibo,true,1,103,1,0,0,102,log g,+Inf\n"
	if _, err := Unmarshal[ThetaRow](strings.NewReader(theta)); err == nil || err.Error() != `line 3, column value: "+Inf" is not a finite number` {
		t.Errorf("theta value +Inf: %v", err)
	}
	fstar := "task,data,d,n_users,n_train,f_star,theta_source\ngpreg,synthetic,15,350,0,NaN,search\n"
	if _, err := Unmarshal[FStar](strings.NewReader(fstar)); err == nil || err.Error() != `line 2, column f_star: "NaN" is not a finite number` {
		t.Errorf("f* NaN: %v", err)
	}
}

func TestGzipErrorsNameTheFile(t *testing.T) {
	good := sampleRows(t)
	z := gz(t, good)
	corrupt := bytes.Clone(z)
	corrupt[len(corrupt)-6] ^= 0xff // the checksum
	for _, c := range []struct {
		data []byte
		want string
	}{
		{good, "fig3c.csv.gz: not a gzip file"},
		{[]byte("x"), "fig3c.csv.gz: not a gzip file"},
		{nil, "fig3c.csv.gz: not a gzip file"},
		{z[:len(z)/2], "fig3c.csv.gz: truncated (gzip: unexpected EOF)"},
		{z[:5], "fig3c.csv.gz: truncated (gzip: unexpected EOF)"},
		{z[:len(z)-4], "fig3c.csv.gz: truncated (gzip: unexpected EOF)"},
		{corrupt, "fig3c.csv.gz: corrupt (gzip: invalid checksum)"},
		{append(bytes.Clone(z), "junk after the stream"...), "fig3c.csv.gz: corrupt (gzip: invalid header)"},
		{gz(t, edit(t, good, 9, "loss", "abc")), `fig3c.csv.gz: line 9, column loss: "abc" is not a number`},
	} {
		err := readErr(t, "fig3c.csv.gz", c.data)
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v\n   want %s", err, c.want)
		}
	}
	if err := readErr(t, "fig3c.csv.gz", z); err != nil {
		t.Errorf("a good .csv.gz: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "h.csv.gz"), z, 0o644)
	if h, err := Header(filepath.Join(dir, "h.csv.gz")); err != nil || h[0] != "suite" || h[len(h)-1] != "trials_nonprivate" {
		t.Errorf("Header: %v %v", h, err)
	}
	os.WriteFile(filepath.Join(dir, "n.csv.gz"), good, 0o644)
	if _, err := Header(filepath.Join(dir, "n.csv.gz")); err == nil || !strings.HasSuffix(err.Error(), "n.csv.gz: not a gzip file") {
		t.Errorf("Header of a file that is not gzip: %v", err)
	}
	if _, err := ReadFile[Row](filepath.Join(dir, "absent.csv.gz")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent file: %v, want fs.ErrNotExist", err)
	}
}

// Every committed record file under reproduction/ reads with the checks, as the type the
// figures and the runner read it as.
func TestCommittedRecordFilesRead(t *testing.T) {
	artefacts.Check(t)
	root := filepath.Join("..", "..", "reproduction")
	// Written by the verdicts and the studies (their types are in figures/verdict and
	// figures/studies, which read them in their own tests) and by the audit and the theory
	// sweep (never read through this package). The power tables (power/) are figures/power's,
	// the low-SNR study's are figures/studies', dp-zo's pilot table experiments/zopilot's.
	notRecords := []string{"summary", "comparisons", "claims", "statements", "design-equivalence", "defaults", "defaults-loo", "library-peers", "library-private", "library-private-rules",
		"low-snr", "low-snr-choice", "low-snr-candidates", "low-snr-rules", "low-snr-acceptance", "zo-pilot", "audit", "theory", "power", "plan", "undecidable"}
	counts := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name, ok := CSVName(d.Name())
		if !ok || slices.Contains(notRecords, name) {
			return nil
		}
		var n int
		switch {
		case name == "fstar":
			rows, err := ReadFile[FStar](path)
			n, counts["fstar"] = len(rows), counts["fstar"]+1
			if err != nil {
				return err
			}
		case strings.HasPrefix(name, "timings"):
			rows, err := ReadFile[Timing](path)
			n, counts["timings"] = len(rows), counts["timings"]+1
			if err != nil {
				return err
			}
		case name == "claims-history":
			rows, err := ReadFile[ClaimsHistory](path)
			n, counts["claims-history"] = len(rows), counts["claims-history"]+1
			if err != nil {
				return err
			}
		case name == "claim-history":
			rows, err := ReadFile[ClaimHistory](path)
			n, counts["claim-history"] = len(rows), counts["claim-history"]+1
			if err != nil {
				return err
			}
		case name == "invocations":
			rows, err := ReadFile[Invocation](path)
			n, counts["invocations"] = len(rows), counts["invocations"]+1
			if err != nil {
				return err
			}
		case strings.HasSuffix(name, "fig3f"):
			rows, err := ReadFile[ThetaRow](path)
			n, counts["theta"] = len(rows), counts["theta"]+1
			if err != nil {
				return err
			}
		default:
			// A figure CSV: its header and first rows here; every row of every one is
			// decoded and judged by figures/readme's artefact tests, which judge every
			// committed folder (a 25-second decode not done twice).
			rows, err := readHead[Row](path, 500)
			n, counts["figure"] = len(rows), counts["figure"]+1
			if err != nil {
				return err
			}
		}
		if n == 0 {
			t.Errorf("%s: no rows", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// reproduction/ holds figure CSVs (plain and .gz) in five folders, f* in five, theta
	// paths of fig3f in two.
	if counts["figure"] < 30 || counts["fstar"] < 5 || counts["timings"] < 30 || counts["invocations"] < 4 || counts["theta"] < 3 || counts["claims-history"] != 1 ||
		counts["claim-history"] != 1 {
		t.Errorf("read %v: fewer committed files than expected", counts)
	}
}

// readHead decodes the header and the first lines (at most lines) of the record file at path.
func readHead[T any](path string, lines int) ([]T, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head bytes.Buffer
	r := bufio.NewReader(f)
	for i := 0; i <= lines; i++ {
		line, err := r.ReadBytes('\n')
		head.Write(line)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, inFile(path, err)
		}
	}
	rows, err := decode[T](&head)
	if err != nil {
		return nil, inFile(path, err)
	}
	return rows, nil
}
