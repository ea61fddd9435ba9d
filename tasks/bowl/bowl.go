// Package bowl is a toy tuning task with a known optimum, not one of the paper's: n users,
// each with the quadratic loss L_i(theta) = |theta - c_i|^2 / d on the box [0, 1]^d, whose
// centres c_i scatter around a point drawn by seed. The mean loss is minimised at the mean
// centre, f* is known exactly, and every loss lies in [0, 1] (LossBound 1, an honest bound).
// It is the library study's smallest problem: a user's gradient is 2 (theta - c_i)/d.
package bowl

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "bowl"

// Defaults of Config.
const (
	DefaultD      = 5
	DefaultUsers  = 200
	defaultSpread = 0.15
)

// Config describes a bowl. A zero field takes its default.
type Config struct {
	// D is the dimension (default 5).
	D int
	// Users is n (default 200).
	Users int
	// Spread is the standard deviation of the centres around their mean point, per
	// coordinate, before they are clipped into the box (default 0.15).
	Spread float64
	// Seed draws the mean point (uniform in [0.2, 0.8]^d) and the centres.
	Seed uint64
}

// Task is the bowl task; it implements tasks.Task and is safe for concurrent use.
type Task struct {
	cfg     Config
	centres []float64 // n x d, row-major
	optimum []float64
	fstar   float64
	lo, hi  []float64
}

// New builds the bowl cfg describes.
func New(cfg Config) (*Task, error) {
	cfg.D = cmp.Or(cfg.D, DefaultD)
	cfg.Users = cmp.Or(cfg.Users, DefaultUsers)
	cfg.Spread = cmp.Or(cfg.Spread, defaultSpread)
	switch {
	case cfg.D < 1:
		return nil, fmt.Errorf("bowl: D must be >= 1, got %d", cfg.D)
	case cfg.Users < 1:
		return nil, fmt.Errorf("bowl: Users must be >= 1, got %d", cfg.Users)
	case !(cfg.Spread > 0) || math.IsInf(cfg.Spread, 0):
		return nil, fmt.Errorf("bowl: Spread must be positive and finite, got %v", cfg.Spread)
	}
	d, n := cfg.D, cfg.Users
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xb0271))
	mid := make([]float64, d)
	for j := range mid {
		mid[j] = 0.2 + 0.6*rng.Float64()
	}
	t := &Task{cfg: cfg, centres: make([]float64, n*d), optimum: make([]float64, d), lo: make([]float64, d), hi: make([]float64, d)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			c := min(max(mid[j]+cfg.Spread*rng.NormFloat64(), 0), 1)
			t.centres[i*d+j] = c
			t.optimum[j] += c / float64(n)
		}
	}
	for j := range t.hi {
		t.hi[j] = 1
	}
	losses := make([]float64, n)
	if err := t.Losses(t.optimum, losses); err != nil {
		return nil, err
	}
	for _, v := range losses {
		t.fstar += v / float64(n)
	}
	return t, nil
}

// Dim is d.
func (t *Task) Dim() int { return t.cfg.D }

// Bounds is the box [0, 1]^d.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is n.
func (t *Task) Users() int { return t.cfg.Users }

// Name is "bowl".
func (t *Task) Name() string { return Name }

// DataLabel is "synthetic".
func (t *Task) DataLabel() string { return "synthetic" }

// LossBound is 1: every centre and theta lie in [0, 1]^d, so |theta - c_i|^2/d <= 1.
func (t *Task) LossBound() float64 { return 1 }

// Optimum is the minimiser of the mean loss, the mean centre.
func (t *Task) Optimum() []float64 { return append([]float64(nil), t.optimum...) }

// FStar is the minimum of the mean loss, f(Optimum()).
func (t *Task) FStar() float64 { return t.fstar }

// Data returns no training split and the centres as the validation "rows" (targets 0).
func (t *Task) Data() (train, val tasks.Dataset) {
	return tasks.Dataset{}, tasks.Dataset{X: mat.NewDense(t.cfg.Users, t.cfg.D, append([]float64(nil), t.centres...)), Y: make([]float64, t.cfg.Users)}
}

// Losses writes L_i(theta) = |theta - c_i|^2/d of every user into dst.
func (t *Task) Losses(theta, dst []float64) error {
	d := t.cfg.D
	if len(theta) != d || len(dst) != t.cfg.Users {
		return fmt.Errorf("bowl: theta of %d values (want %d), dst of %d (want %d)", len(theta), d, len(dst), t.cfg.Users)
	}
	for i := range dst {
		s := 0.0
		for j, v := range theta {
			e := v - t.centres[i*d+j]
			s += e * e
		}
		dst[i] = s / float64(d)
	}
	return tasks.CheckLosses(Name, theta, dst)
}
