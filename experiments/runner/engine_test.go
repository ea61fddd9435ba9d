package runner

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/internal/records"
	"dpgibo/private"
	"dpgibo/tasks"
)

// fakeTask is a 2-d quadratic with 4 users.
type fakeTask struct{}

func (fakeTask) Dim() int { return 2 }

func (fakeTask) Bounds() (lo, hi []float64) { return []float64{-1, -1}, []float64{1, 1} }

func (fakeTask) Users() int { return 4 }

func (fakeTask) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = theta[0]*theta[0] + theta[1]*theta[1] + float64(i)
	}
	return nil
}

func (fakeTask) Name() string { return "fake" }

func (fakeTask) DataLabel() string { return "fake-stand-in" }

// Warning says the task's data are a stand-in, as a task on stand-in data does.
func (fakeTask) Warning() string { return "warning: fake: running on a stand-in" }

func (fakeTask) LossBound() float64 { return 10 }

func (fakeTask) Data() (train, val tasks.Dataset) { return }

func newFakeTask(TaskSpec) (tasks.Task, error) { return fakeTask{}, nil }

// fakeMethod evaluates a fixed list of points and reports each.
type fakeMethod struct{ points [][]float64 }

func (fakeMethod) Info() baselines.Info { return baselines.Info{Name: "fake-method"} }

func (f fakeMethod) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	dst := make([]float64, obj.Users())
	for i, p := range f.points {
		if err := obj.Losses(p, dst); err != nil {
			return baselines.Result{}, err
		}
		if err := cb(algo.Iteration{Iter: i + 1, Evals: i + 1, Batch: 1, Theta: p}); err != nil {
			return baselines.Result{}, err
		}
	}
	return baselines.Result{Theta: f.points[len(f.points)-1], Evals: len(f.points), Ledger: accounting.NonPrivateLedger()}, nil
}

func TestCellGuardsTheMethodContract(t *testing.T) {
	spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "random", Seed: 1, Budget: 2, Mu: inf}
	for _, tc := range []struct {
		points [][]float64
		want   string
	}{
		{[][]float64{{0, 0}, {0.5, 0}, {0, 0.5}}, "over its budget 2"},
		{[][]float64{{0, 0}, {2, 0}}, "outside the task's box"},
	} {
		m := fakeMethod{tc.points}
		_, err := runCell(context.Background(), spec, newFakeTask,
			func(string, registry.Options) (baselines.Method, error) { return m, nil }, "", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("points %v: got %v, want an error containing %q", tc.points, err, tc.want)
		}
	}
	// Within the contract: the reported loss is the noiseless mean, and the stand-in
	// warning is printed once however many cells use it.
	var warnings bytes.Buffer
	r := &cellRunner{Warnings: &warnings}
	for i := 0; i < 3; i++ {
		out, err := runCell(context.Background(), spec, newFakeTask,
			func(string, registry.Options) (baselines.Method, error) {
				return fakeMethod{[][]float64{{0.5, 0}, {0, 0}}}, nil
			}, "", r.warn)
		if err != nil {
			t.Fatal(err)
		}
		var losses []float64
		for _, row := range out.Rows {
			losses = append(losses, row.Loss)
		}
		if len(losses) != 2 || losses[0] != 0.25+1.5 || losses[1] != 1.5 {
			t.Fatalf("reported losses %v, want [1.75 1.5]", losses)
		}
	}
	if got := strings.Count(warnings.String(), "\n"); got != 1 || warnings.String() != (fakeTask{}).Warning()+"\n" {
		t.Errorf("stand-in warning printed %d times: %q", got, warnings.String())
	}
}

// A method's warning is printed once per run however many cells raise it, naming the first.
func TestMethodWarningsOncePerRun(t *testing.T) {
	var buf bytes.Buffer
	r := &cellRunner{Warnings: &buf}
	r.warnMethod("fig/a", []string{"algo: one", "algo: two"})
	r.warnMethod("fig/b", []string{"algo: two", "algo: three"})
	want := "warning: algo: one (first raised by fig/a; printed once per run)\n" +
		"warning: algo: two (first raised by fig/a; printed once per run)\n" +
		"warning: algo: three (first raised by fig/b; printed once per run)\n"
	if buf.String() != want {
		t.Errorf("warnings printed:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// runCell hands DP-GIBO theta0 and exactly the settings its cell's Spec gives (pinned, or
// algo's defaults with a candidate rule), and a "library" cell with a rule runs to its end
// with the method's real constructor.
func TestRunCellRunsTheSpecsSettings(t *testing.T) {
	pinned := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dpgibo", Seed: 1, Budget: 6, Mu: 1,
		Spec: algocfg.Spec{Iters: 2, Batch: 3, Clip: 1, Step: 0.5, Lengthscale: 1, AdaptiveClip: &algocfg.AdaptiveClip{Rate: 0.5}}}
	library := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dpgibo", Seed: 1, Budget: 6, Mu: 1,
		Spec: algocfg.Spec{Iters: 2, Batch: 3, Defaults: algocfg.DefaultsLibrary, DefaultsRevision: algocfg.DefaultsRevision, Rule: "shrink-step2"}}
	for _, spec := range []cellSpec{pinned, library} {
		var got registry.Options
		errStop := errors.New("captured")
		_, err := runCell(context.Background(), spec, newFakeTask, func(_ string, o registry.Options) (baselines.Method, error) {
			got = o
			return nil, errStop
		}, "", nil)
		if !errors.Is(err, errStop) {
			t.Fatalf("runCell: %v", err)
		}
		want, err := spec.Spec.Settings(fakeTask{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Settings, want) || len(got.Theta0) != 2 || got.Mu != 1 {
			t.Errorf("options of %+v: %+v, want settings %+v", spec.Spec, got, want)
		}
	}
	out, err := runCell(context.Background(), library, newFakeTask, defaultMethodFactory, "", nil)
	if err != nil || len(out.Rows) == 0 {
		t.Fatalf("library cell with a rule: %v", err)
	}
	if out.Rows[len(out.Rows)-1].Step == 0 {
		t.Errorf("a defaults cell's rows give the step the run used, got 0")
	}
}

// TestFStarFileLeavesOutUnknownSettingsAndKeepsOthers writes fstar.csv for a plan with a
// setting that has no committed f*: it is left out with one warning, and rows of an earlier
// fstar.csv for settings the run did not touch are kept.
func TestFStarFileLeavesOutUnknownSettingsAndKeepsOthers(t *testing.T) {
	out := t.TempDir()
	figs := []Figure{{Name: "odd", Blocks: []Block{{Task: "grouplasso", Dims: []int{2, 3}, NTrain: 30, NVal: 41, DataSeed: 1,
		Methods: []string{"random"}, Seeds: 1, Algo: algocfg.Config{Iters: 2}}}}}
	// d = 2 with 41 users has no committed f*; an earlier file holds another setting.
	earlier := []records.FStar{{Task: "gpreg", Data: "synthetic", D: 7, NUsers: 9, NTrain: 9, FStar: 0.5, ThetaSource: "earlier run"}}
	data, err := records.Marshal(earlier)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "fstar.csv"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	o := Options{Suite: "quick", Out: out, Workers: 1, Quiet: true, Stderr: &warn}
	p, err := makePlan("quick", figs, "")
	if err != nil {
		t.Fatal(err)
	}
	r := &cellRunner{Out: o.Out, Workers: 1, NewTask: defaultTaskFactory, NewMethod: defaultMethodFactory, Warnings: &warn}
	todo, err := r.Todo(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Execute(context.Background(), p, todo); err != nil {
		t.Fatal(err)
	}
	if err := r.Merge(p); err != nil {
		t.Fatal(err)
	}
	got, err := records.ReadFile[records.FStar](filepath.Join(out, "fstar.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != earlier[0] {
		t.Errorf("fstar.csv = %+v, want only the earlier run's row", got)
	}
	if n := strings.Count(warn.String(), "no committed f*"); n != 1 || !strings.Contains(warn.String(), "2 setting(s)") {
		t.Errorf("warnings: %q", warn.String())
	}
}

// TestCellUnderTwoLabelsIsRunOnceAndWrittenUnderBoth: a figure whose two blocks share a
// cell under different labels (fig-private-select's DP-GIBO at both currencies) runs it
// once, and its CSV holds the cell's rows under each label.
func TestCellUnderTwoLabelsIsRunOnceAndWrittenUnderBoth(t *testing.T) {
	out := t.TempDir()
	b := Block{Task: "grouplasso", Dims: []int{2}, NTrain: 30, NVal: 30, DataSeed: 1,
		Methods: []string{"random"}, Seeds: 1, Algo: algocfg.Config{Iters: 2}}
	second := b
	second.Label = "second"
	figs := []Figure{{Name: "shared", Blocks: []Block{b, second}}}
	p, err := makePlan("quick", figs, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 1 || len(p.Uses[0]) != 2 || len(p.Users[0]) != 1 {
		t.Fatalf("plan: %d cells, %d uses, users %v; want 1 cell used twice by one figure", len(p.Cells), len(p.Uses[0]), p.Users[0])
	}
	var warn bytes.Buffer
	r := &cellRunner{Out: out, Workers: 1, NewTask: defaultTaskFactory, NewMethod: defaultMethodFactory, Warnings: &warn}
	todo, err := r.Todo(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(todo) != 1 {
		t.Fatalf("%d cells to run, want 1", len(todo))
	}
	if err := r.Execute(context.Background(), p, todo); err != nil {
		t.Fatal(err)
	}
	if err := r.Merge(p); err != nil {
		t.Fatal(err)
	}
	rows, err := records.ReadFile[records.Row](filepath.Join(out, "shared.csv"))
	if err != nil {
		t.Fatal(err)
	}
	byLabel := map[string][]float64{}
	for _, row := range rows {
		byLabel[row.Config] = append(byLabel[row.Config], row.Loss)
	}
	if len(byLabel) != 2 || len(byLabel[""]) == 0 || !slices.Equal(byLabel[""], byLabel["second"]) {
		t.Errorf("rows by label: %v; want the same rows under \"\" and \"second\"", byLabel)
	}
}

// A selection with a random number of trials releases the budget as its rows' iter and
// evals; K, the evaluations the wrapped objective counted, is only in trials_nonprivate and
// the timing record, and a method with a fixed number of evaluations leaves the column
// empty.
func TestSelectionRowsReleaseTheBudgetNotK(t *testing.T) {
	const budget = 6
	for _, method := range []string{"dp-select-negbin", "dp-select-geometric", "dp-rnm"} {
		ks := map[int]bool{}
		for seed := 1; seed <= 8; seed++ {
			spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: method, Seed: seed, Budget: budget, Mu: 1}
			out, err := runCell(context.Background(), spec, newFakeTask, registry.New, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			k := out.Timing.Evals
			ks[k] = true
			for _, r := range out.Rows {
				if r.Iter != budget || r.Evals != budget {
					t.Errorf("%s seed %d: row iter %d evals %d, want the budget %d", method, seed, r.Iter, r.Evals, budget)
				}
				switch {
				case method == "dp-rnm" && r.TrialsNonPrivate.Valid:
					t.Errorf("dp-rnm: trials_nonprivate %v, want empty (its number of evaluations is the budget)", r.TrialsNonPrivate)
				case method != "dp-rnm" && r.TrialsNonPrivate != records.Some(float64(k)):
					t.Errorf("%s seed %d: trials_nonprivate %v, the objective counted %d", method, seed, r.TrialsNonPrivate, k)
				}
			}
		}
		if method != "dp-rnm" && len(ks) < 2 {
			t.Errorf("%s: the same K %v on 8 seeds; the test cannot tell K from the budget", method, ks)
		}
	}
}

// dp-auto may run a selection with a random number of trials: at the target (revision 4
// on) its cap fits the budget (private.Plan.MaxEvals), so K never passes it, and the chosen
// selection's K reaches trials_nonprivate.
func TestAutoChoosingASelection(t *testing.T) {
	defer func(r private.Rule) { private.DefaultRule = r }(private.DefaultRule)
	private.DefaultRule = private.Always{Method: private.GeometricSelection}
	const budget = 60 // a cap of dp-select-geometric at mu 1 that fits
	ks := map[int]bool{}
	for seed := 1; seed <= 12; seed++ {
		spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dp-auto", Seed: seed, Budget: budget, Mu: 1, MethodRevision: 6}
		out, err := runCell(context.Background(), spec, newFakeTask, registry.New, "", nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		k := out.Timing.Evals
		ks[k] = true
		last := out.Rows[len(out.Rows)-1]
		if k > budget || last.TrialsNonPrivate != records.Some(float64(k)) {
			t.Errorf("seed %d: K = %d, trials_nonprivate %v; want K at most the budget %d, and K", seed, k, last.TrialsNonPrivate, budget)
		}
	}
	if len(ks) < 2 {
		t.Errorf("the same K on 12 seeds (%v): the rule did not run a selection with a random number of trials", ks)
	}
}

// logLossTask is fakeTask declaring a log loss (tasks.LogLosser), as logreg does.
type logLossTask struct{ fakeTask }

func (logLossTask) LogLoss() bool { return true }

// A task's declared log loss reaches the methods' options, so that dp-auto's rule reads it;
// a task without the declaration gives false.
func TestCellOptionsCarryTheLogLoss(t *testing.T) {
	spec := cellSpec{Suite: "test", Task: "fake", D: 2, Method: "dp-auto", Seed: 1, Budget: 8, Mu: 1}
	for _, tc := range []struct {
		task tasks.Task
		want bool
	}{{fakeTask{}, false}, {logLossTask{}, true}} {
		opts, err := cellOptions(spec, tc.task, nil)
		if err != nil {
			t.Fatal(err)
		}
		if opts.LogLoss != tc.want {
			t.Errorf("%T: Options.LogLoss %v, want %v", tc.task, opts.LogLoss, tc.want)
		}
	}
}

// A dp-auto block without AutoRevision keeps the first round's rule (revision 2, which
// private.Auto runs with private.FirstRoundRule), as every committed run before the second
// round; one pinned to the second round's (3) or the registry's revision runs it; any other
// revision is refused.
func TestAutoRevisionPin(t *testing.T) {
	b := Block{Task: "fake", Dims: []int{2}, Methods: []string{"dp-auto"}, Seeds: 1, Algo: algocfg.Config{Iters: 2, Mu: 1}}
	spec, _ := cellFor("test", b, 2, 1, "dp-auto", 1, "")
	opts, err := cellOptions(spec, fakeTask{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if spec.MethodRevision != 2 || opts.AutoRevision != 2 {
		t.Errorf("unpinned: revision %d, options' revision %d; want 2", spec.MethodRevision, opts.AutoRevision)
	}
	auto, _ := registry.Lookup("dp-auto")
	for _, r := range []int{3, auto.Info().Revision} {
		b.Algo.AutoRevision = r
		spec, _ = cellFor("test", b, 2, 1, "dp-auto", 1, "")
		if opts, _ := cellOptions(spec, fakeTask{}, nil); spec.MethodRevision != r || opts.AutoRevision != r {
			t.Errorf("pinned to %d: revision %d, options' %d", r, spec.MethodRevision, opts.AutoRevision)
		}
	}
	b.Algo.AutoRevision = 1
	if err := checkBlock(b); err == nil || !strings.Contains(err.Error(), "unknown revision 1") {
		t.Errorf("revision 1: %v, want an error naming it", err)
	}
}
