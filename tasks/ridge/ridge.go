// Package ridge is a tuning task that is not one of the paper's: ridge regression with one
// L2 penalty per group of features, lambda_g = e^theta_g, fitted in closed form on a
// synthetic training table whose groups are correlated and only some of which carry signal;
// each validation row is a user, whose loss is its squared prediction error clipped to a
// declared bound (so that the bound is honest).
package ridge

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "ridge"

// The box of theta = log lambda, per group.
const (
	ThetaLo = -6.0
	ThetaHi = 4.0
)

// Defaults of Config.
const (
	DefaultD           = 6
	DefaultGroupSize   = 2
	DefaultInformative = 2
	DefaultNTrain      = 25
	DefaultNVal        = 200
	DefaultNoiseStd    = 1.0
	DefaultRho         = 0.6
	DefaultLossBound   = 9.0
)

// Config describes a ridge task. A zero field takes its default.
type Config struct {
	// D is the number of feature groups, one penalty each (default 6).
	D int
	// GroupSize is the number of features per group (default 2).
	GroupSize int
	// Informative is the number of groups with non-zero true coefficients (default 2).
	Informative int
	// NTrain and NVal are the training rows and the validation users (defaults 25, 200).
	NTrain, NVal int
	// NoiseStd is the standard deviation of the targets' noise (default 1).
	NoiseStd float64
	// Rho is the correlation of neighbouring features, rho^|j-k| (default 0.6).
	Rho float64
	// LossBound clips every user's squared error (default 9, nine times the noise
	// variance): the declared bound holds by construction.
	LossBound float64
	// Seed draws the data.
	Seed uint64
}

func (c Config) withDefaults() Config {
	c.D = cmp.Or(c.D, DefaultD)
	c.GroupSize = cmp.Or(c.GroupSize, DefaultGroupSize)
	c.Informative = cmp.Or(c.Informative, DefaultInformative)
	c.NTrain = cmp.Or(c.NTrain, DefaultNTrain)
	c.NVal = cmp.Or(c.NVal, DefaultNVal)
	c.NoiseStd = cmp.Or(c.NoiseStd, DefaultNoiseStd)
	c.Rho = cmp.Or(c.Rho, DefaultRho)
	c.LossBound = cmp.Or(c.LossBound, DefaultLossBound)
	return c
}

// Task is the ridge task; it implements tasks.Task. Losses reuses buffers, so a Task is not
// safe for concurrent use.
type Task struct {
	cfg        Config
	train, val tasks.Dataset
	gram       *mat.SymDense // X^T X of the training rows
	xty        *mat.VecDense // X^T y
	lo, hi     []float64
	// buffers
	a    *mat.SymDense
	chol mat.Cholesky
	beta *mat.VecDense
	pred *mat.VecDense
}

// New draws the data cfg describes.
func New(cfg Config) (*Task, error) {
	cfg = cfg.withDefaults()
	switch {
	case cfg.D < 1 || cfg.GroupSize < 1:
		return nil, fmt.Errorf("ridge: D and GroupSize must be >= 1, got %d and %d", cfg.D, cfg.GroupSize)
	case cfg.Informative < 0 || cfg.Informative > cfg.D:
		return nil, fmt.Errorf("ridge: Informative must lie in [0, D = %d], got %d", cfg.D, cfg.Informative)
	case cfg.NTrain < 2 || cfg.NVal < 1:
		return nil, fmt.Errorf("ridge: need NTrain >= 2 and NVal >= 1, got %d and %d", cfg.NTrain, cfg.NVal)
	case !(cfg.NoiseStd > 0) || math.IsInf(cfg.NoiseStd, 0):
		return nil, fmt.Errorf("ridge: NoiseStd must be positive and finite, got %v", cfg.NoiseStd)
	case !(cfg.Rho >= 0 && cfg.Rho < 1):
		return nil, fmt.Errorf("ridge: Rho must lie in [0, 1), got %v", cfg.Rho)
	case !(cfg.LossBound > 0) || math.IsInf(cfg.LossBound, 0):
		return nil, fmt.Errorf("ridge: LossBound must be positive and finite, got %v", cfg.LossBound)
	}
	p := cfg.D * cfg.GroupSize
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x41d6e))
	beta := make([]float64, p)
	for g := 0; g < cfg.Informative; g++ {
		for k := 0; k < cfg.GroupSize; k++ {
			beta[g*cfg.GroupSize+k] = 1.5 * rng.NormFloat64()
		}
	}
	draw := func(rows int) tasks.Dataset {
		x := mat.NewDense(rows, p, nil)
		y := make([]float64, rows)
		for i := 0; i < rows; i++ {
			prev := 0.0
			for j := 0; j < p; j++ {
				v := rng.NormFloat64()
				if j > 0 {
					v = cfg.Rho*prev + math.Sqrt(1-cfg.Rho*cfg.Rho)*v
				}
				x.Set(i, j, v)
				prev = v
				y[i] += beta[j] * v
			}
			y[i] += cfg.NoiseStd * rng.NormFloat64()
		}
		return tasks.Dataset{X: x, Y: y}
	}
	t := &Task{cfg: cfg, train: draw(cfg.NTrain), val: draw(cfg.NVal), lo: make([]float64, cfg.D), hi: make([]float64, cfg.D)}
	for g := range t.lo {
		t.lo[g], t.hi[g] = ThetaLo, ThetaHi
	}
	t.gram = mat.NewSymDense(p, nil)
	t.gram.SymOuterK(1, t.train.X.T())
	t.xty = mat.NewVecDense(p, nil)
	t.xty.MulVec(t.train.X.T(), mat.NewVecDense(cfg.NTrain, t.train.Y))
	t.a = mat.NewSymDense(p, nil)
	t.beta = mat.NewVecDense(p, nil)
	t.pred = mat.NewVecDense(cfg.NVal, nil)
	return t, nil
}

// Dim is D, one log penalty per group.
func (t *Task) Dim() int { return t.cfg.D }

// Bounds is [ThetaLo, ThetaHi]^D.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name is "ridge".
func (t *Task) Name() string { return Name }

// DataLabel is "synthetic".
func (t *Task) DataLabel() string { return "synthetic" }

// LossBound is the clip of every user's squared error.
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the training and validation splits.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Losses fits beta = (X^T X + diag(lambda))^-1 X^T y, lambda_j = e^theta_g for the features
// j of group g, by a Cholesky solve, and writes min((y_i - x_i beta)^2, LossBound) for every
// validation user into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if len(theta) != t.cfg.D || len(dst) != t.cfg.NVal {
		return fmt.Errorf("ridge: theta of %d values (want %d), dst of %d (want %d)", len(theta), t.cfg.D, len(dst), t.cfg.NVal)
	}
	t.a.CopySym(t.gram)
	for g, v := range theta {
		lambda := math.Exp(v)
		for k := 0; k < t.cfg.GroupSize; k++ {
			j := g*t.cfg.GroupSize + k
			t.a.SetSym(j, j, t.a.At(j, j)+lambda)
		}
	}
	if ok := t.chol.Factorize(t.a); !ok {
		return fmt.Errorf("ridge: the penalised Gram matrix is not positive definite at theta=%s", tasks.FormatTheta(theta))
	}
	if err := t.chol.SolveVecTo(t.beta, t.xty); err != nil {
		return fmt.Errorf("ridge: %w", err)
	}
	t.pred.MulVec(t.val.X, t.beta)
	for i := range dst {
		r := t.val.Y[i] - t.pred.AtVec(i)
		dst[i] = math.Min(r*r, t.cfg.LossBound)
	}
	return tasks.CheckLosses(Name, theta, dst)
}
