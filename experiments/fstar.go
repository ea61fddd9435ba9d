package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"dpgibo/experiments/optimum"
	"dpgibo/internal/records"
)

// suiteFStar recomputes the committed best-known optima (see runFStarSearch).
const suiteFStar = "fstar"

// fstarSetting is one data setting of the figures: everything that fixes the function
// f(theta) = mean_i L(theta, x_i). Task, Data, D, NUsers and NTrain are the figure CSVs'
// columns of the same names (NTrain 0 is the task's default size); DataSeed is the block's.
type fstarSetting struct {
	Task     string
	Data     string
	D        int
	NUsers   int
	NTrain   int
	DataSeed uint64
}

func (s fstarSetting) String() string {
	return fmt.Sprintf("%s on %s, d = %d, %d users, n_train = %d, data seed %d", s.Task, s.Data, s.D, s.NUsers, s.NTrain, s.DataSeed)
}

// fstarEntry is one committed best-known optimum: f* = f(Theta), found as Source says.
type fstarEntry struct {
	fstarSetting
	FStar  float64
	Source string
	Theta  []float64
}

// committedFStarBySetting indexes committedFStar (experiments/fstar_table.go).
func committedFStarBySetting() map[fstarSetting]fstarEntry {
	m := make(map[fstarSetting]fstarEntry, len(committedFStar))
	for _, e := range committedFStar {
		m[e.fstarSetting] = e
	}
	return m
}

// runSettings returns the distinct data settings of the figures of p that hold loss traces,
// in plan order, read from the first row of one cell of each.
func (r *cellRunner) runSettings(p *plan) ([]fstarSetting, error) {
	type specKey struct {
		task, data, source string
		d, nTrain, nVal    int
		seed               uint64
	}
	seenSpec := map[specKey]bool{}
	seen := map[fstarSetting]bool{}
	var out []fstarSetting
	for fi, fig := range p.figures {
		if fig.Theta {
			continue
		}
		for _, ref := range p.uses[fi] {
			c := p.cells[ref.cell]
			k := specKey{c.Task, c.Data, c.DataSource, c.D, c.NTrain, c.NVal, c.DataSeed}
			if seenSpec[k] {
				continue
			}
			seenSpec[k] = true
			rows, err := records.ReadFile[records.Row](r.cellPath(p.stems[ref.cell], "rows"))
			if err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				return nil, fmt.Errorf("%s holds no rows", r.cellPath(p.stems[ref.cell], "rows"))
			}
			s := fstarSetting{Task: c.Task, Data: rows[0].Data, D: c.D, NUsers: rows[0].NUsers, NTrain: rows[0].NTrain, DataSeed: c.DataSeed}
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
func (r *cellRunner) writeFStar(p *plan) error {
	settings, err := r.runSettings(p)
	if err != nil {
		return fmt.Errorf("fstar.csv: %w", err)
	}
	committed := committedFStarBySetting()
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

// fstarTarget is one setting to search and how to build its task.
type fstarTarget struct {
	setting fstarSetting
	spec    taskSpec
}

// fstarTargets returns the distinct data settings of the paper, private, peers and quick
// suites, restricted, when only is not empty, to the figures of that name or to the suite of
// that name (paper, private, peers or quick), building each task once to learn its data
// label and number of users.
func fstarTargets(only, ctslice string, newTask taskFactory) ([]fstarTarget, error) {
	suites := map[string][]figureSpec{SuitePaper: paperFigures(), SuitePrivate: privateFigures(), SuitePeers: peersFigures(),
		SuiteQuick: quickFigures(), SuiteDesign: designFigures()}
	var figs []figureSpec
	for _, name := range []string{SuitePaper, SuitePrivate, SuitePeers, SuiteQuick, SuiteDesign} {
		for _, f := range suites[name] {
			if only == "" || only == name || f.Name == only {
				figs = append(figs, f)
			}
		}
	}
	if len(figs) == 0 {
		return nil, fmt.Errorf("unknown figure %q for -suite=%s (a figure of the paper, private, peers or quick suite, or one of those suites)", only, suiteFStar)
	}
	seenSpec := map[taskSpec]bool{}
	seen := map[fstarSetting]bool{}
	var out []fstarTarget
	for _, f := range figs {
		if f.Theta {
			continue
		}
		for _, b := range f.Blocks {
			for _, d := range b.Dims {
				spec := taskSpec{Name: b.Task, D: d, Seed: b.DataSeed, NTrain: b.NTrain, NVal: b.NVal, Data: b.Data}
				if b.Task == "svr" && b.Data == "" {
					spec.CTSlice = ctslice
				}
				if seenSpec[spec] {
					continue
				}
				seenSpec[spec] = true
				task, err := newTask(spec)
				if err != nil {
					return nil, fmt.Errorf("figure %s, %s d = %d: %w", f.Name, b.Task, d, err)
				}
				s := fstarSetting{Task: b.Task, Data: task.DataLabel(), D: d, NUsers: task.Users(), NTrain: b.NTrain, DataSeed: b.DataSeed}
				if !seen[s] {
					seen[s] = true
					out = append(out, fstarTarget{setting: s, spec: spec})
				}
			}
		}
	}
	return out, nil
}

// fstarBudget is the search budget of a setting, set by the cost of one evaluation (measured
// on this machine: group LASSO 0.2-9 ms, GP regression with 1000 training points 0.11 s, SVR
// d = 103 0.1-0.3 s). Cheap settings (group LASSO, every quick-suite size) get three starts
// on the box's diagonal and 8 uniform starts, 100 (d + 1) evaluations each with central
// differences, up to 10 sweeps of a 25-point coordinate grid and a Nelder-Mead polish (at
// group LASSO d = 20, L-BFGS alone stalled at 0.08699 and the grid and polish reached
// 0.08667); GP regression with >= 300 training points the box centre, the data-generating
// length-scales and two uniform starts, 60 (d + 1) evaluations each with forward
// differences, two sweeps of a 13-point grid and a short polish; SVR at d = 103 random
// search over 10 (d + 1) uniform points (random search's budget in fig2b), then 20 (d + 1)
// evaluations of L-BFGS from its best point with forward differences of step 0.01 (the SMO
// solution is exact only to its tolerance), no polish. (ctslice-sample's committed 0.0013091
// came from the box centre and one uniform start, before the screening was added.)
func fstarBudget(s fstarSetting) optimum.Config {
	d := s.D
	switch {
	case s.Task == "gpreg" && (s.NTrain == 0 || s.NTrain >= 300):
		return optimum.Config{BoxStarts: []float64{0.5}, RandomStarts: 2, StartEvals: 60 * (d + 1),
			GridSweeps: 2, GridPoints: 13, PolishEvals: 10 * (d + 1)}
	case s.Task == "svr" && d > 20:
		return optimum.Config{Screen: 10 * (d + 1), BoxStarts: []float64{}, RandomStarts: -1, StartEvals: 20 * (d + 1), PolishEvals: -1, Step: 0.01}
	case s.Task == "svr":
		return optimum.Config{RandomStarts: 8, StartEvals: 100 * (d + 1), Central: true, Step: 0.01, GridSweeps: 10}
	}
	return optimum.Config{RandomStarts: 8, StartEvals: 100 * (d + 1), Central: true, GridSweeps: 10}
}

// runFStarSearch recomputes best-known optima: for every data setting of the paper, private
// and quick suites (or of the figure or suite -only), a long non-private search (package optimum, budget
// fstarBudget) started also from the committed theta and, for GP regression, from the
// data-generating length-scales. Each setting keeps the lower of its committed and new f*.
// After each setting it writes OUT/fstar_table.go (every committed entry with the new ones:
// copy it to experiments/fstar_table.go to commit the values) and OUT/fstar-search.csv.
func runFStarSearch(ctx context.Context, o runOptions) error {
	targets, err := fstarTargets(o.Only, o.CTSlice, o.NewTask)
	if err != nil {
		return usageError{err}
	}
	table := committedFStarBySetting()
	var found []records.FStar
	for i, tg := range targets {
		task, err := o.NewTask(tg.spec)
		if err != nil {
			return err
		}
		cfg := fstarBudget(tg.setting)
		cfg.Seed = tg.setting.DataSeed
		old, haveOld := table[tg.setting]
		if haveOld {
			cfg.Starts = append(cfg.Starts, optimum.Start{Name: "committed theta", Theta: old.Theta})
		}
		if tt, ok := task.(interface{ TrueTheta() []float64 }); ok {
			cfg.Starts = append(cfg.Starts, optimum.Start{Name: "true length-scales", Theta: tt.TrueTheta()})
		}
		if !o.Quiet {
			cfg.Log = func(format string, args ...any) {
				fmt.Fprintf(o.Stderr, "  "+format+"\n", args...)
			}
			fmt.Fprintf(o.Stderr, "f* %d/%d: %s\n", i+1, len(targets), tg.setting)
		}
		start := time.Now()
		res, err := optimum.Search(ctx, task, cfg)
		if err != nil {
			return fmt.Errorf("f* of %s: %w", tg.setting, err)
		}
		e := fstarEntry{fstarSetting: tg.setting, FStar: res.F, Theta: res.Theta,
			Source: res.Describe(cfg) + fmt.Sprintf(" (%s)", time.Since(start).Round(time.Second))}
		if haveOld && old.FStar <= res.F {
			e = old
		}
		table[tg.setting] = e
		if !o.Quiet {
			fmt.Fprintf(o.Stderr, "  f* = %.10g (committed: %v) in %s\n", res.F, describeOld(old, haveOld), time.Since(start).Round(time.Second))
		}
		s := e.fstarSetting
		found = append(found, records.FStar{Task: s.Task, Data: s.Data, D: s.D, NUsers: s.NUsers, NTrain: s.NTrain, FStar: e.FStar, ThetaSource: e.Source})
		if err := writeFStarTable(filepath.Join(o.Out, "fstar_table.go"), table); err != nil {
			return err
		}
		data, err := records.Marshal(found)
		if err != nil {
			return err
		}
		if err := records.WriteFileAtomic(filepath.Join(o.Out, "fstar-search.csv"), data); err != nil {
			return err
		}
	}
	if !o.Quiet {
		fmt.Fprintf(o.Stderr, "wrote %s: copy it to experiments/fstar_table.go to commit the values\n", filepath.Join(o.Out, "fstar_table.go"))
	}
	return nil
}

func describeOld(e fstarEntry, ok bool) string {
	if !ok {
		return "none"
	}
	return strconv.FormatFloat(e.FStar, 'g', 10, 64)
}

// writeFStarTable writes the Go source of committedFStar holding every entry of table, in a
// fixed order, every float in its shortest exact form.
func writeFStarTable(path string, table map[fstarSetting]fstarEntry) error {
	entries := make([]fstarEntry, 0, len(table))
	for _, e := range table {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b fstarEntry) int {
		return strings.Compare(fstarSortKey(a.fstarSetting), fstarSortKey(b.fstarSetting))
	})
	var buf bytes.Buffer
	buf.WriteString("// Code generated by \"go run ./experiments -suite=fstar\"; DO NOT EDIT.\n\n")
	buf.WriteString("package main\n\n")
	buf.WriteString("// committedFStar holds the best-known optimum f* of every data setting of the paper,\n")
	buf.WriteString("// private and quick suites, with the theta attaining it and how it was found.\n")
	buf.WriteString("var committedFStar = []fstarEntry{\n")
	for _, e := range entries {
		s := e.fstarSetting
		fmt.Fprintf(&buf, "\t{fstarSetting: fstarSetting{Task: %q, Data: %q, D: %d, NUsers: %d, NTrain: %d, DataSeed: %d},\n",
			s.Task, s.Data, s.D, s.NUsers, s.NTrain, s.DataSeed)
		fmt.Fprintf(&buf, "\t\tFStar: %s,\n\t\tSource: %q,\n\t\tTheta: []float64{", formatFloat(e.FStar), e.Source)
		for j, v := range e.Theta {
			if j > 0 {
				buf.WriteString(", ")
			}
			buf.WriteString(formatFloat(v))
		}
		buf.WriteString("}},\n")
	}
	buf.WriteString("}\n")
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return fmt.Errorf("formatting the f* table: %w", err)
	}
	return records.WriteFileAtomic(path, src)
}

func fstarSortKey(s fstarSetting) string {
	return fmt.Sprintf("%s|%s|%05d|%08d|%08d|%d", s.Task, s.Data, s.D, s.NUsers, s.NTrain, s.DataSeed)
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
