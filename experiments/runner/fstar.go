package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"dpgibo/experiments/fstar"
	"dpgibo/internal/records"
)

// runSettings returns the distinct data settings of the figures of p that hold loss traces,
// in plan order, read from the first row of one cell of each.
func (r *cellRunner) runSettings(p *runPlan) ([]fstar.Setting, error) {
	type specKey struct {
		task, data, source string
		d, nTrain, nVal    int
		seed               uint64
	}
	seenSpec := map[specKey]bool{}
	seen := map[fstar.Setting]bool{}
	var out []fstar.Setting
	for fi, fig := range p.Figures {
		if fig.Theta {
			continue
		}
		for _, ref := range p.Uses[fi] {
			c := p.Cells[ref.Cell]
			k := specKey{c.Task, c.Data, c.DataSource, c.D, c.NTrain, c.NVal, c.DataSeed}
			if seenSpec[k] {
				continue
			}
			seenSpec[k] = true
			rows, err := records.ReadFile[records.Row](r.cellPath(p.Stems[ref.Cell], "rows"))
			if err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				return nil, fmt.Errorf("%s holds no rows", r.cellPath(p.Stems[ref.Cell], "rows"))
			}
			s := fstar.Setting{Task: c.Task, Data: rows[0].Data, D: c.D, NUsers: rows[0].NUsers, NTrain: rows[0].NTrain, DataSeed: c.DataSeed}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// writeFStar writes OUT/fstar.csv: one row per data setting of the run's figures that has a
// committed f*, in plan order, followed by the rows of an earlier fstar.csv in OUT for
// settings this run did not touch (an -only run keeps the full run's other settings). Settings
// without a committed f* are left out, with one warning line naming them.
func (r *cellRunner) writeFStar(p *runPlan) error {
	settings, err := r.runSettings(p)
	if err != nil {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	committed := fstar.BySetting()
	var rows []records.FStar
	var missing []string
	ran := map[[5]string]bool{}
	for _, s := range settings {
		ran[fstarRowKey(s.Task, s.Data, s.D, s.NUsers, s.NTrain)] = true
		e, ok := committed[s]
		if !ok {
			missing = append(missing, s.String())
			continue
		}
		rows = append(rows, records.FStar{Task: s.Task, Data: s.Data, D: s.D, NUsers: s.NUsers, NTrain: s.NTrain, FStar: e.FStar, ThetaSource: e.Source})
	}
	path := filepath.Join(r.Out, "fstar.csv")
	old, err := records.ReadFile[records.FStar](path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	for _, o := range old {
		if !ran[fstarRowKey(o.Task, o.Data, o.D, o.NUsers, o.NTrain)] {
			rows = append(rows, o)
		}
	}
	if len(missing) > 0 && r.Warnings != nil {
		fmt.Fprintf(r.Warnings, "warning: no committed f* for %d setting(s), left out of fstar.csv (their f_star is empty): %s; compute them with: go run ./experiments -suite=fstar\n",
			len(missing), strings.Join(missing, "; "))
	}
	data, err := records.Marshal(rows)
	if err != nil {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	return records.WriteFileAtomic(path, data)
}

func fstarRowKey(task, data string, d, users, nTrain int) [5]string {
	return [5]string{task, data, strconv.Itoa(d), strconv.Itoa(users), strconv.Itoa(nTrain)}
}
