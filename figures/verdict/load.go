package verdict

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"dpgibo/internal/records"
)

// Run is one run's final row, reduced to what the statistics need.
type Run struct {
	Seed  int
	Loss  float64 // final loss
	Evals int     // final evaluations
	// SNR and ClippedFrac are the run's mean over iterations of the privacy signal-to-noise
	// ratio grad_norm / (noise_scale sqrt(d)) and of the share of users clipped, from the
	// non-private diagnostic columns; NaN for runs without privacy noise or diagnostics.
	SNR, ClippedFrac float64
	// Start is the loss of the run's iteration-0 row (theta0, before any evaluation); NaN
	// for methods that report no iteration 0 (random search, UCB-BO, ...).
	Start float64
	// Trace is every reported (evals, loss) of the run in report order.
	Trace []tracePoint
}

// tracePoint is one reported iteration of a run.
type tracePoint struct {
	Evals int
	Loss  float64
}

// LossAt returns the loss of the theta the run had released at its last report with at most
// evals evaluations, and false when the run reported nothing by then.
func (r Run) LossAt(evals int) (float64, bool) {
	loss, ok := 0.0, false
	for _, p := range r.Trace {
		if p.Evals > evals {
			break
		}
		loss, ok = p.Loss, true
	}
	return loss, ok
}

// Curve is every run of one (figure, config, task, data, d, method), sorted by seed.
type Curve struct {
	Figure, Config, Task, Data, Method string
	D                                  int
	NUsers, NTrain                     int
	Runs                               []Run
}

// curveKey identifies a curve.
type curveKey struct {
	Figure, Config, Task, Data, Method string
	D                                  int
}

func (c *Curve) key() curveKey {
	return curveKey{c.Figure, c.Config, c.Task, c.Data, c.Method, c.D}
}

// Losses returns the final losses in seed order.
func (c *Curve) Losses() []float64 {
	out := make([]float64, len(c.Runs))
	for i, r := range c.Runs {
		out[i] = r.Loss
	}
	return out
}

// Curves groups rows into curves in order of first appearance (the runner's cell order),
// keeping each run's last row. A NaN or infinite final loss is an error naming the run.
func Curves(rows []records.Row) ([]*Curve, error) {
	var out []*Curve
	index := map[curveKey]*Curve{}
	last := map[curveKey]map[int]int{} // curve -> seed -> index in Runs
	type diag struct {
		snr, clipped float64
		n            int
	}
	diags := map[curveKey]map[int]*diag{}
	for _, r := range rows {
		k := curveKey{r.Figure, r.Config, r.Task, r.Data, r.Method, r.D}
		c, ok := index[k]
		if !ok {
			c = &Curve{Figure: r.Figure, Config: r.Config, Task: r.Task, Data: r.Data, Method: r.Method,
				D: r.D, NUsers: r.NUsers, NTrain: r.NTrain}
			index[k] = c
			last[k] = map[int]int{}
			diags[k] = map[int]*diag{}
			out = append(out, c)
		}
		if r.GradNorm.Valid && r.NoiseScale.Valid && r.NoiseScale.Value > 0 && r.ClippedFrac.Valid {
			g := diags[k][r.Seed]
			if g == nil {
				g = &diag{}
				diags[k][r.Seed] = g
			}
			g.snr += r.GradNorm.Value / (r.NoiseScale.Value * math.Sqrt(float64(r.D)))
			g.clipped += r.ClippedFrac.Value
			g.n++
		}
		point := tracePoint{Evals: r.Evals, Loss: r.Loss}
		if i, ok := last[k][r.Seed]; ok {
			prev := c.Runs[i]
			c.Runs[i] = Run{Seed: r.Seed, Loss: r.Loss, Evals: r.Evals, SNR: math.NaN(), ClippedFrac: math.NaN(),
				Start: prev.Start, Trace: append(prev.Trace, point)}
		} else {
			run := Run{Seed: r.Seed, Loss: r.Loss, Evals: r.Evals, SNR: math.NaN(), ClippedFrac: math.NaN(),
				Start: math.NaN(), Trace: []tracePoint{point}}
			if r.Iter == 0 {
				run.Start = r.Loss
			}
			last[k][r.Seed] = len(c.Runs)
			c.Runs = append(c.Runs, run)
		}
	}
	for _, c := range out {
		for i, r := range c.Runs {
			if g := diags[c.key()][r.Seed]; g != nil {
				c.Runs[i].SNR, c.Runs[i].ClippedFrac = g.snr/float64(g.n), g.clipped/float64(g.n)
			}
		}
		sort.Slice(c.Runs, func(i, j int) bool { return c.Runs[i].Seed < c.Runs[j].Seed })
		for _, r := range c.Runs {
			if math.IsNaN(r.Loss) || math.IsInf(r.Loss, 0) {
				return nil, fmt.Errorf("figure %s, %s %s d=%d, seed %d: final loss is %v",
					c.Figure, c.Method, c.Config, c.D, r.Seed, r.Loss)
			}
		}
	}
	return out, nil
}

type fstarKey struct {
	Task, Data        string
	D, NUsers, NTrain int
}

// FStarTable looks up f* by setting.
type FStarTable map[fstarKey]float64

// Set records f* of the setting of curve c (its task, data, d, users and n_train).
func (t FStarTable) Set(c *Curve, fstar float64) {
	t[fstarKey{c.Task, c.Data, c.D, c.NUsers, c.NTrain}] = fstar
}

// Lookup returns the f* of c's setting. A curve whose n_train is 0 (the task's default
// size) matches the one entry of its task, data, d and n_users whatever its n_train.
func (t FStarTable) Lookup(c *Curve) (float64, bool) {
	if v, ok := t[fstarKey{c.Task, c.Data, c.D, c.NUsers, c.NTrain}]; ok {
		return v, true
	}
	if c.NTrain != 0 {
		return 0, false
	}
	var found []float64
	for k, v := range t {
		if k.Task == c.Task && k.Data == c.Data && k.D == c.D && k.NUsers == c.NUsers {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		return 0, false
	}
	return found[0], true
}

// Results is everything read from one result directory.
type Results struct {
	// Figures lists the figure names found, sorted.
	Figures []string
	Curves  []*Curve
	FStar   FStarTable
	// Dir is the folder ReadDir read ("" for results built otherwise): its manifests give
	// the typed settings of the figures' blocks.
	Dir string
}

// figureCSV reports whether name is a figure CSV of the runner: not a file this package,
// the runner, the audit or the theory sweep writes beside them.
func figureCSV(file string) bool {
	name, ok := records.CSVName(file)
	if !ok {
		return false
	}
	switch name {
	case "summary", "comparisons", "claims", "statements", "fstar", "fstar-search", "design-equivalence", "defaults", "defaults-loo", "library-peers", "library-private", "library-private-rules", "low-snr", "low-snr-choice", "low-snr-candidates", "low-snr-rules", "low-snr-acceptance", "zo-pilot",
		"invocations", "audit", "theory", "theory_sweep", "claims-history", "claim-history", "power", "plan", "undecidable":
		return false
	}
	return !strings.HasPrefix(name, "timings")
}

// thetaPaths reports whether a figure CSV's header is that of theta paths
// (records.ThetaRow, e.g. fig3f.csv) rather than of loss traces.
func thetaPaths(header []string) bool {
	return records.HasRequired[records.ThetaRow](header) && !slices.Contains(header, "loss")
}

// ReadDir reads every figure CSV of dir, NAME.csv or NAME.csv.gz (loss traces; theta-path
// CSVs such as fig3f.csv are skipped), and dir/fstar.csv when present. A figure present both
// plain and compressed is an error, and so is a figure CSV that is not a good file of
// records.Row (records.ReadFile's error, naming the file and the line and column of a bad
// cell): a header without a required column such as loss, a number that does not parse, a
// loss that is not finite, a damaged .gz.
func ReadDir(dir string) (*Results, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	res := &Results{FStar: FStarTable{}, Dir: dir}
	for _, e := range entries {
		if e.IsDir() || !figureCSV(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		name, _ := records.CSVName(e.Name())
		if slices.Contains(res.Figures, name) {
			return nil, fmt.Errorf("%s: figure %s is in %s twice (NAME.csv and NAME.csv.gz)", dir, name, dir)
		}
		head, err := records.Header(path)
		if err != nil {
			return nil, err
		}
		if thetaPaths(head) {
			continue
		}
		rows, err := records.ReadFile[records.Row](path)
		if err != nil {
			return nil, err
		}
		curves, err := Curves(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(curves) == 0 {
			continue
		}
		res.Figures = append(res.Figures, name)
		res.Curves = append(res.Curves, curves...)
	}
	sort.Strings(res.Figures)
	fpath := filepath.Join(dir, "fstar.csv")
	stars, err := records.ReadFile[records.FStar](fpath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		for _, f := range stars {
			if math.IsNaN(f.FStar) || math.IsInf(f.FStar, 0) {
				return nil, fmt.Errorf("%s: f* of %s/%s d=%d is %v", fpath, f.Task, f.Data, f.D, f.FStar)
			}
			res.FStar[fstarKey{f.Task, f.Data, f.D, f.NUsers, f.NTrain}] = f.FStar
		}
	}
	return res, nil
}
