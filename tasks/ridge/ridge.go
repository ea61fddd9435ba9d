// Package ridge is a tuning task that is not one of the paper's: ridge regression with one
// L2 penalty per group of features, lambda_g = e^theta_g, fitted in closed form, on one of
// two problems (Config.Table):
//
//   - "" (the default): a synthetic training table whose groups are correlated and only
//     some of which carry signal;
//   - randhie (data.RANDHIELabel): the RAND Health Insurance Experiment table of package
//     data. The target is y = log(1 + mdvis), the log of one plus a person-year's
//     outpatient visits to a doctor: a public modelling choice, declared here, that tames
//     the counts' long right tail. The nine features are standardised by the training rows'
//     means and standard deviations, one penalty each (d = 9, groups of one feature). The
//     target is centred by the training rows' mean of y, in both splits; with features
//     centred on the training rows this is the fit with an unpenalised intercept. The
//     table's rows are split by Config.Seed into NTrain training rows and NVal validation
//     users, drawn without replacement (defaults 1000 and 2000 of the 20190 rows), and a
//     user's squared error is clipped to 4 by default: an error of 2 on
//     the log scale, a factor e^2 (about 7.4) on 1 + visits.
//
// Each validation row is a user, whose loss is its squared prediction error clipped to a
// declared bound (so that the bound is honest).
package ridge

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"dpgibo/data"
	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "ridge"

// The box of theta = log lambda, per group.
const (
	thetaLo = -6.0
	thetaHi = 4.0
)

// syntheticLabel is the data label of the synthetic problem (Config.Table "").
const syntheticLabel = "synthetic"

// Tables returns the labels of the real tables the task also runs on (Config.Table); ""
// is the synthetic problem.
func Tables() []string { return []string{data.RANDHIELabel} }

// The randhie table's shape and the defaults of Config on it: one penalty per feature
// (D = RANDHIEFeatures, GroupSize 1), 1000 training rows, 2000 validation users and a
// clip of 4 on the squared error of log(1 + visits).
const (
	randhieRows      = 20190
	RANDHIEFeatures  = 9
	randhieNTrain    = 1000
	RANDHIENVal      = 2000
	randhieLossBound = 4.0
)

// Defaults of Config on the synthetic problem.
const (
	DefaultD           = 6
	DefaultGroupSize   = 2
	defaultInformative = 2
	defaultNTrain      = 25
	DefaultNVal        = 200
	defaultNoiseStd    = 1.0
	defaultRho         = 0.6
	defaultLossBound   = 9.0
)

// Config describes a ridge task. A zero field takes its default: the synthetic problem's,
// or with Table set the table's (stated on each field).
type Config struct {
	// Table is "" for the synthetic problem or data.RANDHIELabel for the RAND Health
	// Insurance Experiment table (see the package comment and Tables).
	Table string
	// D is the number of feature groups, one penalty each (default 6; on randhie 9, the
	// only value it takes).
	D int
	// GroupSize is the number of features per group (default 2; on randhie 1, the only
	// value it takes).
	GroupSize int
	// Informative is the number of groups with non-zero true coefficients (default 2).
	// Synthetic problem only: 0 on a table.
	Informative int
	// NTrain and NVal are the training rows and the validation users (defaults 25, 200;
	// on randhie 1000 and 2000, drawn without replacement from the table's rows).
	NTrain, NVal int
	// NoiseStd is the standard deviation of the targets' noise (default 1). Synthetic
	// problem only: 0 on a table.
	NoiseStd float64
	// Rho is the correlation of neighbouring features, rho^|j-k| (default 0.6). Synthetic
	// problem only: 0 on a table.
	Rho float64
	// LossBound clips every user's squared error (default 9, nine times the noise
	// variance; on randhie 4): the declared bound holds by construction.
	LossBound float64
	// Seed draws the synthetic data, or splits the table's rows.
	Seed uint64
}

func (c Config) withDefaults() Config {
	c.D = cmp.Or(c.D, DefaultD)
	c.GroupSize = cmp.Or(c.GroupSize, DefaultGroupSize)
	c.Informative = cmp.Or(c.Informative, defaultInformative)
	c.NTrain = cmp.Or(c.NTrain, defaultNTrain)
	c.NVal = cmp.Or(c.NVal, DefaultNVal)
	c.NoiseStd = cmp.Or(c.NoiseStd, defaultNoiseStd)
	c.Rho = cmp.Or(c.Rho, defaultRho)
	c.LossBound = cmp.Or(c.LossBound, defaultLossBound)
	return c
}

// Task is the ridge task; it implements tasks.Task. Losses reuses buffers, so a Task is not
// safe for concurrent use.
type Task struct {
	cfg        Config
	label      string // the data label
	train, val tasks.Dataset
	// yMean is the training rows' mean of the table's target, subtracted from the
	// targets of both splits; 0 on the synthetic problem
	yMean  float64
	gram   *mat.SymDense // X^T X of the training rows
	xty    *mat.VecDense // X^T y
	lo, hi []float64
	// buffers
	a    *mat.SymDense
	chol mat.Cholesky
	beta *mat.VecDense
	pred *mat.VecDense
}

// New draws the synthetic data cfg describes, or splits the table cfg.Table names. An
// unknown table is an error listing the known ones.
func New(cfg Config) (*Task, error) {
	switch cfg.Table {
	case "":
		return newSynthetic(cfg)
	case data.RANDHIELabel:
		return newRANDHIE(cfg)
	}
	return nil, fmt.Errorf("ridge: unknown table %q (known: \"\" for the synthetic problem, %q)", cfg.Table, data.RANDHIELabel)
}

// newSynthetic draws the synthetic problem cfg describes.
func newSynthetic(cfg Config) (*Task, error) {
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
	train := draw(cfg.NTrain)
	val := draw(cfg.NVal)
	return newTask(cfg, syntheticLabel, train, val, 0), nil
}

// newRANDHIE splits the randhie table as cfg describes (see the package comment).
func newRANDHIE(cfg Config) (*Task, error) {
	label := data.RANDHIELabel
	switch {
	case cfg.Informative != 0 || cfg.NoiseStd != 0 || cfg.Rho != 0:
		return nil, fmt.Errorf("ridge: Informative, NoiseStd and Rho describe the synthetic problem and must be 0 on the %s table, got %d, %v and %v", label, cfg.Informative, cfg.NoiseStd, cfg.Rho)
	case cfg.D != 0 && cfg.D != RANDHIEFeatures:
		return nil, fmt.Errorf("ridge: the %s table has D = %d, one penalty per feature; got D = %d", label, RANDHIEFeatures, cfg.D)
	case cfg.GroupSize != 0 && cfg.GroupSize != 1:
		return nil, fmt.Errorf("ridge: the %s table has one feature per group; got GroupSize %d", label, cfg.GroupSize)
	}
	cfg.D, cfg.GroupSize = RANDHIEFeatures, 1
	cfg.NTrain = cmp.Or(cfg.NTrain, randhieNTrain)
	cfg.NVal = cmp.Or(cfg.NVal, RANDHIENVal)
	cfg.LossBound = cmp.Or(cfg.LossBound, randhieLossBound)
	switch {
	case cfg.NTrain < 2 || cfg.NVal < 1 || cfg.NTrain+cfg.NVal > randhieRows:
		return nil, fmt.Errorf("ridge: need NTrain >= 2, NVal >= 1 and NTrain + NVal <= the %s table's %d rows, got %d and %d", label, randhieRows, cfg.NTrain, cfg.NVal)
	case !(cfg.LossBound > 0) || math.IsInf(cfg.LossBound, 0):
		return nil, fmt.Errorf("ridge: LossBound must be positive and finite, got %v", cfg.LossBound)
	}
	x, visits, err := data.RANDHIE()
	if err != nil {
		return nil, err
	}
	if rows, p := x.Dims(); rows != randhieRows || p != RANDHIEFeatures {
		return nil, fmt.Errorf("ridge: the %s table is %d x %d, want %d x %d", label, rows, p, randhieRows, RANDHIEFeatures)
	}
	order := rand.New(rand.NewPCG(cfg.Seed, 0x72616e64)).Perm(randhieRows)
	take := func(idx []int) tasks.Dataset {
		d := tasks.Dataset{X: mat.NewDense(len(idx), RANDHIEFeatures, nil), Y: make([]float64, len(idx))}
		for i, r := range idx {
			d.X.SetRow(i, x.RawRowView(r))
			d.Y[i] = math.Log1p(visits[r])
		}
		return d
	}
	train, val := take(order[:cfg.NTrain]), take(order[cfg.NTrain:cfg.NTrain+cfg.NVal])
	// Standardise every feature by the training rows' mean and standard deviation; a
	// feature constant on the training rows (an indicator no training row has) carries
	// nothing the fit can use and is set to 0 in both splits.
	for j := range RANDHIEFeatures {
		mean, sd := stat.MeanStdDev(mat.Col(nil, j, train.X), nil)
		for _, d := range []tasks.Dataset{train, val} {
			for i := range len(d.Y) {
				v := 0.0
				if sd > 0 {
					v = (d.X.At(i, j) - mean) / sd
				}
				d.X.Set(i, j, v)
			}
		}
	}
	// Centre the target by the training mean: with the features centred on the training
	// rows, the fit without intercept is then the fit with an unpenalised one.
	yMean := stat.Mean(train.Y, nil)
	for _, d := range []tasks.Dataset{train, val} {
		for i := range d.Y {
			d.Y[i] -= yMean
		}
	}
	return newTask(cfg, label, train, val, yMean), nil
}

// newTask is the task fitting cfg.D groups of cfg.GroupSize features on train and
// validating on val, whatever the data.
func newTask(cfg Config, label string, train, val tasks.Dataset, yMean float64) *Task {
	p := cfg.D * cfg.GroupSize
	t := &Task{cfg: cfg, label: label, train: train, val: val, yMean: yMean, lo: make([]float64, cfg.D), hi: make([]float64, cfg.D)}
	for g := range t.lo {
		t.lo[g], t.hi[g] = thetaLo, thetaHi
	}
	t.gram = mat.NewSymDense(p, nil)
	t.gram.SymOuterK(1, t.train.X.T())
	t.xty = mat.NewVecDense(p, nil)
	t.xty.MulVec(t.train.X.T(), mat.NewVecDense(cfg.NTrain, t.train.Y))
	t.a = mat.NewSymDense(p, nil)
	t.beta = mat.NewVecDense(p, nil)
	t.pred = mat.NewVecDense(cfg.NVal, nil)
	return t
}

// Dim is D, one log penalty per group (9 on randhie).
func (t *Task) Dim() int { return t.cfg.D }

// Bounds is [-6, 4]^D.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name is "ridge".
func (t *Task) Name() string { return Name }

// DataLabel is "synthetic", or the table's label (data.RANDHIELabel).
func (t *Task) DataLabel() string { return t.label }

// LossBound is the clip of every user's squared error.
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the training and validation splits; on randhie standardised, the target
// log(1 + mdvis) centred by its training mean.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Losses fits beta = (X^T X + diag(lambda))^-1 X^T y, lambda_j = e^theta_g for the features
// j of group g, by a Cholesky solve, and writes min((y_i - x_i beta)^2, LossBound) for every
// validation user into dst (on randhie y is the centred target, see Data).
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
