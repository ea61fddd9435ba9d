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

// unpackFrom writes, as finished cells of r, the cells of p that a folder of committed
// results holds (Options.From): for each figure of p, its CSV (FIG.csv.gz or FIG.csv), its
// timings (timings-FIG.csv) and its manifest (manifest-FIG.json). A cell is taken when its
// stem, which hashes everything that defines it, is a cell of p, and its rows are those of
// the CSV with its task, data, method, d, config and seed; the done record carries the
// committed timing and the one BLAS backend the manifest names. A cell already finished in
// Out is left alone, as is a figure with a theta file (the theta is not in the CSV), and a
// figure whose files are not all in dir. It returns how many cells it wrote.
func (r *cellRunner) unpackFrom(dir string, p *runPlan) (int, error) {
	index := map[string]int{}
	for i, stem := range p.Stems {
		index[stem] = i
	}
	if err := os.MkdirAll(r.cellsDir(), 0o755); err != nil {
		return 0, err
	}
	written := 0
	for _, fig := range p.Figures {
		if fig.Theta {
			continue
		}
		csvPath, timingsPath, manifestPath, ok, err := fromFiles(dir, fig.Name)
		if err != nil {
			return written, err
		}
		if !ok {
			continue
		}
		man, err := runinfo.Read(manifestPath)
		if err != nil {
			return written, err
		}
		if len(man.CellBLAS) != 1 {
			return written, fmt.Errorf("-from: %s names %d BLAS backends for its cells; a cell's backend is then unknown", manifestPath, len(man.CellBLAS))
		}
		timings, err := records.ReadFile[records.Timing](timingsPath)
		if err != nil {
			return written, err
		}
		rows, err := records.ReadFile[records.Row](csvPath)
		if err != nil {
			return written, err
		}
		byRun := map[string][]records.Row{}
		for _, row := range rows {
			k := runKey(row.Task, row.Data, row.Method, row.D, row.Config, row.Seed)
			row.Figure, row.Config = "", ""
			byRun[k] = append(byRun[k], row)
		}
		for _, t := range timings {
			i, ok := index[t.Cell]
			if !ok || r.store().Done(t.Cell) {
				continue
			}
			cellRows := byRun[runKey(t.Task, t.Data, t.Method, t.D, t.Config, t.Seed)]
			if len(cellRows) == 0 {
				return written, fmt.Errorf("-from: %s has no rows for cell %s of %s", csvPath, t.Cell, timingsPath)
			}
			if len(p.Cells[i].ThetaCoords) > 0 {
				continue
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

// fromFiles returns the paths of figure name's CSV, timings and manifest in dir, and whether
// all three are there.
func fromFiles(dir, name string) (csvPath, timingsPath, manifestPath string, ok bool, err error) {
	csvPath = filepath.Join(dir, name+".csv.gz")
	if _, err := os.Stat(csvPath); errors.Is(err, fs.ErrNotExist) {
		csvPath = filepath.Join(dir, name+".csv")
	}
	timingsPath = filepath.Join(dir, "timings-"+name+".csv")
	manifestPath = filepath.Join(dir, "manifest-"+name+".json")
	for _, f := range []string{csvPath, timingsPath, manifestPath} {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			return "", "", "", false, nil
		} else if err != nil {
			return "", "", "", false, err
		}
	}
	return csvPath, timingsPath, manifestPath, true, nil
}

// fromFinished marks, for -plan, the cells of p that unpackFrom would take from dir.
func fromFinished(dir string, p *runPlan, finished []bool) error {
	index := map[string]int{}
	for i, stem := range p.Stems {
		index[stem] = i
	}
	for _, fig := range p.Figures {
		if fig.Theta {
			continue
		}
		_, timingsPath, _, ok, err := fromFiles(dir, fig.Name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		timings, err := records.ReadFile[records.Timing](timingsPath)
		if err != nil {
			return err
		}
		for _, t := range timings {
			if i, ok := index[t.Cell]; ok && len(p.Cells[i].ThetaCoords) == 0 {
				finished[i] = true
			}
		}
	}
	return nil
}

// runKey identifies one run's rows in a figure CSV.
func runKey(task, data, method string, d int, config string, seed int) string {
	return task + "\x00" + data + "\x00" + method + "\x00" + strconv.Itoa(d) + "\x00" + config + "\x00" + strconv.Itoa(seed)
}
