// Command extendmodule is what a researcher's own module does to compare a baseline of
// their own with the paper's methods: it registers a method ("halving", written against
// baselines.Evaluator) and a task ("sphere", a tasks.Task of its own), runs a small figure of
// its own and the paper's fig1 with the method added, at two seeds, through the project's
// engine (runner.Run), and checks that the figure CSVs, a PNG of each figure and the
// verdict rows are there. It exits non-zero on anything unexpected.
//
// .ci/run builds it outside the repository's module, with a replace directive to the
// repository.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/experiments/runner"
	"dpgibo/experiments/suites"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// halving is a method of one's own: random search in a box that halves around the best
// point every quarter of the budget.
type halving struct{}

func (halving) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (algo.Result, error) {
	ev, err := baselines.NewEvaluator("halving", obj, budget)
	if err != nil {
		return algo.Result{}, err
	}
	lo, hi := ev.Bounds()
	lo, hi = slices.Clone(lo), slices.Clone(hi)
	quarter := max(budget/4, 1)
	for ev.Remaining() > 0 {
		theta := make([]float64, len(lo))
		for j := range theta {
			theta[j] = lo[j] + (hi[j]-lo[j])*rng.Float64()
		}
		if _, err := ev.Observe(ctx, theta, baselines.Mean, cb); err != nil {
			return algo.Result{}, err
		}
		if ev.Evals()%quarter == 0 {
			best := ev.Best()
			boxLo, boxHi := ev.Bounds()
			for j := range lo {
				half := (hi[j] - lo[j]) / 4
				lo[j], hi[j] = math.Max(boxLo[j], best[j]-half), math.Min(boxHi[j], best[j]+half)
			}
		}
	}
	return algo.Result{Theta: ev.Best(), Evals: ev.Evals(), Iters: ev.Evals(), Ledger: algo.NonPrivateLedger()}, nil
}

// sphere is a task of one's own: user i's loss is the squared distance of theta to its
// centre, divided by d, on [-2, 2]^d.
type sphere struct {
	d       int
	centres [][]float64
}

func newSphere(s runner.TaskSpec) (tasks.Task, error) {
	rng := rand.New(rand.NewPCG(s.Seed, 7))
	t := &sphere{d: s.D}
	for range 50 {
		c := make([]float64, s.D)
		for j := range c {
			c[j] = 0.5 + 0.3*rng.NormFloat64()
		}
		t.centres = append(t.centres, c)
	}
	return t, nil
}

func (t *sphere) Dim() int { return t.d }
func (t *sphere) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, t.d), make([]float64, t.d)
	for j := range lo {
		lo[j], hi[j] = -2, 2
	}
	return lo, hi
}
func (t *sphere) Users() int                       { return len(t.centres) }
func (t *sphere) Name() string                     { return "sphere" }
func (t *sphere) DataLabel() string                { return "synthetic" }
func (t *sphere) LossBound() float64               { return 4 * 4 }
func (t *sphere) Data() (train, val tasks.Dataset) { return }
func (t *sphere) Losses(theta, dst []float64) error {
	for i, c := range t.centres {
		s := 0.0
		for j := range c {
			s += (theta[j] - c[j]) * (theta[j] - c[j])
		}
		dst[i] = s / float64(t.d)
	}
	return nil
}

func main() {
	out := flag.String("out", "", "output directory (default: a temporary one, removed at the end)")
	flag.Parse()
	dir := *out
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "extendmodule-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
	}
	// 1. The method: one Register call, with what the runner needs to know of it.
	if err := baselines.Register(baselines.MethodInfo{Name: "halving", Legend: "Halving search", Reads: []string{"noise"}},
		func(baselines.Options) (baselines.Method, error) { return halving{}, nil }); err != nil {
		log.Fatal(err)
	}
	// 2. The task: a factory that builds it by name and leaves the others to the catalog.
	newTask := func(s runner.TaskSpec) (tasks.Task, error) {
		if s.Name == "sphere" {
			return newSphere(s)
		}
		return catalog.New(s)
	}
	// 3. The figures: one of its own, and the paper's fig1 with the method added.
	own := runner.Figure{Name: "sphere", Blocks: []runner.Block{{Task: "sphere", Dims: []int{2, 4}, DataSeed: 1,
		Methods: []string{"dpgibo", "random", "halving"}, Seeds: 2,
		Algo: runner.AlgoConfig{Iters: 6, Clip: 0.5, Mu: 1, Step: 0.2, Lengthscale: 0.5}}}}
	paper, err := suites.Figures(suites.Paper, "fig1")
	if err != nil {
		log.Fatal(err)
	}
	for bi := range paper[0].Blocks {
		paper[0].Blocks[bi].Methods = append(paper[0].Blocks[bi].Methods, "halving")
	}
	// 4. One run through the engine: cells, resume, merge, verdicts and figures.
	err = runner.Run(context.Background(), runner.Options{Suite: "mine", Figures: append([]runner.Figure{own}, paper...),
		Out: dir, Seeds: 2, Workers: 2, Render: true, Quiet: true, NewTask: newTask})
	if err != nil {
		log.Fatalf("runner.Run: %v", err)
	}
	for _, name := range []string{"sphere", "fig1"} {
		csv, err := os.ReadFile(filepath.Join(dir, name+".csv"))
		if err != nil {
			log.Fatal(err)
		}
		if !strings.Contains(string(csv), ",halving,") {
			log.Fatalf("%s.csv holds no row of the method halving", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "figures", name+".png")); err != nil {
			log.Fatalf("no PNG of %s: %v", name, err)
		}
		fmt.Printf("%s: %d bytes of rows with the method halving, figures/%s.png\n", name, len(csv), name)
	}
	claims, err := os.ReadFile(filepath.Join(dir, "claims.csv"))
	if err != nil {
		log.Fatal(err)
	}
	n := strings.Count(string(claims), ",fig1,")
	if n == 0 {
		log.Fatalf("claims.csv judges no claim of fig1:\n%s", claims)
	}
	fmt.Printf("claims.csv: %d verdict rows of fig1\n", n)
}
