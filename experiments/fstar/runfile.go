package fstar

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"dpgibo/internal/records"
)

// WriteRunFile writes a run's fstar.csv at path: one row per data setting of the run
// (settings, in the run's order) that has a committed f*, followed by the rows of an earlier
// file at path for settings the run did not touch (an -only run keeps the full run's other
// settings). Settings without a committed f* are left out, with one warning line to warn
// (nil: none) naming them.
func WriteRunFile(path string, settings []Setting, warn io.Writer) error {
	committed := BySetting()
	var rows []records.FStar
	var missing []string
	ran := map[rowKey]bool{}
	for _, s := range settings {
		ran[rowKey{s.Task, s.Data, s.D, s.NUsers, s.NTrain}] = true
		e, ok := committed[s]
		if !ok {
			missing = append(missing, s.String())
			continue
		}
		rows = append(rows, records.FStar{Task: s.Task, Data: s.Data, D: s.D, NUsers: s.NUsers, NTrain: s.NTrain, FStar: e.FStar, ThetaSource: e.Source})
	}
	old, err := records.ReadFile[records.FStar](path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	for _, o := range old {
		if !ran[rowKey{o.Task, o.Data, o.D, o.NUsers, o.NTrain}] {
			rows = append(rows, o)
		}
	}
	if len(missing) > 0 && warn != nil {
		fmt.Fprintf(warn, "warning: no committed f* for %d setting(s), left out of fstar.csv (their f_star is empty): %s; compute them with: go run ./experiments -suite=fstar\n",
			len(missing), strings.Join(missing, "; "))
	}
	data, err := records.Marshal(rows)
	if err != nil {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	return records.WriteFileAtomic(path, data)
}

// rowKey is what tells two rows of fstar.csv apart.
type rowKey struct {
	task, data        string
	d, nUsers, nTrain int
}
