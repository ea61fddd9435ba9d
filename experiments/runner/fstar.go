package runner

import (
	"fmt"
	"path/filepath"

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

// writeFStar writes OUT/fstar.csv for the data settings of the run's figures
// (fstar.WriteRunFile).
func (r *cellRunner) writeFStar(p *runPlan) error {
	settings, err := r.runSettings(p)
	if err != nil {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	return fstar.WriteRunFile(filepath.Join(r.Out, "fstar.csv"), settings, r.Warnings)
}
