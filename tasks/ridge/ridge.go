// Package ridge is a tuning task that is not one of the paper's: ridge regression with one
// L2 penalty per group of features, lambda_g = e^theta_g, fitted in closed form, on one of
// four problems (Config.Table):
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
//     the log scale, a factor e^2 (about 7.4) on 1 + visits;
//   - grunfeld (data.GrunfeldLabel): Grunfeld's investment table of package data, 20 years
//     of 11 firms. The target is y = log(invest), a firm-year's gross investment on the log
//     scale, and the 14 features are log(value), log(capital), the year and the 11 firm
//     indicators, with four penalties: one for log(value), one for log(capital), one for
//     the year and one shared by the 11 firm indicators (d = 4). Features and target are
//     treated as on randhie: standardised by the training rows, the target centred by its
//     training mean. The rows are split by Config.Seed (defaults 110 and 110 of the 220),
//     and a user's squared error is clipped to 4 by default: an error of 2 on the log
//     scale, a factor e^2 (about 7.4) on the investment, whose firms and years span more
//     than a factor 1000;
//   - engel (data.EngelLabel): Engel's food expenditure table of package data, 235
//     households. The target is y = log(foodexp), and the six features are the powers z,
//     z^2, ..., z^6 of z, the household's log(income) standardised by the training rows'
//     mean and standard deviation; each power is then standardised by the training rows
//     like every table's feature, one penalty each (d = 6), and the target centred by its
//     training mean. The rows are split by Config.Seed (defaults 117 and 118 of the 235),
//     and a user's squared error is clipped to 1 by default: an error of 1 on the log
//     scale, a factor e (about 2.7) on a household's food expenditure. Food takes a part of
//     a household's income that varies far less between households than investment between
//     firms, so the clip is tighter than grunfeld's; it still leaves every error within
//     a factor e of the truth unclipped.
//
// Each validation row is a user, whose loss is its squared prediction error clipped to a
// declared bound (so that the bound is honest).
package ridge

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

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

// Tables returns the labels of the real tables the task also runs on (Config.Table), in
// the order they were added; "" is the synthetic problem.
func Tables() []string {
	labels := make([]string, len(tables))
	for i, tab := range tables {
		labels[i] = tab.Label
	}
	return labels
}

// TableInfo describes a table the task runs on, without reading it.
type TableInfo struct {
	// Label is the table's data label (data.RANDHIELabel, data.GrunfeldLabel,
	// data.EngelLabel).
	Label string
	// Features is the number of columns the fit uses, after the task's transformation of
	// the table (see the package comment).
	Features int
	// D is the number of penalty groups, the task's dimension, and Groups says what they
	// are, e.g. "one penalty per feature".
	D      int
	Groups string
	// NVal is the default number of validation users (Config.NVal).
	NVal int
}

// Table returns the description of the table labelled label. It reads no data. "" (the
// synthetic problem) and an unknown label are errors listing the known tables.
func Table(label string) (TableInfo, error) {
	tab, err := lookup(label)
	return tab.TableInfo, err
}

func lookup(label string) (table, error) {
	for _, tab := range tables {
		if tab.Label == label {
			return tab, nil
		}
	}
	known := make([]string, len(tables))
	for i, tab := range tables {
		known[i] = fmt.Sprintf("%q", tab.Label)
	}
	return table{}, fmt.Errorf("ridge: unknown table %q (known: \"\" for the synthetic problem, %s)", label, strings.Join(known, ", "))
}

// table is a TableInfo with what New needs to build the task.
type table struct {
	TableInfo
	// rows are the table's rows; nTrain and lossBound the defaults of Config.NTrain and
	// Config.LossBound on it.
	rows      int
	nTrain    int
	lossBound float64
	// load reads the table: X, rows rows of cols columns, and the target y, before the
	// split (randhie: its nine features and log(1 + mdvis)).
	load func() (*mat.Dense, []float64, error)
	cols int
	// expand, when set, maps the split's loaded columns to the Features columns of the fit
	// (engel: the powers of the standardised log income); the fit's columns are then
	// standardised.
	expand func(train, val tasks.Dataset) (tasks.Dataset, tasks.Dataset)
	// group is the penalty group of feature j, in [0, D); groupSize is the size of every
	// group, or 0 when they differ (Config.GroupSize).
	group     func(j int) int
	groupSize int
	// stream is the PCG stream of the split, with Config.Seed the seed.
	stream uint64
}

// tables lists the known tables, in the order they were added.
var tables = []table{
	{
		TableInfo: TableInfo{Label: data.RANDHIELabel, Features: RANDHIEFeatures, D: RANDHIEFeatures, Groups: "one penalty per feature", NVal: RANDHIENVal},
		rows:      randhieRows,
		nTrain:    randhieNTrain,
		lossBound: randhieLossBound,
		load:      loadRANDHIE,
		cols:      RANDHIEFeatures,
		group:     func(j int) int { return j },
		groupSize: 1,
		stream:    0x72616e64,
	},
	{
		TableInfo: TableInfo{Label: data.GrunfeldLabel, Features: 14, D: 4, Groups: "one penalty each for log(value), log(capital), the year and the 11 firm indicators", NVal: 110},
		rows:      220,
		nTrain:    110,
		lossBound: 4,
		load:      loadGrunfeld,
		cols:      14,
		// columns: log(value), log(capital), year, then the 11 firm indicators
		group:  func(j int) int { return min(j, 3) },
		stream: 0x6772756e,
	},
	{
		TableInfo: TableInfo{Label: data.EngelLabel, Features: engelPowers, D: engelPowers, Groups: "one penalty per power of the standardised log income", NVal: 118},
		rows:      235,
		nTrain:    117,
		lossBound: 1,
		load:      loadEngel,
		cols:      1,
		expand:    expandEngel,
		group:     func(j int) int { return j },
		groupSize: 1,
		stream:    0x656e67656c,
	},
}

// engelPowers is the highest power of the standardised log income on engel, its d.
const engelPowers = 6

// loadRANDHIE reads randhie: its nine features and log(1 + mdvis).
func loadRANDHIE() (*mat.Dense, []float64, error) {
	x, visits, err := data.RANDHIE()
	if err != nil {
		return nil, nil, err
	}
	y := make([]float64, len(visits))
	for i, v := range visits {
		y[i] = math.Log1p(v)
	}
	return x, y, nil
}

// loadGrunfeld reads grunfeld: log(value), log(capital), the year and the 11 firm
// indicators (in the order of data.Grunfeld's firm index), and log(invest).
func loadGrunfeld() (*mat.Dense, []float64, error) {
	raw, invest, err := data.Grunfeld()
	if err != nil {
		return nil, nil, err
	}
	const value, capital, firm, year, firms = 0, 1, 2, 3, 11
	rows, _ := raw.Dims()
	x := mat.NewDense(rows, 3+firms, nil)
	y := make([]float64, rows)
	for i := range rows {
		row := raw.RawRowView(i)
		x.Set(i, 0, math.Log(row[value]))
		x.Set(i, 1, math.Log(row[capital]))
		x.Set(i, 2, row[year])
		x.Set(i, 3+int(row[firm]), 1)
		y[i] = math.Log(invest[i])
	}
	return x, y, nil
}

// loadEngel reads engel: log(income) and log(foodexp).
func loadEngel() (*mat.Dense, []float64, error) {
	income, food, err := data.Engel()
	if err != nil {
		return nil, nil, err
	}
	rows, _ := income.Dims()
	x := mat.NewDense(rows, 1, nil)
	y := make([]float64, rows)
	for i := range rows {
		x.Set(i, 0, math.Log(income.At(i, 0)))
		y[i] = math.Log(food[i])
	}
	return x, y, nil
}

// expandEngel standardises the log income by the training rows (standardise) into z and
// returns the splits with the columns z, z^2, ..., z^engelPowers.
func expandEngel(train, val tasks.Dataset) (tasks.Dataset, tasks.Dataset) {
	standardise(train, val)
	powers := func(d tasks.Dataset) tasks.Dataset {
		out := tasks.Dataset{X: mat.NewDense(len(d.Y), engelPowers, nil), Y: d.Y}
		for i := range len(d.Y) {
			z, v := d.X.At(i, 0), 1.0
			for k := range engelPowers {
				v *= z
				out.X.Set(i, k, v)
			}
		}
		return out
	}
	return powers(train), powers(val)
}

// The randhie table's shape and the defaults of Config on it: one penalty per feature
// (D = RANDHIEFeatures, GroupSize 1), 1000 training rows, 2000 validation users and a
// clip of 4 on the squared error of log(1 + visits). The other tables' are in tables.
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
	// Table is "" for the synthetic problem, or a table: data.RANDHIELabel (the RAND
	// Health Insurance Experiment), data.GrunfeldLabel (Grunfeld's investment data) or
	// data.EngelLabel (Engel's food expenditure data); see the package comment and Tables.
	Table string
	// D is the number of feature groups, one penalty each (default 6; on a table the
	// table's d, the only value it takes: 9 on randhie, 4 on grunfeld, 6 on engel).
	D int
	// GroupSize is the number of features per group (default 2; on randhie and engel 1,
	// the only value it takes; on grunfeld, whose groups differ in size, 0).
	GroupSize int
	// Informative is the number of groups with non-zero true coefficients (default 2).
	// Synthetic problem only: 0 on a table.
	Informative int
	// NTrain and NVal are the training rows and the validation users (defaults 25, 200;
	// on a table drawn without replacement from its rows: on randhie 1000 and 2000, on
	// grunfeld 110 and 110, on engel 117 and 118).
	NTrain, NVal int
	// NoiseStd is the standard deviation of the targets' noise (default 1). Synthetic
	// problem only: 0 on a table.
	NoiseStd float64
	// Rho is the correlation of neighbouring features, rho^|j-k| (default 0.6). Synthetic
	// problem only: 0 on a table.
	Rho float64
	// LossBound clips every user's squared error (default 9, nine times the noise
	// variance; on randhie 4, on grunfeld 4, on engel 1): the declared bound holds by
	// construction.
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
	group      []int  // group[j] is the penalty group of feature j
	train, val tasks.Dataset
	// yMean is the training rows' mean of the table's target, subtracted from the
	// targets of both splits; 0 on the synthetic problem
	yMean  float64
	gram   *mat.SymDense // X^T X of the training rows
	xty    *mat.VecDense // X^T y
	lo, hi []float64
	// buffers
	a      *mat.SymDense
	chol   mat.Cholesky
	beta   *mat.VecDense
	pred   *mat.VecDense
	lambda []float64
}

// New draws the synthetic data cfg describes, or splits the table cfg.Table names. An
// unknown table is an error listing the known ones.
func New(cfg Config) (*Task, error) {
	if cfg.Table == "" {
		return newSynthetic(cfg)
	}
	tab, err := lookup(cfg.Table)
	if err != nil {
		return nil, err
	}
	return newTable(cfg, tab)
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
	group := make([]int, p)
	for j := range group {
		group[j] = j / cfg.GroupSize
	}
	return newTask(cfg, syntheticLabel, group, train, val, 0), nil
}

// newTable splits the table tab as cfg describes (see the package comment).
func newTable(cfg Config, tab table) (*Task, error) {
	label := tab.Label
	switch {
	case cfg.Informative != 0 || cfg.NoiseStd != 0 || cfg.Rho != 0:
		return nil, fmt.Errorf("ridge: Informative, NoiseStd and Rho describe the synthetic problem and must be 0 on the %s table, got %d, %v and %v", label, cfg.Informative, cfg.NoiseStd, cfg.Rho)
	case cfg.D != 0 && cfg.D != tab.D:
		return nil, fmt.Errorf("ridge: the %s table has D = %d, %s; got D = %d", label, tab.D, tab.Groups, cfg.D)
	case tab.groupSize == 1 && cfg.GroupSize != 0 && cfg.GroupSize != 1:
		return nil, fmt.Errorf("ridge: the %s table has one feature per group; got GroupSize %d", label, cfg.GroupSize)
	case tab.groupSize == 0 && cfg.GroupSize != 0:
		return nil, fmt.Errorf("ridge: the %s table's groups differ in size (%s); GroupSize must be 0, got %d", label, tab.Groups, cfg.GroupSize)
	}
	cfg.D, cfg.GroupSize = tab.D, tab.groupSize
	cfg.NTrain = cmp.Or(cfg.NTrain, tab.nTrain)
	cfg.NVal = cmp.Or(cfg.NVal, tab.NVal)
	cfg.LossBound = cmp.Or(cfg.LossBound, tab.lossBound)
	switch {
	case cfg.NTrain < 2 || cfg.NVal < 1 || cfg.NTrain+cfg.NVal > tab.rows:
		return nil, fmt.Errorf("ridge: need NTrain >= 2, NVal >= 1 and NTrain + NVal <= the %s table's %d rows, got %d and %d", label, tab.rows, cfg.NTrain, cfg.NVal)
	case !(cfg.LossBound > 0) || math.IsInf(cfg.LossBound, 0):
		return nil, fmt.Errorf("ridge: LossBound must be positive and finite, got %v", cfg.LossBound)
	}
	x, target, err := tab.load()
	if err != nil {
		return nil, err
	}
	if rows, p := x.Dims(); rows != tab.rows || p != tab.cols {
		return nil, fmt.Errorf("ridge: the %s table is %d x %d, want %d x %d", label, rows, p, tab.rows, tab.cols)
	}
	order := rand.New(rand.NewPCG(cfg.Seed, tab.stream)).Perm(tab.rows)
	take := func(idx []int) tasks.Dataset {
		d := tasks.Dataset{X: mat.NewDense(len(idx), tab.cols, nil), Y: make([]float64, len(idx))}
		for i, r := range idx {
			d.X.SetRow(i, x.RawRowView(r))
			d.Y[i] = target[r]
		}
		return d
	}
	train, val := take(order[:cfg.NTrain]), take(order[cfg.NTrain:cfg.NTrain+cfg.NVal])
	if tab.expand != nil {
		train, val = tab.expand(train, val)
	}
	standardise(train, val)
	// Centre the target by the training mean: with the features centred on the training
	// rows, the fit without intercept is then the fit with an unpenalised one.
	yMean := stat.Mean(train.Y, nil)
	for _, d := range []tasks.Dataset{train, val} {
		for i := range d.Y {
			d.Y[i] -= yMean
		}
	}
	group := make([]int, tab.Features)
	for j := range group {
		group[j] = tab.group(j)
	}
	return newTask(cfg, label, group, train, val, yMean), nil
}

// standardise standardises every feature of both splits by the training rows' mean and
// standard deviation (stat.MeanStdDev); a feature constant on the training rows (an
// indicator no training row has) carries nothing the fit can use and is set to 0 in both
// splits.
func standardise(train, val tasks.Dataset) {
	_, cols := train.X.Dims()
	for j := range cols {
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
}

// newTask is the task fitting cfg.D groups of features, group[j] the group of feature j,
// on train and validating on val, whatever the data.
func newTask(cfg Config, label string, group []int, train, val tasks.Dataset, yMean float64) *Task {
	p := len(group)
	t := &Task{cfg: cfg, label: label, group: group, train: train, val: val, yMean: yMean, lo: make([]float64, cfg.D), hi: make([]float64, cfg.D)}
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
	t.lambda = make([]float64, cfg.D)
	return t
}

// Dim is D, one log penalty per group (9 on randhie, 4 on grunfeld, 6 on engel).
func (t *Task) Dim() int { return t.cfg.D }

// Bounds is [-6, 4]^D.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name is "ridge".
func (t *Task) Name() string { return Name }

// DataLabel is "synthetic", or the table's label (data.RANDHIELabel, data.GrunfeldLabel
// or data.EngelLabel).
func (t *Task) DataLabel() string { return t.label }

// LossBound is the clip of every user's squared error.
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the training and validation splits; on a table standardised, the target
// (log(1 + mdvis) on randhie, log(invest) on grunfeld, log(foodexp) on engel) centred by
// its training mean.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Losses fits beta = (X^T X + diag(lambda))^-1 X^T y, lambda_j = e^theta_g for the features
// j of group g, by a Cholesky solve, and writes min((y_i - x_i beta)^2, LossBound) for every
// validation user into dst (on a table y is the centred target, see Data).
func (t *Task) Losses(theta, dst []float64) error {
	if len(theta) != t.cfg.D || len(dst) != t.cfg.NVal {
		return fmt.Errorf("ridge: theta of %d values (want %d), dst of %d (want %d)", len(theta), t.cfg.D, len(dst), t.cfg.NVal)
	}
	t.a.CopySym(t.gram)
	for g, v := range theta {
		t.lambda[g] = math.Exp(v)
	}
	for j, g := range t.group {
		t.a.SetSym(j, j, t.a.At(j, j)+t.lambda[g])
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
