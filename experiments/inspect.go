package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"dpgibo/data"
	"dpgibo/internal/records"
	"dpgibo/internal/testhook"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// runInspect builds the task described by spec and inspects it:
//
//   - with dumpDir non-empty it writes dumpDir/train.csv and dumpDir/val.csv (creating
//     dumpDir), each with a header row x1,...,xp,y and one row per example, exactly the
//     arrays the task uses (after its standardisation), every number printed so that it
//     parses back to the same float64; each file is written to a temporary file in dumpDir
//     and renamed into place, so a reader never sees a partial file;
//   - with evalTheta non-empty (comma-separated values, one per hyperparameter) it writes
//     the per-user losses at that theta to w as CSV: a header row user,loss, then one row
//     per validation user, users numbered from 0.
//
// When the task runs on the SVR stand-in, one warning line naming it and the fetch command
// goes to warn (nil: none), never to w.
//
// A wrong number of values, an unparsable or out-of-box value, or an unknown task is an
// error saying which.
func runInspect(w, warn io.Writer, spec catalog.Spec, dumpDir, evalTheta string) error {
	if dumpDir == "" && evalTheta == "" {
		return errors.New("inspect: nothing to do: give a directory to dump the data to or a theta to evaluate")
	}
	var theta []float64
	if evalTheta != "" {
		var err error
		if theta, err = inspectParseTheta(evalTheta); err != nil {
			return usageError{err}
		}
	}
	task, err := catalog.New(spec)
	if err != nil {
		var limit *tasks.LimitError
		if errors.As(err, &limit) {
			return usagef("-d=%d: %v", spec.D, limit)
		}
		return fmt.Errorf("inspect: %w", err)
	}
	if task.DataLabel() == "ctslice-synthetic" && warn != nil {
		line := data.StandInWarning
		if t, ok := task.(interface{ Warning() string }); ok && t.Warning() != "" {
			line = t.Warning()
		}
		fmt.Fprintln(warn, line)
	}
	if dumpDir != "" {
		if err := inspectDumpData(task, dumpDir); err != nil {
			return err
		}
	}
	if theta != nil {
		if err := inspectWriteLosses(w, task, theta); err != nil {
			return err
		}
	}
	return nil
}

// inspectParseTheta parses comma-separated float64 values.
func inspectParseTheta(s string) ([]float64, error) {
	parts := strings.Split(s, ",")
	theta := make([]float64, len(parts))
	for j, part := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil, fmt.Errorf("inspect: theta value %d (%q) is not a number", j+1, part)
		}
		theta[j] = v
	}
	return theta, nil
}

// inspectWriteLosses evaluates task at theta and writes user,loss rows to w.
func inspectWriteLosses(w io.Writer, task tasks.Task, theta []float64) error {
	if len(theta) != task.Dim() {
		return usagef("inspect: task %s has d = %d hyperparameters, got %d theta values", task.Name(), task.Dim(), len(theta))
	}
	lo, hi := task.Bounds()
	if err := tasks.CheckTheta(task.Name(), theta, lo, hi); err != nil {
		return usagef("inspect: %w", err)
	}
	losses := make([]float64, task.Users())
	testhook.Hold()
	if err := task.Losses(theta, losses); err != nil {
		return fmt.Errorf("inspect: %w", err)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"user", "loss"}); err != nil {
		return fmt.Errorf("inspect: writing losses: %w", err)
	}
	for i, loss := range losses {
		if err := cw.Write([]string{strconv.Itoa(i), strconv.FormatFloat(loss, 'g', -1, 64)}); err != nil {
			return fmt.Errorf("inspect: writing losses: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("inspect: writing losses: %w", err)
	}
	return nil
}

// inspectDumpData writes the task's splits to dir/train.csv and dir/val.csv.
func inspectDumpData(task tasks.Task, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("inspect: %w", err)
	}
	train, val := task.Data()
	for _, split := range []struct {
		file string
		data tasks.Dataset
	}{{"train.csv", train}, {"val.csv", val}} {
		if err := inspectWriteCSV(filepath.Join(dir, split.file), split.data); err != nil {
			return fmt.Errorf("inspect: task %s: %w", task.Name(), err)
		}
	}
	return nil
}

// inspectWriteCSV writes ds with header x1,...,xp,y to path atomically
// (records.WriteFileAtomic).
func inspectWriteCSV(path string, ds tasks.Dataset) error {
	rows, cols := ds.X.Dims()
	if len(ds.Y) != rows {
		return fmt.Errorf("%s: %d feature rows but %d targets", path, rows, len(ds.Y))
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	record := make([]string, cols+1)
	for j := 0; j < cols; j++ {
		record[j] = "x" + strconv.Itoa(j+1)
	}
	record[cols] = "y"
	if err := cw.Write(record); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	for i := 0; i < rows; i++ {
		for j, v := range ds.X.RawRowView(i) {
			record[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		record[cols] = strconv.FormatFloat(ds.Y[i], 'g', -1, 64)
		if err := cw.Write(record); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return records.WriteFileAtomic(path, buf.Bytes())
}
