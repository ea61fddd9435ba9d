// Package logreg is a tuning task on real data that is not one of the paper's: L2-penalised
// logistic regression on one of seven public tables of package data (iris with either of
// two targets) or on a synthetic problem, with the features' penalties in groups, lambda_g = e^theta_g for every feature of
// group g:
//
//   - breast-cancer (the default): the Breast Cancer Wisconsin (Diagnostic) table, benign
//     against malignant, one penalty per feature (d = 30);
//   - wine: the Wine table, cultivar 0 against the other two, one penalty per feature
//     (d = 13);
//   - digits: the optical-recognition digits table, odd against even digits, the 64 pixels
//     of the 8x8 image in 16 blocks of 2x2 pixels, one penalty per block (d = 16);
//   - anes96: the American National Election Studies 1996 table, label 1 for a respondent
//     expecting to vote for Dole and 0 for Clinton (the file's vote), one penalty per
//     feature (d = 9);
//   - modechoice: Greene and Hensher's travel mode choice table, one row per traveller,
//     label 1 for a traveller who flew and 0 for a ground mode, one penalty per attribute
//     (income, party size, and the terminal times, in-vehicle costs, in-vehicle times and
//     generalised costs of the modes: d = 6);
//   - iris: Fisher's iris table, label 1 for versicolor and 0 for setosa and virginica, one
//     penalty per feature (d = 4);
//   - iris-virginica: the same table, label 1 for virginica and 0 for setosa and
//     versicolor (d = 4);
//   - macrodata: the US macroeconomic table, one row per quarter t from 1959Q2 to 2009Q2,
//     label 1 when the unemployment rate of quarter t+1 is above that of quarter t, and
//     features of quarter t: the log growth from quarter t-1 of real GDP, consumption,
//     investment, government expenditure, disposable income, the CPI and M1, and the
//     levels of the treasury bill rate, the unemployment rate, inflation and the real
//     interest rate; one penalty per feature (d = 11). The rows are quarters of one time
//     series, split at random like every table's;
//   - synthetic: a problem drawn from Config.Seed, d features chosen by Config.D (1 to
//     100), one penalty each: x_ij ~ N(0, 1) independent, y_i ~ Bernoulli(sigmoid(x_i.w))
//     with no intercept, w_j = 2/sqrt(k) with alternating signs (+, -, +, ...) on the
//     first k = ceil(d/3) features and 0 on the others (drawSynthetic states the order of
//     the draws).
//
// Every table's and the synthetic problem's features are standardised by the training
// rows' means and standard deviations. Each validation row is a user, whose loss is its
// log loss with the predicted probability
// clamped to [0.001, 0.999], so that the declared bound -log(0.001) holds by construction.
// A few misclassified rows carry most of the validation loss.
package logreg

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"

	"dpgibo/data"
	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "logreg"

// features is d on the breast-cancer table: one penalty per feature. Other tables have
// their own (TableInfo.D).
const features = 30

// syntheticLabel is the data label of the synthetic problem.
const syntheticLabel = "synthetic"

// irisVirginicaLabel is the data label of Fisher's iris table with virginica labelled 1
// (data.IrisLabel labels versicolor 1).
const irisVirginicaLabel = "iris-virginica"

// The synthetic problem's default and largest d.
const (
	syntheticD    = 10
	syntheticMaxD = 100
)

// The box of theta = log lambda, per penalty group.
const (
	thetaLo = -8.0
	thetaHi = 6.0
)

// pMin clamps every predicted probability to [pMin, 1 - pMin]; a user's loss is then at
// most -log(pMin) (LossBound).
const pMin = 1e-3

// Defaults of Config on the breast-cancer table; other tables have their own
// (TableInfo.NTrain and NVal).
const (
	defaultNTrain = 285
	defaultNVal   = 284
)

// TableInfo describes a table the task runs on, without reading it.
type TableInfo struct {
	// Label is the table's data label (data.BreastCancerLabel, data.WineLabel,
	// data.DigitsLabel, data.ANES96Label, data.ModeChoiceLabel, data.IrisLabel,
	// data.MacrodataLabel, "iris-virginica"), or "synthetic" for the synthetic problem.
	Label string
	// Rows and Features are the table's rows and feature columns; the fit has Features + 1
	// coefficients (the intercept last). The synthetic problem has no rows to draw from (0:
	// it generates NTrain + NVal) and Features = D.
	Rows, Features int
	// D is the number of penalty groups, the task's dimension, and Groups says what they
	// are, e.g. "one penalty per feature". On the synthetic problem D is the default of
	// Config.D.
	D      int
	Groups string
	// MinD and MaxD are the smallest and largest d the task takes on the data: both D on a
	// table, whose d is fixed; 1 and 100 on the synthetic problem (Config.D).
	MinD, MaxD int
	// NTrain and NVal are the default split (every row of a table).
	NTrain, NVal int
}

// table is a TableInfo with what New needs to build the task.
type table struct {
	TableInfo
	// load reads a table; nil for the synthetic problem, which New draws (drawSynthetic).
	load func() (*mat.Dense, []float64, error)
	// positive reports whether a row of class c has the binary label 1.
	positive func(c float64) bool
	// group is the penalty group of feature j, in [0, D).
	group func(j int) int
}

func ownGroup(j int) int { return j }

// tables lists the known tables and the synthetic problem; the first is the default.
var tables = []table{
	{
		TableInfo: TableInfo{Label: data.BreastCancerLabel, Rows: 569, Features: features, D: features, Groups: "one penalty per feature", MinD: features, MaxD: features, NTrain: defaultNTrain, NVal: defaultNVal},
		load:      data.BreastCancer,
		positive:  func(c float64) bool { return c == 1 }, // benign
		group:     ownGroup,
	},
	{
		TableInfo: TableInfo{Label: data.WineLabel, Rows: 178, Features: 13, D: 13, Groups: "one penalty per feature", MinD: 13, MaxD: 13, NTrain: 89, NVal: 89},
		load:      data.Wine,
		positive:  func(c float64) bool { return c == 0 },
		group:     ownGroup,
	},
	{
		TableInfo: TableInfo{Label: data.DigitsLabel, Rows: 1797, Features: 64, D: 16, Groups: "one penalty per 2x2 block of the 8x8 pixels", MinD: 16, MaxD: 16, NTrain: 899, NVal: 898},
		load:      data.Digits,
		positive:  func(c float64) bool { return int(c)%2 == 1 },
		// pixel r*8+c of the 8x8 image belongs to the 2x2 block (r/2, c/2) of the 4x4 blocks
		group: func(j int) int { return (j/8/2)*4 + (j%8)/2 },
	},
	{
		TableInfo: TableInfo{Label: data.ANES96Label, Rows: 944, Features: 9, D: 9, Groups: "one penalty per feature", MinD: 9, MaxD: 9, NTrain: 472, NVal: 472},
		load:      data.ANES96,
		positive:  func(c float64) bool { return c == 1 }, // Dole
		group:     ownGroup,
	},
	{
		TableInfo: TableInfo{Label: data.ModeChoiceLabel, Rows: 210, Features: 17, D: 6, Groups: "one penalty per attribute: income, party size, terminal times, in-vehicle costs, in-vehicle times, generalised costs", MinD: 6, MaxD: 6, NTrain: 105, NVal: 105},
		load:      data.ModeChoice,
		positive:  func(c float64) bool { return c == 1 }, // flew
		// data.ModeChoiceFeatures: hinc, psize, 3 terminal times, then 4 of each attribute
		group: func(j int) int { return []int{0, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5}[j] },
	},
	{
		TableInfo: TableInfo{Label: data.IrisLabel, Rows: 150, Features: 4, D: 4, Groups: "one penalty per feature", MinD: 4, MaxD: 4, NTrain: 75, NVal: 75},
		load:      data.Iris,
		positive:  func(c float64) bool { return c == 1 }, // versicolor
		group:     ownGroup,
	},
	{
		TableInfo: TableInfo{Label: data.MacrodataLabel, Rows: 201, Features: 11, D: 11, Groups: "one penalty per feature", MinD: 11, MaxD: 11, NTrain: 100, NVal: 101},
		load:      data.Macrodata,
		positive:  func(c float64) bool { return c == 1 }, // unemployment rises next quarter
		group:     ownGroup,
	},
	{
		// The same table with another binary target: a problem of its own.
		TableInfo: TableInfo{Label: irisVirginicaLabel, Rows: 150, Features: 4, D: 4, Groups: "one penalty per feature", MinD: 4, MaxD: 4, NTrain: 75, NVal: 75},
		load:      data.Iris,
		positive:  func(c float64) bool { return c == 2 }, // virginica
		group:     ownGroup,
	},
	{
		TableInfo: TableInfo{Label: syntheticLabel, Features: syntheticD, D: syntheticD, Groups: "one penalty per feature", MinD: 1, MaxD: syntheticMaxD, NTrain: 200, NVal: 200},
		positive:  func(c float64) bool { return c == 1 },
		group:     ownGroup,
	},
}

// Tables returns the labels of the known tables, the default first.
func Tables() []string {
	labels := make([]string, len(tables))
	for i, tab := range tables {
		labels[i] = tab.Label
	}
	return labels
}

// Table returns the description of the table labelled label ("" is the default,
// data.BreastCancerLabel). It reads no data. An unknown label is an error listing the
// known ones.
func Table(label string) (TableInfo, error) {
	tab, err := lookup(label)
	return tab.TableInfo, err
}

func lookup(label string) (table, error) {
	if label == "" {
		return tables[0], nil
	}
	for _, tab := range tables {
		if tab.Label == label {
			return tab, nil
		}
	}
	known := make([]string, len(tables))
	for i, tab := range tables {
		known[i] = fmt.Sprintf("%q", tab.Label)
	}
	return table{}, fmt.Errorf("logreg: unknown table %q (known: %s; \"\" is %q)", label, strings.Join(known, ", "), tables[0].Label)
}

// fit's Newton iterations: at most maxNewton, stopping when a step's largest coordinate is
// below newtonTol.
const (
	maxNewton = 100
	newtonTol = 1e-10
)

// Config describes a logreg task. A zero field takes its default.
type Config struct {
	// Table is the data label of the table (see Tables): "" or data.BreastCancerLabel
	// (the default), data.WineLabel, data.DigitsLabel, data.ANES96Label,
	// data.ModeChoiceLabel, data.IrisLabel, data.MacrodataLabel, "iris-virginica" (iris with
	// virginica labelled 1), or "synthetic" for the
	// synthetic problem.
	Table string
	// D is the synthetic problem's number of features, one penalty each (default 10, at
	// most 100). On a table it is 0 or the table's d.
	D int
	// NTrain and NVal are the training rows and the validation users, drawn without
	// replacement from the table's rows (defaults: every row, split in halves; 285 and 284
	// of breast-cancer's 569, 89 and 89 of wine's 178, 899 and 898 of digits' 1797, 472
	// and 472 of anes96's 944, 105 and 105 of modechoice's 210 travellers, 75 and 75 of
	// iris' 150, 100 and 101 of macrodata's 201 quarters); on the synthetic problem the
	// rows drawn (defaults 200 and 200).
	NTrain, NVal int
	// Seed shuffles a table's rows before the split, or draws the synthetic problem.
	Seed uint64
}

// Task is the logreg task; it implements tasks.Task. Losses reuses buffers, so a Task is
// not safe for concurrent use.
type Task struct {
	cfg        Config
	tab        table
	p          int           // features; the fit has p + 1 coefficients, the intercept last
	group      []int         // group[j] is the penalty group of feature j
	train, val tasks.Dataset // standardised features (training means and deviations)
	lo, hi     []float64
	// buffers: the coefficients (intercept last), the Newton system and its solution, the
	// Newton iterate and every feature's penalty lambda_group[j]
	w, grad, step *mat.VecDense
	hess          *mat.SymDense
	chol          mat.Cholesky
	next, lambda  []float64
}

// New splits the table cfg.Table as cfg describes, or draws the synthetic problem, labels
// each row 0 or 1 (see the package comment) and standardises its features by the training
// rows' means and standard deviations.
func New(cfg Config) (*Task, error) {
	tab, err := lookup(cfg.Table)
	if err != nil {
		return nil, err
	}
	cfg.Table = tab.Label
	cfg.NTrain = cmp.Or(cfg.NTrain, tab.NTrain)
	cfg.NVal = cmp.Or(cfg.NVal, tab.NVal)
	var train, val tasks.Dataset
	if tab.load == nil {
		cfg.D = cmp.Or(cfg.D, tab.D)
		switch {
		case cfg.D < tab.MinD || cfg.D > tab.MaxD:
			return nil, fmt.Errorf("logreg: the %s problem takes D in [%d, %d], got %d", tab.Label, tab.MinD, tab.MaxD, cfg.D)
		case cfg.NTrain < 2 || cfg.NVal < 1:
			return nil, fmt.Errorf("logreg: need NTrain >= 2 and NVal >= 1, got %d and %d", cfg.NTrain, cfg.NVal)
		}
		tab.D, tab.Features = cfg.D, cfg.D
		train, val = drawSynthetic(cfg)
	} else {
		if cfg.D != 0 && cfg.D != tab.D {
			return nil, fmt.Errorf("logreg: the %s table has d = %d, %s; got D = %d", tab.Label, tab.D, tab.Groups, cfg.D)
		}
		cfg.D = tab.D
		if cfg.NTrain < 2 || cfg.NVal < 1 || cfg.NTrain+cfg.NVal > tab.Rows {
			return nil, fmt.Errorf("logreg: need NTrain >= 2, NVal >= 1 and NTrain + NVal <= the %s table's %d rows, got %d and %d", tab.Label, tab.Rows, cfg.NTrain, cfg.NVal)
		}
		x, y, err := tab.load()
		if err != nil {
			return nil, err
		}
		rows, p := x.Dims()
		if rows != tab.Rows || p != tab.Features {
			return nil, fmt.Errorf("logreg: the %s table is %d x %d, want %d x %d", tab.Label, rows, p, tab.Rows, tab.Features)
		}
		order := rand.New(rand.NewPCG(cfg.Seed, 0x6c6f67)).Perm(rows)
		take := func(idx []int) tasks.Dataset {
			d := tasks.Dataset{X: mat.NewDense(len(idx), p, nil), Y: make([]float64, len(idx))}
			for i, r := range idx {
				d.X.SetRow(i, x.RawRowView(r))
				if tab.positive(y[r]) {
					d.Y[i] = 1
				}
			}
			return d
		}
		train, val = take(order[:cfg.NTrain]), take(order[cfg.NTrain:cfg.NTrain+cfg.NVal])
	}
	p := tab.Features
	t := &Task{cfg: cfg, tab: tab, p: p, train: train, val: val}
	t.group = make([]int, p)
	for j := range t.group {
		t.group[j] = tab.group(j)
	}
	for j := 0; j < p; j++ {
		col := mat.Col(nil, j, t.train.X)
		mean, sd := 0.0, 0.0
		for _, v := range col {
			mean += v / float64(len(col))
		}
		for _, v := range col {
			sd += (v - mean) * (v - mean) / float64(len(col))
		}
		sd = math.Sqrt(sd)
		// A feature constant on the training rows (digits has pixels blank in every image
		// at the border) carries nothing the fit can use: it is set to 0 in both splits,
		// never divided by its zero standard deviation.
		for _, d := range []tasks.Dataset{t.train, t.val} {
			r, _ := d.X.Dims()
			for i := 0; i < r; i++ {
				if sd > 0 {
					d.X.Set(i, j, (d.X.At(i, j)-mean)/sd)
				} else {
					d.X.Set(i, j, 0)
				}
			}
		}
	}
	t.lo, t.hi = make([]float64, tab.D), make([]float64, tab.D)
	for j := range t.lo {
		t.lo[j], t.hi[j] = thetaLo, thetaHi
	}
	t.w, t.grad, t.step = mat.NewVecDense(p+1, nil), mat.NewVecDense(p+1, nil), mat.NewVecDense(p+1, nil)
	t.hess = mat.NewSymDense(p+1, nil)
	t.next, t.lambda = make([]float64, p+1), make([]float64, p)
	return t, nil
}

// Dim is the table's number of penalty groups: 30 on breast-cancer, 13 on wine, 16 on
// digits, 9 on anes96, 6 on modechoice, 4 on iris, 11 on macrodata; Config.D on the
// synthetic problem.
func (t *Task) Dim() int { return t.tab.D }

// Bounds is [-8, 6]^Dim.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name is "logreg".
func (t *Task) Name() string { return Name }

// DataLabel is the table's label (data.BreastCancerLabel, data.WineLabel,
// data.DigitsLabel, data.ANES96Label, data.ModeChoiceLabel, data.IrisLabel or
// data.MacrodataLabel), "iris-virginica" or "synthetic".
func (t *Task) DataLabel() string { return t.tab.Label }

// LossBound is -log(0.001), about 6.91.
func (t *Task) LossBound() float64 { return -math.Log(pMin) }

// LogLoss implements tasks.LogLosser: each user's loss is its clamped log loss.
func (t *Task) LogLoss() bool { return true }

// Data returns the standardised training and validation splits.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Losses fits the penalised logistic regression at lambda_g = e^theta_g (fit) and writes
// every validation user's clamped log loss into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if len(theta) != t.tab.D || len(dst) != t.cfg.NVal {
		return fmt.Errorf("logreg: theta of %d values (want %d), dst of %d (want %d)", len(theta), t.tab.D, len(dst), t.cfg.NVal)
	}
	if err := t.fit(theta); err != nil {
		return err
	}
	w := t.w.RawVector().Data
	for i := range dst {
		z := w[t.p]
		for j, v := range t.val.X.RawRowView(i) {
			z += v * w[j]
		}
		p := math.Min(1-pMin, math.Max(pMin, sigmoid(z)))
		if t.val.Y[i] == 1 {
			dst[i] = -math.Log(p)
		} else {
			dst[i] = -math.Log(1 - p)
		}
	}
	return tasks.CheckLosses(Name, theta, dst)
}

// fit minimises the penalised negative log-likelihood
//
//	sum_i log(1 + e^(-s_i (x_i.w + b))) + sum_j lambda_group(j) w_j^2 / 2,   s_i = 2 y_i - 1,
//
// (the intercept b unpenalised) by Newton's method from zero, halving a step that does not
// lower the objective; the objective is strictly convex, so the minimiser is unique.
func (t *Task) fit(theta []float64) error {
	n, p := t.cfg.NTrain, t.p
	for j, g := range t.group {
		t.lambda[j] = math.Exp(theta[g])
	}
	w := t.w.RawVector().Data
	for j := range w {
		w[j] = 0
	}
	obj := t.objective(theta, w)
	// The Newton system is accumulated in the upper triangle of hess's storage.
	hs := t.hess.RawSymmetric()
	h, stride := hs.Data, hs.Stride
	for it := 0; it < maxNewton; it++ {
		t.grad.Zero()
		t.hess.Zero()
		g := t.grad.RawVector().Data
		for i := 0; i < n; i++ {
			xi := t.train.X.RawRowView(i)
			z := w[p]
			for j, v := range xi {
				z += v * w[j]
			}
			pr := sigmoid(z)
			r, s := pr-t.train.Y[i], pr*(1-pr)
			for j, v := range xi {
				g[j] += r * v
			}
			g[p] += r
			for a := 0; a <= p; a++ {
				va := 1.0
				if a < p {
					va = xi[a]
				}
				row := h[a*stride : a*stride+p+1]
				for b := a; b < p; b++ {
					row[b] += s * va * xi[b]
				}
				row[p] += s * va
			}
		}
		for j, lambda := range t.lambda {
			g[j] += lambda * w[j]
			h[j*stride+j] += lambda
		}
		// A tiny ridge on the intercept keeps the system definite when every p(1-p) underflows.
		h[p*stride+p] += 1e-12
		if !t.chol.Factorize(t.hess) {
			return fmt.Errorf("logreg: the Newton system is not positive definite at theta=%s", tasks.FormatTheta(theta))
		}
		if err := t.chol.SolveVecTo(t.step, t.grad); err != nil {
			return fmt.Errorf("logreg: %w", err)
		}
		step := t.step.RawVector().Data
		size := 1.0
		next := t.next
		for halvings := 0; ; halvings++ {
			for j := range w {
				next[j] = w[j] - size*step[j]
			}
			if o := t.objective(theta, next); o <= obj || halvings == 30 {
				obj = o
				break
			}
			size /= 2
		}
		largest := 0.0
		for j := range w {
			largest = math.Max(largest, math.Abs(next[j]-w[j]))
		}
		copy(w, next)
		if largest < newtonTol {
			return nil
		}
	}
	return nil
}

// objective is the penalised negative log-likelihood at coefficients w (intercept last).
func (t *Task) objective(theta, w []float64) float64 {
	sum := 0.0
	for i := 0; i < t.cfg.NTrain; i++ {
		z := w[t.p]
		for j, v := range t.train.X.RawRowView(i) {
			z += v * w[j]
		}
		// log(1 + e^-m) for the margin m = s_i z, computed stably.
		m := z
		if t.train.Y[i] == 0 {
			m = -z
		}
		sum += math.Max(0, -m) + math.Log1p(math.Exp(-math.Abs(m)))
	}
	for j, g := range t.group {
		sum += 0.5 * math.Exp(theta[g]) * w[j] * w[j]
	}
	return sum
}

// syntheticStream is the PCG stream drawSynthetic draws from, with Config.Seed the seed.
const syntheticStream = 0x6c6f6773796e

// drawSynthetic draws the synthetic problem of cfg.D features: cfg.NTrain training rows,
// then cfg.NVal validation rows, from the generator PCG(cfg.Seed, syntheticStream) of
// math/rand/v2. Each row draws its d features x_j ~ N(0, 1), independent, in order, then
// one uniform u in [0, 1) for its label: y = 1 when u < sigmoid(x.w), else 0, so that y ~
// Bernoulli(sigmoid(x.w)). The true coefficients w are fixed by d: the first k = ceil(d/3)
// features carry signal, w_j = +2/sqrt(k) for j = 1, 3, 5, ... and -2/sqrt(k) for j = 2, 4,
// 6, ... (counting from 1), so that |w| = 2 whatever d; the others have w_j = 0, and the
// intercept is 0.
func drawSynthetic(cfg Config) (train, val tasks.Dataset) {
	d := cfg.D
	k := (d + 2) / 3
	w := make([]float64, d)
	for j := range k {
		w[j] = 2 / math.Sqrt(float64(k))
		if j%2 == 1 {
			w[j] = -w[j]
		}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, syntheticStream))
	draw := func(rows int) tasks.Dataset {
		ds := tasks.Dataset{X: mat.NewDense(rows, d, nil), Y: make([]float64, rows)}
		for i := range rows {
			row := ds.X.RawRowView(i)
			z := 0.0
			for j := range row {
				row[j] = rng.NormFloat64()
				z += row[j] * w[j]
			}
			if rng.Float64() < sigmoid(z) {
				ds.Y[i] = 1
			}
		}
		return ds
	}
	train = draw(cfg.NTrain)
	val = draw(cfg.NVal)
	return train, val
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}
