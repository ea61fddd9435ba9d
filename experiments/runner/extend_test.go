package runner_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"dpgibo/accounting"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/experiments/runner"
	"dpgibo/tasks/catalog"

	"gonum.org/v1/gonum/mat"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/internal/records"
	"dpgibo/tasks"
)

// toyBowl is a task of one's own: user i's loss is |theta - c_i|^2/d on [0, 1]^d, with c_i
// drawn from the task's seed. It lives in this test only.
type toyBowl struct {
	d       int
	centres [][]float64
}

func newToyBowl(s runner.TaskSpec) (tasks.Task, error) {
	if s.D < 1 {
		return nil, fmt.Errorf("toybowl: d = %d", s.D)
	}
	rng := rand.New(rand.NewPCG(s.Seed, 7))
	t := &toyBowl{d: s.D}
	for i := 0; i < 30; i++ {
		c := make([]float64, s.D)
		for j := range c {
			c[j] = 0.3 + 0.1*rng.Float64()
		}
		t.centres = append(t.centres, c)
	}
	return t, nil
}

func (t *toyBowl) Dim() int { return t.d }
func (t *toyBowl) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, t.d), make([]float64, t.d)
	for j := range hi {
		hi[j] = 1
	}
	return lo, hi
}
func (t *toyBowl) Users() int         { return len(t.centres) }
func (t *toyBowl) Name() string       { return "toybowl" }
func (t *toyBowl) DataLabel() string  { return "synthetic" }
func (t *toyBowl) LossBound() float64 { return 1 }
func (t *toyBowl) Data() (tasks.Dataset, tasks.Dataset) {
	return tasks.Dataset{X: mat.NewDense(1, 1, nil)}, tasks.Dataset{X: mat.NewDense(1, 1, nil)}
}
func (t *toyBowl) Losses(theta, dst []float64) error {
	for i, c := range t.centres {
		s := 0.0
		for j := range c {
			s += (theta[j] - c[j]) * (theta[j] - c[j])
		}
		dst[i] = s / float64(t.d)
	}
	return nil
}

// toyCorner is a method of one's own: it evaluates the box's centre, then releases it. It
// reads only the loss noise of the swept parameters (baselines.Sweeper).
type toyCorner struct{}

func (toyCorner) Info() baselines.Info {
	return baselines.Info{Name: "toy-centre", Legend: "Toy centre"}
}

func (toyCorner) Sweeps(param string) bool { return param == "noise" }

func (toyCorner) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	lo, hi := obj.Bounds()
	theta := make([]float64, len(lo))
	for j := range theta {
		theta[j] = (lo[j] + hi[j]) / 2
	}
	losses := make([]float64, obj.Users())
	if err := obj.Losses(theta, losses); err != nil {
		return baselines.Result{}, err
	}
	if cb != nil {
		if err := cb(algo.Iteration{Iter: 1, Evals: 1, Batch: 1, Theta: theta, Trace: math.NaN()}); err != nil {
			return baselines.Result{}, err
		}
	}
	return baselines.Result{Theta: theta, Evals: 1, Iters: 1, Ledger: accounting.NonPrivateLedger()}, nil
}

// A method and a task of one's own run through the runner beside DP-GIBO: one Register call
// for the method, one task factory for the task, and one figure that uses both.
func TestAToyMethodAndAToyTaskRunThroughTheRunner(t *testing.T) {
	if err := registry.Register(toyCorner{}, func(registry.Options) (baselines.Method, error) { return toyCorner{}, nil }); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	o := quickOptions(out, 2)
	o.Suite = "toy"
	o.Figures = []runner.Figure{{Name: "toy", Blocks: []runner.Block{{Task: "toybowl", Dims: []int{2, 3}, DataSeed: 1,
		Methods: []string{"dpgibo", "toy-centre"}, Seeds: 2,
		Algo: algocfg.Config{Iters: 3, Clip: 0.5, Mu: 1, Step: 0.2, Lengthscale: 0.5}}}}}
	o.NewTask = func(s runner.TaskSpec) (tasks.Task, error) {
		if s.Name == "toybowl" {
			return newToyBowl(s)
		}
		return catalog.New(s)
	}
	if err := runSuite(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	rows, err := records.ReadFile[records.Row](filepath.Join(out, "toy.csv"))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r.Method]++
		if r.Task != "toybowl" || math.IsNaN(r.Loss) {
			t.Fatalf("row %+v", r)
		}
	}
	if count["dpgibo"] == 0 || count["toy-centre"] == 0 {
		t.Fatalf("rows per method %v: want both methods", count)
	}
}

// A committed figure gains seeds without computing its old cells again: -from takes them
// from the committed CSV, timings and manifest, and the old rows come out unchanged; a new
// figure of another name that shares the committed figure's cells (and adds a method)
// takes them too.
func TestFromRunsOnlyTheNewCells(t *testing.T) {
	run := func(out, from string, seeds int, extra ...string) int {
		t.Helper()
		o := quickOptions(out, 1)
		name := "toy"
		if len(extra) > 0 {
			name = "toy-field"
		}
		o.Suite, o.Only, o.From = "toy", name, from
		o.Figures = []runner.Figure{{Name: name, Blocks: []runner.Block{{Task: "toybowl", Dims: []int{2, 3}, DataSeed: 1,
			Methods: append([]string{"dpgibo", "random"}, extra...), Seeds: seeds,
			Algo: algocfg.Config{Iters: 3, Clip: 0.5, Mu: 1, Step: 0.2, Lengthscale: 0.5}}}}}
		o.NewTask = func(s runner.TaskSpec) (tasks.Task, error) { return newToyBowl(s) }
		ran := 0
		o.AfterCell = func() { ran++ }
		if err := runner.Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		return ran
	}
	committed, raised := t.TempDir(), t.TempDir()
	if n := run(committed, "", 2); n != 8 {
		t.Fatalf("first run computed %d cells, want 8", n)
	}
	if n := run(raised, committed, 3); n != 4 {
		t.Fatalf("raised run computed %d cells, want the 4 of seed 3", n)
	}
	if n := run(t.TempDir(), committed, 2, "dp-random"); n != 4 {
		t.Fatalf("a new figure sharing the committed cells computed %d cells, want dp-random's 4", n)
	}
	read := func(dir string) []records.Row {
		rows, err := records.ReadFile[records.Row](filepath.Join(dir, "toy.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	var old []records.Row
	for _, r := range read(raised) {
		if r.Seed <= 2 {
			old = append(old, r)
		}
	}
	want, err := records.Marshal(read(committed))
	if err != nil {
		t.Fatal(err)
	}
	got, err := records.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("the committed seeds' rows changed when taken with -from")
	}
}

// The manifest goes with the merged CSVs, before the verdicts: the studies' tables read a
// figure's blocks from its manifest, the figure of the run itself included.
func TestManifestBeforeVerdicts(t *testing.T) {
	out := t.TempDir()
	o := quickOptions(out, 1)
	o.Suite, o.Only = "toy", "toy"
	o.Figures = []runner.Figure{{Name: "toy", Blocks: []runner.Block{{Task: "toybowl", Dims: []int{2}, DataSeed: 1,
		Methods: []string{"dpgibo"}, Seeds: 1, Algo: algocfg.Config{Iters: 2, Clip: 0.5, Mu: 1, Step: 0.2, Lengthscale: 0.5}}}}}
	o.NewTask = func(s runner.TaskSpec) (tasks.Task, error) { return newToyBowl(s) }
	o.AfterMerge = func(context.Context) error {
		_, err := os.Stat(filepath.Join(out, "manifest-toy.json"))
		return err
	}
	if err := runner.Run(context.Background(), o); err != nil {
		t.Fatalf("after the merge: %v", err)
	}
}
