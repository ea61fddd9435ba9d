package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/figures/claims"
	"dpgibo/figures/plotting"
	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/records"
)

// quickOptions runs the figures of the quick suite (the command adds its audit and theory
// sweep; these tests do not) into out.
func quickOptions(out string, workers int) runner.Options {
	return runner.Options{Suite: suites.Quick, Out: out, Workers: workers, Quiet: true, Stderr: io.Discard}
}

// runSuite runs o's suite (its Only figure alone when set), or o.Figures when set.
func runSuite(ctx context.Context, o runner.Options) error {
	if o.Figures == nil {
		figs, err := suites.Figures(o.Suite, o.Only)
		if err != nil {
			return err
		}
		o.Figures = figs
	}
	return runner.Run(ctx, o)
}

func TestMain(m *testing.M) {
	blasinfo.PrepareTests()
	code := m.Run()
	for _, r := range []*sharedRun{&quickRef, &engineRef} {
		if r.dir != "" {
			os.RemoveAll(r.dir)
		}
	}
	os.Exit(code)
}

// sharedRun is a run made once per test process into a folder of its own and shared by the
// tests that compare against it.
type sharedRun struct {
	once sync.Once
	dir  string
	err  error
}

// get makes the run on first use (o's Out set to its folder) and returns its folder.
func (r *sharedRun) get(t *testing.T, what string, o runner.Options) string {
	t.Helper()
	r.once.Do(func() {
		if r.dir, r.err = os.MkdirTemp("", "dpgibo-ref-"); r.err == nil {
			o.Out = r.dir
			r.err = runSuite(context.Background(), o)
		}
	})
	if r.err != nil {
		t.Fatalf("%s: %v", what, r.err)
	}
	return r.dir
}

// quickRef and engineRef are the quick suite's and the engine's figures' shared runs.
var quickRef, engineRef sharedRun

// reference is one uninterrupted, unsharded quick-suite run, shared by the tests that
// compare against it, which are artefact checks (artefacts.Check: they skip unless
// DPGIBO_ARTEFACTS=1). It runs on two workers (the bytes do not depend on the number,
// TestWorkersGiveIdenticalBytes) and renders the figures, which they read.
func reference(t *testing.T) string {
	t.Helper()
	// The reference is the whole quick suite: its tests are artefact checks.
	artefacts.Check(t)
	o := quickOptions("", 2)
	o.Render = true
	return quickRef.get(t, "reference quick run", o)
}

// engineSuite names the engine tests' own figures (engineFigures), which exercise what the
// invariance tests need in a few seconds: two figures sharing cells, a sweep that one
// method reads and another does not, a local method and a private selection, a cell
// recording theta.
const engineSuite = "engine-test"

func engineFigures() []runner.Figure {
	algoCfg := algocfg.Config{Iters: 3, Clip: 2, Mu: 1, NoiseStd: 0.1, Step: 0.2, Lengthscale: 0.5}
	return []runner.Figure{
		{Name: "e1", Blocks: []runner.Block{{Task: "bowl", Dims: []int{2, 3}, NVal: 16, DataSeed: 7,
			Methods: []string{"dpgibo", "random", "dp-rnm"}, Seeds: 3, Algo: algoCfg, ThetaCoords: []int{0}}}},
		{Name: "e2", Blocks: []runner.Block{{Task: "bowl", Dims: []int{2}, NVal: 16, DataSeed: 7,
			Methods: []string{"dpgibo", "random"}, Seeds: 3, Algo: algoCfg, Sweep: "mu", Values: []runner.Num{0.5, 1}}}},
	}
}

// engineOptions runs the engine's own figures into out.
func engineOptions(out string, workers int) runner.Options {
	return runner.Options{Suite: engineSuite, Figures: engineFigures(), Out: out, Workers: workers, Quiet: true, Stderr: io.Discard}
}

// engineReference is one uninterrupted, unsharded run of the engine's own figures on two
// workers, shared by the invariance tests.
func engineReference(t *testing.T) string {
	t.Helper()
	return engineRef.get(t, "reference run of the engine's figures", engineOptions("", 2))
}

// resultFiles reads every result CSV of a run (timings.csv holds wall times and is left
// out).
func resultFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		if filepath.Base(p) == "timings.csv" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// sameResults fails unless dir holds exactly the result files of ref, a run of figs, byte
// for byte.
func sameResults(t *testing.T, ref, dir string, figs []runner.Figure) {
	t.Helper()
	want, got := resultFiles(t, ref), resultFiles(t, dir)
	if len(want) != len(figs)+len(verdict.Files)+1 {
		t.Fatalf("reference holds %d result CSVs, want one per figure (%d), fstar.csv and the verdict files %v", len(want), len(figs), verdict.Files)
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s is missing", name)
		case !bytes.Equal(g, w):
			t.Errorf("%s differs from the reference run (%d vs %d bytes)", name, len(g), len(w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected result file %s", name)
		}
	}
}

// sameAsEngineReference fails unless dir holds exactly the engine reference's result files.
func sameAsEngineReference(t *testing.T, dir string) {
	t.Helper()
	sameResults(t, engineReference(t), dir, engineFigures())
}

// evaluationLimit is the most evaluations r's method may use: its budget, or for a
// selection with a random number of trials (mean the budget) the cap of its plan at the
// row's mu and currency (read from its config label).
func evaluationLimit(t *testing.T, r records.Row) int {
	t.Helper()
	opt := registry.Options{Mu: math.Inf(1)}
	for _, part := range strings.Split(r.Config, ",") {
		switch k, v, _ := strings.Cut(part, "="); k {
		case "mu":
			mu, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("config %q: %v", r.Config, err)
			}
			opt.Mu = mu
		case "currency":
			opt.Currency = selection.CurrencyGDP
		}
	}
	m, err := registry.New(r.Method, opt)
	if err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Config, err)
	}
	limit := r.Budget
	if c, ok := m.(baselines.EvaluationCapper); ok {
		if limit, err = c.EvaluationCap(nil, r.Budget); err != nil {
			t.Fatalf("%s %s: %v", r.Method, r.Config, err)
		}
	}
	return limit
}

func TestQuickSuiteWritesEveryFigure(t *testing.T) {
	artefacts.Check(t) // it compares with the quick suite's reference run
	dir := reference(t)
	figs, _ := suites.Figures(suites.Quick, "")
	for _, f := range figs {
		if f.Theta {
			rows, err := records.ReadFile[records.ThetaRow](filepath.Join(dir, f.Name+".csv"))
			if err != nil || len(rows) == 0 {
				t.Errorf("%s: %d theta rows, %v", f.Name, len(rows), err)
			}
			continue
		}
		rows, err := records.ReadFile[records.Row](filepath.Join(dir, f.Name+".csv"))
		if err != nil || len(rows) == 0 {
			t.Errorf("%s: %d rows, %v", f.Name, len(rows), err)
			continue
		}
		methods := map[string]bool{}
		for _, r := range rows {
			methods[r.Method] = true
			if r.Figure != f.Name || r.Suite != suites.Quick {
				t.Fatalf("%s: row labelled figure %q suite %q", f.Name, r.Figure, r.Suite)
			}
			if limit := evaluationLimit(t, r); r.Evals > limit {
				t.Errorf("%s: %s used %d evaluations over its limit %d (budget %d)", f.Name, r.Method, r.Evals, limit, r.Budget)
			}
			if r.Private != (r.Method == "dpgibo" && !math.IsInf(r.Mu, 1) || strings.HasPrefix(r.Method, "dp-")) {
				t.Errorf("%s: method %s mu %v has private = %v", f.Name, r.Method, r.Mu, r.Private)
			}
			checkDiagnostics(t, f.Name, r)
		}
		for _, b := range f.Blocks {
			for _, m := range b.Methods {
				if !methods[m] {
					t.Errorf("%s: no rows of method %s", f.Name, m)
				}
			}
		}
		for _, format := range plotting.Formats {
			if !artefacts.Requested() {
				break // the reference run rendered nothing
			}
			if st, err := os.Stat(filepath.Join(dir, "figures", f.Name+"."+format)); err != nil || st.Size() == 0 {
				t.Errorf("%s.%s not rendered: %v", f.Name, format, err)
			}
		}
	}
	timings, err := records.ReadFile[records.Timing](filepath.Join(dir, "timings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := runner.MakePlan(suites.Quick, figs, "stand-in")
	if len(timings) != len(p.Cells) {
		t.Errorf("timings.csv has %d rows, want one per cell (%d)", len(timings), len(p.Cells))
	}
	for _, tm := range timings {
		if tm.TotalSeconds < tm.EvalSeconds || tm.DesignSeconds < 0 {
			t.Errorf("cell %s: total %v s, evaluation %v s, design %v s", tm.Cell, tm.TotalSeconds, tm.EvalSeconds, tm.DesignSeconds)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Error(err)
	}
}

// checkDiagnostics checks the diagnostic columns of one row: present exactly on dpgibo's
// and gibo's rows of iterations that took a step, with GIBO drawing no noise and DP-GIBO's
// noise scale 2 B sqrt(T)/(n mu) under a fixed clip.
func checkDiagnostics(t *testing.T, fig string, r records.Row) {
	t.Helper()
	has := []bool{r.GradNorm.Valid, r.NoiseNorm.Valid, r.ClippedFrac.Valid, r.NoiseScale.Valid}
	m, _ := registry.Lookup(r.Method)
	want := m != nil && m.Info().Local && r.Batch > 0
	for _, h := range has {
		if h != want {
			t.Fatalf("%s: %s iteration %d (batch %d): diagnostics present %v, want %v", fig, r.Method, r.Iter, r.Batch, has, want)
		}
	}
	if !want {
		return
	}
	if r.GradNorm.Value < 0 || r.ClippedFrac.Value < 0 || r.ClippedFrac.Value > 1 || r.GradNorm.Value > r.Clip*(1+1e-12) {
		t.Fatalf("%s: %s row with clip %v has grad_norm %v, clipped_frac %v", fig, r.Method, r.Clip, r.GradNorm.Value, r.ClippedFrac.Value)
	}
	switch {
	case r.Method == "gibo" || math.IsInf(r.Mu, 1):
		if r.NoiseNorm.Value != 0 || r.NoiseScale.Value != 0 {
			t.Fatalf("%s: %s (mu %v) drew noise: %+v", fig, r.Method, r.Mu, r)
		}
	case !strings.Contains(r.Config, "adaptive"):
		if s := algo.PrivacyNoiseStd(r.Clip, r.Iters, r.NUsers, r.Mu); r.NoiseScale.Value != s || !(r.NoiseNorm.Value > 0) {
			t.Fatalf("%s: dpgibo noise_scale %v, want 2 B sqrt(T)/(n mu) = %v; noise_norm %v", fig, r.NoiseScale.Value, s, r.NoiseNorm.Value)
		}
	}
}

func TestWorkersGiveIdenticalBytes(t *testing.T) {
	dir := t.TempDir()
	if err := runSuite(context.Background(), engineOptions(dir, 1)); err != nil {
		t.Fatal(err)
	}
	sameAsEngineReference(t, dir)
}

func TestShardsMergedEqualUnsharded(t *testing.T) {
	dir := t.TempDir()
	const n = 3
	for k := 0; k < n; k++ {
		o := engineOptions(dir, 1)
		o.Shard = runner.Shard{K: k, N: n}
		if err := runSuite(context.Background(), o); err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "e1.csv")); (err == nil) != (k == n-1) {
			t.Fatalf("after shard %d/%d: e1.csv exists = %v; the merge must run exactly when every shard is done", k, n, err == nil)
		}
	}
	sameAsEngineReference(t, dir)
	// An explicit merge over the same cells rewrites the same bytes.
	for name := range resultFiles(t, dir) {
		os.Remove(filepath.Join(dir, name))
	}
	o := engineOptions(dir, 1)
	o.Merge = true
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	sameAsEngineReference(t, dir)
}

func TestMergeWithMissingCellsFails(t *testing.T) {
	dir := t.TempDir()
	o := quickOptions(dir, 1)
	o.Only = "fig1"
	o.Shard = runner.Shard{K: 0, N: 2}
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o.Shard, o.Merge = runner.Shard{}, true
	err := runSuite(context.Background(), o)
	if !errors.Is(err, runner.ErrIncomplete) || !strings.Contains(err.Error(), "have no done file") {
		t.Fatalf("merge of half the cells: got %v", err)
	}
}

func TestResumeAfterCancelEqualsUninterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var finished atomic.Int32
	o := engineOptions(dir, 2)
	o.AfterCell = func() {
		if finished.Add(1) == 5 {
			cancel()
		}
	}
	err := runSuite(ctx, o)
	if err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: got %v, want a cancellation error", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "e1.csv")); err == nil {
		t.Fatal("a cancelled run wrote the merged CSVs")
	}
	done, _ := filepath.Glob(filepath.Join(dir, "cells", "*.done.csv"))
	if len(done) < 5 {
		t.Fatalf("%d cells kept after the cancel, want at least 5", len(done))
	}
	var rerun atomic.Int32
	o = engineOptions(dir, 2)
	o.Resume = true
	o.AfterCell = func() { rerun.Add(1) }
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	p, _ := runner.MakePlan(engineSuite, engineFigures(), "")
	if int(rerun.Load())+len(done) != len(p.Cells) {
		t.Errorf("resume ran %d cells with %d kept, want %d in all", rerun.Load(), len(done), len(p.Cells))
	}
	sameAsEngineReference(t, dir)
}

func TestOnlyRunKeepsTheFullRunsManifest(t *testing.T) {
	dir := t.TempDir()
	full, err := os.ReadFile(filepath.Join(engineReference(t), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), full, 0o644); err != nil {
		t.Fatal(err)
	}
	o := engineOptions(dir, 1)
	o.Only, o.Figures = "e1", engineFigures()[:1]
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err != nil || !bytes.Equal(got, full) {
		t.Errorf("an -only run changed manifest.json (err %v)", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest-e1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m runner.Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Only != "e1" || len(m.Figures) != 1 {
		t.Errorf("manifest-e1.json: only %q, %d figures, %v; want e1 alone", m.Only, len(m.Figures), err)
	}
}

func TestPlanIsDeterministicAndDeduplicated(t *testing.T) {
	figs, err := suites.Figures(suites.Paper, "")
	if err != nil {
		t.Fatal(err)
	}
	p1, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := runner.MakePlan(suites.Paper, figs, "stand-in")
	if strings.Join(p1.Stems, ",") != strings.Join(p2.Stems, ",") {
		t.Fatal("two plans of the same suite differ")
	}
	stems := append([]string(nil), p1.Stems...)
	sort.Strings(stems)
	for i := 1; i < len(stems); i++ {
		if stems[i] == stems[i-1] {
			t.Fatalf("cell %s listed twice", stems[i])
		}
	}
	// fig3f reuses the first seed's DP-GIBO and GIBO runs of fig2b.
	var fig2b, fig3f int
	for i, f := range p1.Figures {
		switch f.Name {
		case "fig2b":
			fig2b = i
		case "fig3f":
			fig3f = i
		}
	}
	shared := 0
	for _, ref := range p1.Uses[fig3f] {
		for _, r2 := range p1.Uses[fig2b] {
			if ref.Cell == r2.Cell {
				shared++
			}
		}
	}
	if len(p1.Uses[fig3f]) != 2 || shared != 2 {
		t.Errorf("fig3f uses %d cells, %d shared with fig2b; want 2 and 2", len(p1.Uses[fig3f]), shared)
	}
	// A different data source changes the names of the SVR cells that look the data up
	// (no resume across data); the embedded sample's cells do not depend on it.
	p3, _ := runner.MakePlan(suites.Paper, figs, "file:/data/ct.csv")
	for i, c := range p1.Cells {
		if (p1.Stems[i] == p3.Stems[i]) == (c.Task == "svr" && c.Data == "") {
			t.Fatalf("cell %s: stem changed = %v with the data source", p1.Stems[i], p1.Stems[i] != p3.Stems[i])
		}
	}
	// Every shard assignment covers each cell exactly once.
	for _, n := range []int{1, 2, 5} {
		count := make([]int, len(p1.Cells))
		for k := 0; k < n; k++ {
			for i := range p1.Cells {
				if (runner.Shard{K: k, N: n}).Owns(i) {
					count[i]++
				}
			}
		}
		for i, c := range count {
			if c != 1 {
				t.Fatalf("N=%d: cell %d owned by %d shards", n, i, c)
			}
		}
	}
}

func TestProgressLinesWhenNotATerminal(t *testing.T) {
	var stderr bytes.Buffer
	o := quickOptions(t.TempDir(), 2)
	o.Only, o.Quiet, o.Stderr = "fig1", false, &stderr
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	figs, _ := suites.Figures(suites.Quick, "fig1")
	p, _ := runner.MakePlan(suites.Quick, figs, "")
	want := "progress: " + strconv.Itoa(len(p.Cells)) + "/" + strconv.Itoa(len(p.Cells)) + " cells"
	if !strings.Contains(stderr.String(), "progress: 0/") || !strings.Contains(stderr.String(), want) {
		t.Errorf("progress output %q lacks the first and last lines (%q)", stderr.String(), want)
	}
	o.Quiet, o.Overwrite = true, true
	stderr.Reset()
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() != 0 {
		t.Errorf("-quiet printed %q", stderr.String())
	}
}

func TestFig2bRealRunsOnTheSampleSplitByPatient(t *testing.T) {
	artefacts.Check(t) // it compares with the quick suite's reference run
	figs, err := suites.Figures(suites.Paper, "fig2b-real")
	if err != nil {
		t.Fatal(err)
	}
	p, err := runner.MakePlan(suites.Paper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]int{}
	for _, c := range p.Cells {
		if c.Task != "svr" || c.Data != "ctslice-sample" || c.D != 103 || c.NTrain != 583 || c.NVal != 98 || c.DataSource != "" {
			t.Fatalf("cell %+v is not SVR d = 103 on the sample's 583 training and 98 validation slices", c)
		}
		methods[c.Method]++
	}
	seeds := figs[0].Blocks[0].Seeds
	if seeds < 2 || methods["dpgibo"] != seeds || methods["gibo"] != seeds || methods["random"] != seeds {
		t.Errorf("runs per method %v, want %d seeds of dpgibo, gibo and random", methods, seeds)
	}
	rows, err := records.ReadFile[records.Row](filepath.Join(reference(t), "fig2b-real.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Data != "ctslice-sample" {
			t.Fatalf("quick fig2b-real row labelled data %q", r.Data)
		}
	}
}

// Every figure with declared claims has at least the seeds at which an exact paired test can
// reach alpha after Holm over its k claim tests: 2/2^n <= Alpha/k.
func TestSeedsMeetTheHolmRule(t *testing.T) {
	statements := claims.Statements()
	k := map[string]int{}
	for _, st := range statements {
		for _, c := range st.Claims {
			k[c.Figure]++
		}
	}
	for _, suite := range []string{suites.Paper, suites.Private, suites.Peers} {
		figs, err := suites.Figures(suite, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			if k[f.Name] == 0 {
				continue
			}
			need := 1
			for 2/math.Pow(2, float64(need)) > verdict.Alpha/float64(k[f.Name]) {
				need++
			}
			for _, b := range f.Blocks {
				if b.Seeds < need {
					t.Errorf("%s: %d seeds, but its %d claim tests need %d", f.Name, b.Seeds, k[f.Name], need)
				}
			}
		}
	}
}

// The suites run every declared seed raise (claims.SeedRaises): each raised curve of the
// figure reaches the raise's seeds, and no other curve of the figure is raised past the seeds
// before it.
func TestSuitesRunTheDeclaredSeedRaises(t *testing.T) {
	for _, r := range claims.SeedRaises {
		var fig *runner.Figure
		for _, suite := range []string{suites.Paper, suites.Private, suites.Peers} {
			figs, err := suites.Figures(suite, "")
			if err != nil {
				t.Fatal(err)
			}
			for i := range figs {
				if figs[i].Name == r.Figure {
					fig = &figs[i]
				}
			}
		}
		if fig == nil {
			t.Errorf("raise of %s: no suite has the figure", r.Figure)
			continue
		}
		reached := map[string]int{} // raised method -> its last seed
		for _, b := range fig.Blocks {
			if r.Task != "" && b.Task != r.Task {
				continue
			}
			for _, m := range b.Methods {
				top := b.SeedBase + b.Seeds
				if r.Methods != nil && !slices.Contains(r.Methods, m) {
					if top > r.From {
						t.Errorf("raise of %s: %s, not raised, runs seeds %d-%d", r.Figure, m, b.SeedBase+1, top)
					}
					continue
				}
				reached[m] = max(reached[m], top)
			}
		}
		for m, top := range reached {
			if top != r.To {
				t.Errorf("raise of %s to %d seeds: %s's curve reaches seed %d", r.Figure, r.To, m, top)
			}
		}
		if len(reached) == 0 {
			t.Errorf("raise of %s: no curve of the figure is raised", r.Figure)
		}
	}
}
