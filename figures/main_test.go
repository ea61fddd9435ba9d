package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/internal/runinfo"
)

// copyInputs copies what fig3c is drawn and judged from out of reproduction/ into a
// temporary directory and returns it.
func copyInputs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"fig3c.csv.gz", "fstar.csv", "timings-fig3c.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "reproduction", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// editCSV applies f to every line of the CSV b (0 is the header), split into cells.
func editCSV(b []byte, f func(i int, cells []string) []string) []byte {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.Join(f(i, strings.Split(l, ",")), ",")
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// snapshot returns every file under dir with its bytes (nil when dir does not exist).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRunDrawsAndJudgesAGoodInput(t *testing.T) {
	in := copyInputs(t)
	out := filepath.Join(in, "figures")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-in", in, "-out", out, "-formats", "png"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	written := strings.Fields(stdout.String())
	for _, name := range []string{"fig3c.png", "fig3c-gap.png", "summary.csv", "comparisons.csv", "claims.csv", "statements.csv"} {
		if !slices.Contains(written, filepath.Join(out, name)) {
			t.Errorf("did not list %s: %v", name, written)
		}
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// A bad input is one line on stderr naming the file (and the line and column of a bad
// cell), exit status 1, and no file created or changed in -out, whether -out exists or not.
func TestRunRejectsBadInputsBeforeWriting(t *testing.T) {
	lossCol := func(header []string) int { return slices.Index(header, "loss") }
	var header []string
	cases := []struct {
		name string
		// file is the input file to replace and data its new bytes, made from the
		// committed fig3c.csv (decompressed) and its .gz bytes.
		file string
		data func(t *testing.T, csv, gz []byte) []byte
		want string // the error after "figures: " and the input directory
	}{
		{"garbage header", "fig3c.csv.gz", func(t *testing.T, csv, _ []byte) []byte {
			return gzipped(t, editCSV(csv, func(i int, c []string) []string {
				if i == 0 {
					for j := range c {
						c[j] = "c" + string(rune('a'+j))
					}
				}
				return c
			}))
		}, "fig3c.csv.gz: line 1: missing required columns figure, config, task, data, method, d, n_users, n_train, seed, iter, evals, loss"},
		{"no loss column", "fig3c.csv.gz", func(t *testing.T, csv, _ []byte) []byte {
			return gzipped(t, editCSV(csv, func(_ int, c []string) []string {
				return slices.Delete(c, lossCol(header), lossCol(header)+1)
			}))
		}, "fig3c.csv.gz: line 1: missing required column loss"},
		{"not gzip", "fig3c.csv.gz", func(_ *testing.T, csv, _ []byte) []byte { return csv },
			"fig3c.csv.gz: not a gzip file"},
		{"truncated gzip", "fig3c.csv.gz", func(_ *testing.T, _, gz []byte) []byte { return gz[:len(gz)/2] },
			"fig3c.csv.gz: truncated (gzip: unexpected EOF)"},
		{"NaN loss", "fig3c.csv.gz", func(t *testing.T, csv, _ []byte) []byte {
			return gzipped(t, editCSV(csv, func(i int, c []string) []string {
				if i == 16 {
					c[lossCol(header)] = "NaN"
				}
				return c
			}))
		}, `fig3c.csv.gz: line 17, column loss: "NaN" is not a finite number`},
		{"loss not a number", "fig3c.csv.gz", func(t *testing.T, csv, _ []byte) []byte {
			return gzipped(t, editCSV(csv, func(i int, c []string) []string {
				if i == 2000 {
					c[lossCol(header)] = "abc"
				}
				return c
			}))
		}, `fig3c.csv.gz: line 2001, column loss: "abc" is not a number`},
		{"f* not finite", "fstar.csv", func(_ *testing.T, _, _ []byte) []byte {
			b, _ := os.ReadFile(filepath.Join("..", "reproduction", "fstar.csv"))
			return editCSV(b, func(i int, c []string) []string {
				if i == 3 {
					c[5] = "+Inf"
				}
				return c
			})
		}, `fstar.csv: line 4, column f_star: "+Inf" is not a finite number`},
		// Inputs of the verdicts alone.
		{"bad timings", "timings-fig3c.csv", func(_ *testing.T, _, _ []byte) []byte {
			return []byte("figures,cell,total_seconds\nfig3c,c1,1.5\nfig3c,c2,soon\n")
		}, `verdicts: DIR/timings-fig3c.csv: line 3, column total_seconds: "soon" is not a number`},
		{"a figure CSV drawn by no figure", "fig9.csv", func(_ *testing.T, _, _ []byte) []byte {
			return []byte("figure,method,seed\nfig9,dpgibo,1\n")
		}, "verdicts: DIR/fig9.csv: line 1: missing required columns config, task, data, d, n_users, n_train, iter, evals, loss"},
	}
	gz, err := os.ReadFile(filepath.Join("..", "reproduction", "fig3c.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	csv := gunzip(t, gz)
	header = strings.Split(strings.SplitN(string(csv), "\n", 2)[0], ",")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := copyInputs(t)
			if err := os.WriteFile(filepath.Join(in, c.file), c.data(t, csv, gz), 0o644); err != nil {
				t.Fatal(err)
			}
			want := c.want
			if strings.Contains(want, "DIR/") {
				want = strings.Replace(want, "DIR/", in+string(filepath.Separator), 1)
			} else {
				want = filepath.Join(in, want)
			}
			// -out absent, and -out holding files of an earlier run.
			existing := filepath.Join(in, "old")
			os.MkdirAll(existing, 0o755)
			os.WriteFile(filepath.Join(existing, "fig3c.png"), []byte("an earlier figure"), 0o644)
			os.WriteFile(filepath.Join(existing, "summary.csv"), []byte("an earlier summary"), 0o644)
			for _, out := range []string{filepath.Join(in, "figures"), existing} {
				before := snapshot(t, out)
				var stdout, stderr bytes.Buffer
				code := run([]string{"-in", in, "-out", out}, &stdout, &stderr)
				if code != 1 {
					t.Errorf("exit %d, want 1", code)
				}
				if got := stderr.String(); got != "figures: "+want+"\n" {
					t.Errorf("stderr %q\n      want %q", got, "figures: "+want+"\n")
				}
				if stdout.Len() != 0 {
					t.Errorf("stdout %q", stdout.String())
				}
				after := snapshot(t, out)
				if len(after) != len(before) {
					t.Errorf("-out %s holds %d files, held %d", out, len(after), len(before))
				}
				for path, b := range before {
					if after[path] != b {
						t.Errorf("%s changed", path)
					}
				}
				if before == nil && after != nil {
					t.Errorf("-out %s was created", out)
				}
			}
		})
	}
}

func TestRunFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "-only") {
		t.Errorf("-h: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"-in", t.TempDir(), "extra"}, &stdout, &stderr); code != 1 || stderr.String() != "figures: unexpected argument \"extra\" (flags only; see -h)\n" {
		t.Errorf("an argument: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"-in", copyInputs(t), "-formats", "gif"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `unknown format "gif"`) {
		t.Errorf("-formats gif: exit %d, %q", code, stderr.String())
	}
}

// -version prints the build's description (runinfo.Version) on stdout, exit status 0, and
// reads and writes nothing else: -in is not looked at, -out not created.
func TestRunVersion(t *testing.T) {
	in := t.TempDir()
	out := filepath.Join(in, "figures")
	var stdout, stderr bytes.Buffer
	code := run([]string{"-in", filepath.Join(in, "absent"), "-out", out, "-version"}, &stdout, &stderr)
	if code != 0 || stdout.String() != runinfo.Version() || stderr.Len() != 0 {
		t.Errorf("-version: exit %d, stdout %q, stderr %q; want 0 and %q", code, stdout.String(), stderr.String(), runinfo.Version())
	}
	if !strings.Contains(stdout.String(), "\ncommit: ") || !strings.Contains(stdout.String(), "\nbuild tags: ") {
		t.Errorf("-version names no commit or build tags: %q", stdout.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-version created %s (%v)", out, err)
	}
}

// On the folder of an unfinished run (an interrupted one leaves its runinfo.Unfinished
// record and no figure CSV) the command names the unfinished figures and the command that
// completes them, in its one error line.
func TestRunNamesUnfinishedFigures(t *testing.T) {
	in := t.TempDir()
	u := runinfo.Unfinished{Suite: "paper", Figures: []string{"fig3c"}, Cells: 120, Finished: 17, Resume: "./run_all.sh -only=fig3c -resume"}
	b, _ := json.Marshal(u)
	if err := os.WriteFile(filepath.Join(in, runinfo.UnfinishedFile("fig3c")), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	status := run([]string{"-in", in, "-out", filepath.Join(in, "figures")}, &stdout, &stderr)
	msg := stderr.String()
	if status != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "fig3c (suite paper) unfinished, at least 17 of its 120 cells done") ||
		!strings.Contains(msg, "complete it with: ./run_all.sh -only=fig3c -resume") {
		t.Errorf("exit status %d, stderr %q; want 1 and one line naming fig3c and the command that completes it", status, msg)
	}
}
