package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

// committedFigure is what a folder of committed results holds of one committed figure: its
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

// committedCells returns the committed cells of p that dir holds, by figure: every cell of
// p (by its stem, which hashes everything that defines a cell) that a timings file of dir
// (timings-FIG.csv, timings.csv) lists with the figure it was computed for, whose CSV
// (FIG.csv or FIG.csv.gz) and manifest (manifest-FIG.json, else manifest.json) are in dir
// too, so that a new figure reuses the cells of any committed one. Cells with a theta file
// are left out (the theta is not in the CSV).
func committedCells(dir string, p *runPlan) ([]committedFigure, error) {
	index := map[string]int{}
	for i, stem := range p.Stems {
		index[stem] = i
	}
	files, err := filepath.Glob(filepath.Join(dir, "timings*.csv"))
	if err != nil {
		return nil, err
	}
	byFigure := map[string]int{}
	taken := map[int]bool{}
	var out []committedFigure
	for _, file := range files {
		timings, err := records.ReadFile[records.Timing](file)
		if err != nil {
			return nil, err
		}
		for _, t := range timings {
			i, ok := index[t.Cell]
			if !ok || taken[i] || len(p.Cells[i].ThetaCoords) > 0 {
				continue
			}
			fig, _, _ := strings.Cut(t.Figures, ";")
			k, seen := byFigure[fig]
			if !seen {
				f, ok, err := committedFigureFiles(dir, fig)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
				k = len(out)
				byFigure[fig] = k
				out = append(out, f)
			}
			taken[i] = true
			out[k].cells = append(out[k].cells, committedCell{i, t})
		}
	}
	return out, nil
}

// committedFigureFiles finds figure fig's CSV and manifest in dir; ok is false when either
// is missing.
func committedFigureFiles(dir, fig string) (committedFigure, bool, error) {
	csvPath, ok := records.FindCSV(dir, fig)
	if !ok {
		return committedFigure{}, false, nil
	}
	for _, name := range []string{"manifest-" + fig + ".json", "manifest.json"} {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return committedFigure{}, false, err
		}
		return committedFigure{csvPath: csvPath, manifestPath: path}, true, nil
	}
	return committedFigure{}, false, nil
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
