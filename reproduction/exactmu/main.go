// Command exactmu rewrites the mu column of committed result files whose DP-GIBO rows
// recorded the composition of the parts a run split its mu into (0.9999999999999999 for a
// mu of 1 under adaptive clipping and calibration), from before the ledger reported the mu it
// was given. It changes that column only, and checks it:
//
//   - a row's new mu is its recorded mu rounded to 12 significant digits, within 1e-12 of it
//     (relative), and its epsilon at delta 1e-5 is the dp_epsilon the row already reports;
//   - every other byte of the decompressed file is unchanged (each changed line, with the
//     old mu put back, is the old line);
//   - rows of other methods, and rows whose mu is already that rounding, are left alone.
//
// It prints, per file, how many rows it rewrote, and exits 1 without writing anything if any
// check fails.
//
//	go run ./reproduction/exactmu -method=dpgibo reproduction/fig2a-clip.csv.gz reproduction/defaults/*-*.csv.gz
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"dpgibo/accounting"
)

func main() {
	method := flag.String("method", "", "the method whose rows' mu to rewrite (the registry name in the method column; required)")
	flag.Parse()
	if flag.NArg() < 1 || *method == "" {
		fmt.Fprintln(os.Stderr, "usage: exactmu -method=NAME FILE.csv.gz ...")
		os.Exit(2)
	}
	rewritten := make(map[string][]byte)
	for _, path := range flag.Args() {
		out, n, err := rewrite(path, *method)
		if err != nil {
			fmt.Fprintf(os.Stderr, "exactmu: %s: %v\n", path, err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d rows' mu rewritten\n", path, n)
		if n > 0 {
			rewritten[path] = out
		}
	}
	for path, out := range rewritten {
		if err := os.WriteFile(path, out, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "exactmu: %v\n", err)
			os.Exit(1)
		}
	}
}

// rewrite returns the gzip-compressed file with the mu column of method's rows set to the mu
// each was given, and the number of rows changed.
func rewrite(path, method string) ([]byte, int, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	z, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, 0, err
	}
	text, err := io.ReadAll(z)
	if err != nil {
		return nil, 0, err
	}
	lines := strings.SplitAfter(string(text), "\n")
	header, err := fields(lines[0])
	if err != nil {
		return nil, 0, err
	}
	muCol, methodCol, epsCol := slices.Index(header, "mu"), slices.Index(header, "method"), slices.Index(header, "dp_epsilon")
	if muCol < 0 || methodCol < 0 || epsCol < 0 {
		return nil, 0, errors.New("no mu, method or dp_epsilon column")
	}
	changed := 0
	for i := 1; i < len(lines); i++ {
		if lines[i] == "" {
			continue
		}
		row, err := fields(lines[i])
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %v", i+1, err)
		}
		if row[methodCol] != method {
			continue
		}
		old := row[muCol]
		given, ok, err := givenMu(old, row[epsCol])
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %v", i+1, err)
		}
		if !ok {
			continue
		}
		line, err := replaceField(lines[i], row, muCol, given)
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %v", i+1, err)
		}
		if back, _ := replaceField(line, replaced(row, muCol, given), muCol, old); back != lines[i] {
			return nil, 0, fmt.Errorf("line %d: rewriting mu would change another byte", i+1)
		}
		lines[i] = line
		changed++
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := io.WriteString(w, strings.Join(lines, "")); err != nil {
		return nil, 0, err
	}
	if err := w.Close(); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), changed, nil
}

// givenMu returns the mu a row recorded as recorded (its parts' composition) was given: its
// rounding to 12 significant digits, when that differs from it by at most 1e-12 (relative)
// and has the row's epsilon. ok is false when the recorded mu is already that rounding (or
// not finite).
func givenMu(recorded, epsilon string) (given string, ok bool, err error) {
	mu, err := strconv.ParseFloat(recorded, 64)
	if err != nil || math.IsInf(mu, 0) || math.IsNaN(mu) {
		return "", false, err
	}
	rounded, _ := strconv.ParseFloat(strconv.FormatFloat(mu, 'g', 12, 64), 64)
	given = strconv.FormatFloat(rounded, 'g', -1, 64)
	if given == recorded {
		return "", false, nil
	}
	if math.Abs(rounded-mu) > 1e-12*rounded {
		return "", false, fmt.Errorf("mu %s is not a split of a 12-digit mu", recorded)
	}
	eps, err := accounting.EpsilonForDelta(rounded, accounting.DefaultDelta)
	if err != nil {
		return "", false, err
	}
	if got := strconv.FormatFloat(eps, 'g', -1, 64); got != epsilon {
		return "", false, fmt.Errorf("mu %s read as %s has epsilon %s, the row says %s", recorded, given, got, epsilon)
	}
	return given, true, nil
}

// fields parses one CSV line.
func fields(line string) ([]string, error) {
	return csv.NewReader(strings.NewReader(line)).Read()
}

// replaced returns a copy of row with row[col] = value.
func replaced(row []string, col int, value string) []string {
	out := slices.Clone(row)
	out[col] = value
	return out
}

// replaceField returns line with its field col set to value, an unquoted field as row
// gives it: the line's bytes before and after that field are kept as they are.
func replaceField(line string, row []string, col int, value string) (string, error) {
	start := 0
	for range col {
		if strings.HasPrefix(line[start:], "\"") {
			// A quoted field ends at a quote not doubled.
			j := start + 1
			for {
				k := strings.IndexByte(line[j:], '"')
				if k < 0 {
					return "", errors.New("unterminated quoted field")
				}
				j += k + 1
				if !strings.HasPrefix(line[j:], "\"") {
					break
				}
				j++
			}
			start = j
		} else if k := strings.IndexByte(line[start:], ','); k >= 0 {
			start += k
		} else {
			return "", errors.New("fewer fields than the header")
		}
		if !strings.HasPrefix(line[start:], ",") {
			return "", errors.New("a field does not end at a comma")
		}
		start++
	}
	end := start + len(row[col])
	if end > len(line) || line[start:end] != row[col] {
		return "", errors.New("mu field not where the CSV reader put it")
	}
	return line[:start] + value + line[end:], nil
}
