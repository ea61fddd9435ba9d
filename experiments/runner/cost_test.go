package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"dpgibo/experiments/estimate"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/progress"
	"dpgibo/internal/records"
	"dpgibo/reproduction"
)

// committedEstimates returns, per figure with committed timings, the estimated and the
// measured cell-seconds of its cells.
func committedEstimates(t *testing.T) map[string][2]float64 {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "reproduction", "timings-*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]float64{}
	for _, path := range paths {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "timings-"), ".csv")
		suite, source := suites.Paper, "stand-in"
		if b, err := os.ReadFile(filepath.Join("..", "..", "reproduction", "manifest-"+name+".json")); err == nil {
			var m runner.Manifest
			if json.Unmarshal(b, &m) == nil {
				if m.DataSource != "" {
					source = m.DataSource
				}
				if m.Suite != "" {
					suite = m.Suite
				}
			}
		}
		figs, err := suites.Figures(suite, name)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		p, err := runner.MakePlan(suite, figs, source)
		if err != nil {
			t.Fatal(err)
		}
		timings, err := records.ReadFile[records.Timing](path)
		if err != nil {
			t.Fatal(err)
		}
		if len(timings) != len(p.Cells) {
			t.Errorf("%s: %d timed cells, the code's figure has %d", path, len(timings), len(p.Cells))
			continue
		}
		if len(p.Cells) < 10 {
			// A figure of a few cells (fig3f: two runs, fig2b's seed 1) is too small a
			// sample of the cost model; its cells are checked with the figure they share.
			continue
		}
		var est, got float64
		for i := range p.Cells {
			est += runner.EstimatedCost(p, i)
			got += timings[i].TotalSeconds
		}
		out[name] = [2]float64{est, got}
	}
	if len(out) == 0 {
		t.Fatal("no committed timings under reproduction/")
	}
	return out
}

// The cost model (catalog.EvalSeconds and cost.go) estimates every figure of ten cells or
// more with committed timings within 1.5x of its measured cell-seconds.
func TestCostEstimateMatchesCommittedTimings(t *testing.T) {
	for name, v := range committedEstimates(t) {
		ratio := v[0] / v[1]
		t.Logf("%-12s estimated %8.1f s, measured %8.1f s, ratio %.2f", name, v[0], v[1], ratio)
		if ratio > 1.5 || ratio < 1/1.5 {
			t.Errorf("%s: estimated %.0f cell-seconds, measured %.0f: ratio %.2f outside [0.67, 1.5]", name, v[0], v[1], ratio)
		}
	}
}

func TestWallSecondsSchedulesLongestFirst(t *testing.T) {
	for _, tc := range []struct {
		costs   []float64
		workers int
		want    float64
	}{
		// Longest first, as the runner starts them: 3+2+2 on one worker, not the optimum 6.
		{[]float64{3, 3, 2, 2, 2}, 2, 7},
		{[]float64{10, 1, 1}, 2, 10},
		{[]float64{10, 1, 1}, 1, 12},
		{[]float64{1, 1}, 8, 1},
		{nil, 2, 0},
	} {
		if got := progress.WallSeconds(tc.costs, tc.workers); got != tc.want {
			t.Errorf("progress.WallSeconds(%v, %d) = %v, want %v", tc.costs, tc.workers, got, tc.want)
		}
	}
}

// -plan prints every figure with its cells and the total, touches no output directory, and
// marks the estimates uncalibrated unless the build uses OpenBLAS.
func TestPlanPrintsEveryFigureWithoutRunning(t *testing.T) {
	out := filepath.Join(t.TempDir(), "never")
	var stdout bytes.Buffer
	figs, _ := suites.Figures(suites.Paper, "")
	if err := runner.Run(context.Background(), runner.Options{Suite: suites.Paper, Figures: figs, Plan: true, Workers: 2, Out: out, Stdout: &stdout, Stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-plan created the output directory (%v)", err)
	}
	p, _ := runner.MakePlan(suites.Paper, figs, "stand-in")
	text := stdout.String()
	for fi, f := range figs {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f.Name) + `\s+` + strconv.Itoa(len(p.Uses[fi])) + `\s+\d+\s+\S+`).MatchString(text) {
			t.Errorf("no line for %s with %d cells in:\n%s", f.Name, len(p.Uses[fi]), text)
		}
	}
	if !regexp.MustCompile(`(?m)^total \(distinct cells\)\s+` + strconv.Itoa(len(p.Cells)) + `\s`).MatchString(text) {
		t.Errorf("no total of %d cells in:\n%s", len(p.Cells), text)
	}
	if got := strings.Contains(text, "uncalibrated"); got != !estimate.Calibrated(blasinfo.Backend()) {
		t.Errorf("backend %q: uncalibrated marked = %v:\n%s", blasinfo.Backend(), got, text)
	}
	for backend, want := range map[string]bool{"gonum": true, "openblas 0.3.21 core=Haswell": false} {
		var b bytes.Buffer
		if err := runner.PrintPlan(&b, suites.Paper, p, 2, backend); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\nBLAS "+backend+"\n") {
			t.Errorf("the plan does not name the backend %q:\n%s", backend, b.String())
		}
		if got := strings.Count(b.String(), "(uncalibrated)"); (got == len(figs)+1) != want || (got == 0) == want {
			t.Errorf("backend %q: %d lines marked uncalibrated, want all %v:\n%s", backend, got, want, b.String())
		}
	}
	// More workers never lengthen the estimated wall time; one worker takes the cell-seconds.
	costs := make([]float64, len(p.Cells))
	for i := range p.Cells {
		costs[i] = runner.EstimatedCost(p, i)
	}
	one, two := progress.WallSeconds(costs, 1), progress.WallSeconds(costs, 2)
	if math.Abs(one-floats.Sum(costs)) > 1e-6*one || !(two < one) || two < one/2-1e-6 {
		t.Errorf("wall time %v s at 1 worker, %v s at 2, cell-seconds %v", one, two, floats.Sum(costs))
	}
}

// The cost estimate orders the paper suite's cells as its measured timings do: the
// adaptive design with an overestimated noise std (hundreds of seconds) above SVR runs
// (about two minutes), these above a fixed-batch GP run, and group LASSO runs last.
func TestEstimatedCostOrdersThePaperCells(t *testing.T) {
	figs, _ := suites.Figures(suites.Paper, "")
	p, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	worst := map[string]float64{}
	for i, c := range p.Cells {
		key := c.Task + "/" + c.Method
		if c.BiasTol > 0 {
			key += "/adaptive-sigma=" + strconv.FormatFloat(float64(c.NoiseStd), 'g', -1, 64)
		}
		worst[key] = max(worst[key], runner.EstimatedCost(p, i))
	}
	// Measured (reproduction/timings-*.csv, OpenBLAS): an SVR DP-GIBO cell about 100 s or
	// more, the sigma = 1 adaptive cell of noise-misspec 46-64 s with the windowed design,
	// a group LASSO cell well under a second.
	order := []string{"svr/dpgibo", "gpreg/dpgibo/adaptive-sigma=1", "grouplasso/dpgibo"}
	for k := 1; k < len(order); k++ {
		if !(worst[order[k-1]] > worst[order[k]]) {
			t.Errorf("estimated cost of %s (%.3g s) not above %s (%.3g s)", order[k-1], worst[order[k-1]], order[k], worst[order[k]])
		}
	}
	if s := worst["gpreg/dpgibo/adaptive-sigma=1"]; s < 20 || s > 200 {
		t.Errorf("the sigma = 1 adaptive cell is estimated at %.3g s; measured 46-64 s", s)
	}
}

// -plan's cell-seconds (committed measurements where the cell was timed, the cost model
// elsewhere) are within 1.5x of every figure's cell-seconds in a full paper run on another
// machine (reproduction/bench/plan-check: a Zen 4 CPU with OpenBLAS's Cooperlake kernels,
// where the committed timings were taken with its Haswell kernels), fig3f's two cells
// included, and the cells of methods revised since the run left out.
func TestPlanMatchesARunOnAnotherMachine(t *testing.T) {
	path := filepath.Join("..", "..", "reproduction", "bench", "plan-check", "timings-run.csv.gz")
	run, err := records.ReadFile[records.Timing](path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range run {
		got[r.Cell] = r.TotalSeconds
	}
	figs, _ := suites.Figures(suites.Paper, "")
	p, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	// A cell of a method revised since (baselines.Info.Revision) is in the plan under
	// another stem; its time measured another computation and is left out of the ratios.
	inPlan, revised := 0, 0
	for i, stem := range p.Stems {
		if _, ok := got[stem]; ok {
			inPlan++
			continue
		}
		before := p.Cells[i]
		before.MethodRevision = 0
		if _, ok := got[before.Stem()]; ok && p.Cells[i].MethodRevision > 0 {
			inPlan++
			revised++
		}
	}
	t.Logf("%d of the run's cells are of methods revised since; left out", revised)
	if inPlan != len(got) {
		t.Fatalf("%d of the run's %d cells are cells of today's plan: the comparison would leave some out", inPlan, len(got))
	}
	for fi, f := range p.Figures {
		// The run had the suite's seeds of its day; figures given more seeds since are
		// compared on the cells it ran.
		var planned, measured float64
		for _, ref := range p.Uses[fi] {
			s, ok := got[p.Stems[ref.Cell]]
			if !ok {
				continue
			}
			seconds, _ := runner.CellCost(p, ref.Cell, p.Stems[ref.Cell])
			planned += seconds
			measured += s
		}
		if measured == 0 {
			continue // a figure added after the run
		}
		ratio := planned / measured
		t.Logf("%-14s planned %7.0f s, measured %7.0f s, ratio %.2f", f.Name, planned, measured, ratio)
		if ratio > 1.5 || ratio < 1/1.5 {
			t.Errorf("%s: planned %.0f cell-seconds, the run took %.0f: ratio %.2f outside [0.67, 1.5]", f.Name, planned, measured, ratio)
		}
	}
}

// A cell the committed reproduction timed costs its measured time; a cell of other settings
// (another stem) costs the model's estimate.
func TestCellCostPrefersMeasurements(t *testing.T) {
	times, err := reproduction.CellSeconds()
	if err != nil {
		t.Fatal(err)
	}
	figs, _ := suites.Figures(suites.Paper, "fig3f")
	p, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Cells {
		want, ok := times[p.Stems[i]]
		if !ok {
			t.Fatalf("fig3f's cell %s has no committed timing", p.Stems[i])
		}
		if got, measured := runner.CellCost(p, i, p.Stems[i]); !measured || got != want {
			t.Errorf("runner.CellCost(%s) = %v, %v; want the committed %v, true", p.Stems[i], got, measured, want)
		}
		if got, measured := runner.CellCost(p, i, p.Stems[i]+"-other"); measured || got != runner.EstimatedCost(p, i) {
			t.Errorf("the cost of an untimed stem = %v, %v; want the model's %v, false", got, measured, runner.EstimatedCost(p, i))
		}
	}
}

// -plan measures this machine's speed on one cell per task whose committed time is known,
// says what it ran and found, and scales the committed cell-seconds by it: fig1 (one task)
// by exactly the ratio it prints.
func TestPlanScalesByTheMeasuredSpeed(t *testing.T) {
	plan := func(measure bool) string {
		var stdout bytes.Buffer
		figs, _ := suites.Figures(suites.Paper, "fig1")
		o := runner.Options{Suite: suites.Paper, Figures: figs, Plan: true, MeasureSpeed: measure, Workers: 2, Stdout: &stdout, Stderr: io.Discard}
		if err := runner.Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return stdout.String()
	}
	seconds := func(text string) float64 {
		m := regexp.MustCompile(`(?m)^fig1\s+\d+\s+(\d+)\s`).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no fig1 line in:\n%s", text)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	committed := plan(false)
	scaled := plan(true)
	m := regexp.MustCompile(`(?m)^speed: 1 cells \(one per task\) took [\d.]+ s here against [\d.]+ s in the committed runs: ([\d.]+)x \(grouplasso [\d.]+x\)`).FindStringSubmatch(scaled)
	if m == nil {
		t.Fatalf("no speed line naming the one task's cell and its ratio:\n%s", scaled)
	}
	ratio, _ := strconv.ParseFloat(m[1], 64)
	// The ratio is printed to two decimals (at most 0.005 off the one applied) and the
	// cell-seconds to a whole second.
	if got, want := seconds(scaled), seconds(committed)*ratio; math.Abs(got-want) > 0.005*seconds(committed)+1 {
		t.Errorf("fig1's cell-seconds %v at speed %vx; the committed %v scaled is %v", got, ratio, seconds(committed), want)
	}
	if strings.Contains(scaled, "uncalibrated") {
		t.Errorf("a plan scaled by a measured speed is marked uncalibrated:\n%s", scaled)
	}
}
