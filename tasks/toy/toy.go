// Package toy is the objective of README's library example as a task: n users on the box
// [-6, 0]^2, user i with the loss 1 - exp(-|theta - c_i|^2 / 8) around a centre c_i drawn
// from N((-2, -4), 0.5^2 I), and the example's start (-5, -1), far from the optimum
// (Start). It is the library study's problem with a distant start; not one of the paper's.
// Seed 1 draws the example's centres exactly (its rand.NewPCG(1, 2) and its order of
// draws).
package toy

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "toy"

// Dim is d: two hyperparameters, as in the example.
const Dim = 2

// DefaultUsers is the example's number of users.
const DefaultUsers = 500

// The example's box, centre and spread of the users' centres, width of a user's loss
// (the 8 of exp(-r^2/8)) and start.
var (
	boxLo, boxHi  = -6.0, 0.0
	centreMean    = [Dim]float64{-2, -4}
	centreSpread  = 0.5
	lossWidth     = 8.0
	exampleStart  = [Dim]float64{-5, -1}
	optimumRelTol = 1e-12
)

// Config describes a toy task. A zero field takes its default.
type Config struct {
	// Users is n (default 500).
	Users int
	// Seed draws the centres, with rand.NewPCG(Seed, 2) (Seed 1: the example's).
	Seed uint64
}

// Task is the toy task; it implements tasks.Task and is safe for concurrent use.
type Task struct {
	cfg     Config
	centres [][Dim]float64
	optimum []float64
	fstar   float64
}

// New draws the centres cfg describes and finds the minimiser of the mean loss by L-BFGS
// from the mean centre (the mean loss is smooth; its minimiser lies near the mean centre).
func New(cfg Config) (*Task, error) {
	cfg.Users = cmp.Or(cfg.Users, DefaultUsers)
	if cfg.Users < 1 {
		return nil, fmt.Errorf("toy: Users must be >= 1, got %d", cfg.Users)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 2))
	t := &Task{cfg: cfg, centres: make([][Dim]float64, cfg.Users)}
	start := make([]float64, Dim)
	for i := range t.centres {
		for j := range Dim {
			t.centres[i][j] = centreMean[j] + centreSpread*rng.NormFloat64()
			start[j] += t.centres[i][j] / float64(cfg.Users)
		}
	}
	p := optimize.Problem{Func: t.mean, Grad: t.meanGrad}
	res, err := optimize.Minimize(p, start, &optimize.Settings{GradientThreshold: optimumRelTol}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, fmt.Errorf("toy: finding the optimum: %w", err)
	}
	t.optimum = res.X
	for j, v := range t.optimum {
		if !(v >= boxLo && v <= boxHi) {
			return nil, fmt.Errorf("toy: the mean loss's minimiser lies outside the box at coordinate %d (%v)", j, v)
		}
	}
	t.fstar = t.mean(t.optimum)
	return t, nil
}

// loss is one user's loss 1 - exp(-|theta - c|^2 / 8) and its weight exp(-r^2/8), which
// the gradient uses.
func loss(theta []float64, c [Dim]float64) (value, weight float64) {
	r2 := 0.0
	for j := range Dim {
		e := theta[j] - c[j]
		r2 += e * e
	}
	weight = math.Exp(-r2 / lossWidth)
	return 1 - weight, weight
}

// mean is the mean loss over users.
func (t *Task) mean(theta []float64) float64 {
	s := 0.0
	for _, c := range t.centres {
		v, _ := loss(theta, c)
		s += v
	}
	return s / float64(len(t.centres))
}

// meanGrad is the gradient of mean: each user contributes 2 (theta - c) exp(-r^2/8) / 8.
func (t *Task) meanGrad(grad, theta []float64) {
	for j := range grad {
		grad[j] = 0
	}
	for _, c := range t.centres {
		_, w := loss(theta, c)
		for j := range Dim {
			grad[j] += 2 * (theta[j] - c[j]) * w / lossWidth / float64(len(t.centres))
		}
	}
}

// Dim is 2.
func (t *Task) Dim() int { return Dim }

// Bounds is the example's box [-6, 0]^2.
func (t *Task) Bounds() (lo, hi []float64) {
	return []float64{boxLo, boxLo}, []float64{boxHi, boxHi}
}

// Users is n.
func (t *Task) Users() int { return t.cfg.Users }

// Name is "toy".
func (t *Task) Name() string { return Name }

// DataLabel is "synthetic".
func (t *Task) DataLabel() string { return "synthetic" }

// LossBound is 1: every loss 1 - exp(-r^2/8) lies in [0, 1).
func (t *Task) LossBound() float64 { return 1 }

// Start is the example's theta0 (-5, -1), chosen without looking at the data and far from
// the optimum: the runner starts every seed there (tasks.Starter).
func (t *Task) Start() []float64 { return exampleStart[:] }

// Optimum is the minimiser of the mean loss (found by L-BFGS in New).
func (t *Task) Optimum() []float64 { return append([]float64(nil), t.optimum...) }

// FStar is the mean loss at Optimum().
func (t *Task) FStar() float64 { return t.fstar }

// Data returns no training split and the centres as the validation "rows" (targets 0).
func (t *Task) Data() (train, val tasks.Dataset) {
	x := mat.NewDense(t.cfg.Users, Dim, nil)
	for i, c := range t.centres {
		x.SetRow(i, c[:])
	}
	return tasks.Dataset{}, tasks.Dataset{X: x, Y: make([]float64, t.cfg.Users)}
}

// Losses writes every user's loss 1 - exp(-|theta - c_i|^2/8) into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if len(theta) != Dim || len(dst) != t.cfg.Users {
		return fmt.Errorf("toy: theta of %d values (want %d), dst of %d (want %d)", len(theta), Dim, len(dst), t.cfg.Users)
	}
	for i, c := range t.centres {
		dst[i], _ = loss(theta, c)
	}
	return tasks.CheckLosses(Name, theta, dst)
}
