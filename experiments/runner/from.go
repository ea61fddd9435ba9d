package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

// committedFigure is what a folder of committed results holds of one figure of a plan: its
// CSV and manifest, and the committed timing of each of its cells that is a cell of the plan
// without a theta file (the theta is not in the CSV).
type committedFigure struct {
	csvPath, manifestPath string
	cells                 []committedCell
}

// committedCell is a cell of the plan (its index) with its committed timing.
type committedCell struct {
	index  int
	timing records.Timing
}

// committedCells returns, for each figure of p whose CSV (FIG.csv or FIG.csv.gz), timings
// (timings-FIG.csv) and manifest (manifest-FIG.json) are all in dir, its committed cells: those
// whose stem, which hashes everything that defines a cell, is a cell of p.
func committedCells(dir string, p *runPlan) ([]committedFigure, error) {
	index := map[string]int{}
	for i, stem := range p.Stems {
		index[stem] = i
	}
	var out []committedFigure
	for _, fig := range p.Figures {
		csvPath, ok := records.FindCSV(dir, fig.Name)
		if fig.Theta || !ok {
			continue
		}
		timingsPath := filepath.Join(dir, "timings-"+fig.Name+".csv")
		manifestPath := filepath.Join(dir, "manifest-"+fig.Name+".json")
		missing := false
		for _, f := range []string{timingsPath, manifestPath} {
			if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
				missing = true
			} else if err != nil {
				return nil, err
			}
		}
		if missing {
			continue
		}
		timings, err := records.ReadFile[records.Timing](timingsPath)
		if err != nil {
			return nil, err
		}
		f := committedFigure{csvPath: csvPath, manifestPath: manifestPath}
		for _, t := range timings {
			if i, ok := index[t.Cell]; ok && len(p.Cells[i].ThetaCoords) == 0 {
				f.cells = append(f.cells, committedCell{i, t})
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// unpackFrom writes, as finished cells of r, the cells of p that a folder of committed
// results holds (Options.From, committedCells): each with the rows of the figure CSV that
// have its task, data, method, d, config and seed, and a done record carrying the committed
// timing and the one BLAS backend the manifest names. A cell already finished in Out is left
// alone. It returns how many cells it wrote.
func (r *cellRunner) unpackFrom(dir string, p *runPlan) (int, error) {
	figs, err := committedCells(dir, p)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(r.cellsDir(), 0o755); err != nil {
		return 0, err
	}
	written := 0
	for _, fig := range figs {
		man, err := runinfo.Read(fig.manifestPath)
		if err != nil {
			return written, err
		}
		if len(man.CellBLAS) != 1 {
			return written, fmt.Errorf("-from: %s names %d BLAS backends for its cells; a cell's backend is then unknown", fig.manifestPath, len(man.CellBLAS))
		}
		rows, err := records.ReadFile[records.Row](fig.csvPath)
		if err != nil {
			return written, err
		}
		byRun := map[string][]records.Row{}
		for _, row := range rows {
			k := runKey(row.Task, row.Data, row.Method, row.D, row.Config, row.Seed)
			row.Figure, row.Config = "", ""
			byRun[k] = append(byRun[k], row)
		}
		for _, c := range fig.cells {
			t := c.timing
			if r.store().Done(t.Cell) {
				continue
			}
			cellRows := byRun[runKey(t.Task, t.Data, t.Method, t.D, t.Config, t.Seed)]
			if len(cellRows) == 0 {
				return written, fmt.Errorf("-from: %s has no rows for its cell %s", fig.csvPath, t.Cell)
			}
			t.Figures, t.Config = "", ""
			if err := r.store().Write(t.Cell, cellRows, nil, false, t, man.CellBLAS[0]); err != nil {
				return written, err
			}
			written++
		}
	}
	return written, nil
}

// fromFinished marks, for -plan, the cells of p that unpackFrom would take from dir.
func fromFinished(dir string, p *runPlan, finished []bool) error {
	figs, err := committedCells(dir, p)
	if err != nil {
		return err
	}
	for _, fig := range figs {
		for _, c := range fig.cells {
			finished[c.index] = true
		}
	}
	return nil
}

// runKey identifies one run's rows in a figure CSV.
func runKey(task, data, method string, d int, config string, seed int) string {
	return task + "\x00" + data + "\x00" + method + "\x00" + strconv.Itoa(d) + "\x00" + config + "\x00" + strconv.Itoa(seed)
}
