// Package tasks holds the contract every tuning task of dpgibo meets and the pieces all
// tasks share.
//
// # The contract
//
// A task is a black-box validation loss split by validation user. It satisfies
// algo.Objective (Go interfaces are implicit, so task packages do not import algo):
//
//	Dim() int                          // d, the number of hyperparameters
//	Bounds() (lo, hi []float64)        // the box Theta
//	Users() int                        // n, the validation users
//	Losses(theta, dst []float64) error // dst[i] = L(theta, x_i)
//
// Each task package (grouplasso, gpreg, svr) also offers New(Config) (*Task, error) with a
// documented Config whose zero value is usable, a Name, the data label its rows carry in
// every CSV (DataLabel), a public per-user loss bound (LossBound, used by the private
// baselines) and its generated or loaded data (Data, used by -dump-data).
//
// Losses must reject NaN and Inf: CheckLosses turns such a value into an error naming the
// task, theta and user.
package tasks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Dataset is one split of a task's data: features X (one row per example) and target Y,
// exactly as the task uses them (after any standardisation).
type Dataset struct {
	X *mat.Dense
	Y []float64
}

// Task is what every task of this project offers beyond algo.Objective.
type Task interface {
	Dim() int
	Bounds() (lo, hi []float64)
	Users() int
	Losses(theta, dst []float64) error
	// Name is the task's registry name, e.g. "grouplasso".
	Name() string
	// DataLabel names the data the task runs on, e.g. "synthetic", "ctslice" or
	// "ctslice-synthetic"; it is written in every CSV row the task feeds.
	DataLabel() string
	// LossBound is a public upper bound Lmax on one user's loss. Private baselines clip
	// each per-user loss to [0, Lmax].
	LossBound() float64
	// Data returns the training and validation splits.
	Data() (train, val Dataset)
}

// Starter is implemented by a task that prescribes its start theta0, chosen without
// looking at the data (the toy task's distant start); the experiment runner then starts
// every seed there instead of at a uniform point of the box.
type Starter interface {
	Start() []float64
}

// LogLosser is implemented by a task whose per-user loss is a classifier's log loss with
// clamped probabilities (logreg): a public fact of the loss's definition, which the
// library's private tuner may read (private.Facts.LogLoss).
type LogLosser interface {
	LogLoss() bool
}

// CheckLosses returns an error naming the task, theta and the first user whose loss is
// NaN or Inf.
func CheckLosses(task string, theta, losses []float64) error {
	for i, v := range losses {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: loss of user %d is %v at theta=%s", task, i, v, FormatTheta(theta))
		}
	}
	return nil
}

// FormatTheta prints theta as comma-separated values with full precision.
func FormatTheta(theta []float64) string {
	parts := make([]string, len(theta))
	for i, v := range theta {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// CheckBox returns an error unless lo and hi have length d >= 1 and are finite with
// lo <= hi (the rule of algo: a coordinate with lo == hi is fixed).
func CheckBox(d int, lo, hi []float64) error {
	if d <= 0 {
		return fmt.Errorf("objective has dimension %d, want at least 1", d)
	}
	if len(lo) != d || len(hi) != d {
		return fmt.Errorf("objective box has %d lower and %d upper bounds for dimension %d", len(lo), len(hi), d)
	}
	for j := range lo {
		if math.IsNaN(lo[j]) || math.IsNaN(hi[j]) || math.IsInf(lo[j], 0) || math.IsInf(hi[j], 0) || !(lo[j] <= hi[j]) {
			return fmt.Errorf("objective box coordinate %d is [%v, %v], want finite bounds with lo <= hi", j, lo[j], hi[j])
		}
	}
	return nil
}

// CheckTheta returns an error when theta has the wrong length, is not finite or lies
// outside [lo, hi].
func CheckTheta(task string, theta, lo, hi []float64) error {
	if len(theta) != len(lo) {
		return fmt.Errorf("%s: theta has %d values, want %d", task, len(theta), len(lo))
	}
	for j, v := range theta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: theta[%d] = %v is not finite", task, j, v)
		}
		if v < lo[j] || v > hi[j] {
			return fmt.Errorf("%s: theta[%d] = %v lies outside the box [%v, %v]", task, j, v, lo[j], hi[j])
		}
	}
	return nil
}

// Exp returns exp of every coordinate of theta (log-space hyperparameters to natural ones).
func Exp(dst, theta []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(theta))
	}
	for j, v := range theta {
		dst[j] = math.Exp(v)
	}
	return dst
}

// Objective is algo.Objective restated so that this package need not import algo.
type Objective interface {
	Dim() int
	Bounds() (lo, hi []float64)
	Users() int
	Losses(theta, dst []float64) error
}

// Noisy wraps an objective and adds independent N(0, Std^2) noise to each per-user loss,
// drawn from its own seeded source: the black box of section 2.3 with sigma = Std. The
// wrapped objective's losses are checked for NaN/Inf before noise is added.
type Noisy struct {
	Objective
	Std  float64
	Name string // used in error messages
	rng  *rand.Rand
}

// NewNoisy wraps obj; seed fixes the noise sequence. std must be finite and >= 0.
func NewNoisy(obj Objective, name string, std float64, seed uint64) (*Noisy, error) {
	if !(std >= 0) || math.IsInf(std, 0) {
		return nil, fmt.Errorf("%s: noise std must be finite and >= 0, got %v", name, std)
	}
	return &Noisy{Objective: obj, Std: std, Name: name, rng: rand.New(rand.NewPCG(seed, 0x6e6f697379))}, nil
}

// Losses evaluates the wrapped objective and adds the noise.
func (t *Noisy) Losses(theta, dst []float64) error {
	if err := t.Objective.Losses(theta, dst); err != nil {
		return err
	}
	if err := CheckLosses(t.Name, theta, dst); err != nil {
		return err
	}
	if t.Std == 0 {
		return nil
	}
	for i := range dst {
		dst[i] += t.Std * t.rng.NormFloat64()
	}
	return nil
}
