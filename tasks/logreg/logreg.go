// Package logreg is a tuning task on real data that is not one of the paper's: L2-penalised
// logistic regression on the Breast Cancer Wisconsin (Diagnostic) table (package data),
// with one penalty per feature, lambda_j = e^theta_j (d = 30). Each validation row is a
// user, whose loss is its log loss with the predicted probability clamped to
// [PMin, 1 - PMin], so that the declared bound -log(PMin) holds by construction. A few
// misclassified rows carry most of the validation loss.
package logreg

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"dpgibo/data"
	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "logreg"

// Features is d: one penalty per feature of the table.
const Features = 30

// The box of theta = log lambda, per feature.
const (
	ThetaLo = -8.0
	ThetaHi = 6.0
)

// PMin clamps every predicted probability to [PMin, 1 - PMin]; a user's loss is then at
// most -log(PMin) (LossBound).
const PMin = 1e-3

// Defaults of Config.
const (
	DefaultNTrain = 285
	DefaultNVal   = 284
)

// fit's Newton iterations: at most maxNewton, stopping when a step's largest coordinate is
// below newtonTol.
const (
	maxNewton = 100
	newtonTol = 1e-10
)

// Config describes a logreg task. A zero field takes its default.
type Config struct {
	// NTrain and NVal are the training rows and the validation users, drawn without
	// replacement from the table's 569 rows (defaults 285 and 284, every row).
	NTrain, NVal int
	// Seed shuffles the rows before the split.
	Seed uint64
}

// Task is the logreg task; it implements tasks.Task. Losses reuses buffers, so a Task is
// not safe for concurrent use.
type Task struct {
	cfg        Config
	train, val tasks.Dataset // standardised features (training means and deviations)
	lo, hi     []float64
	// buffers: the coefficients (intercept last), the Newton system and its solution
	w, grad, step *mat.VecDense
	hess          *mat.SymDense
	chol          mat.Cholesky
}

// New splits the table as cfg describes and standardises its features by the training
// rows' means and standard deviations.
func New(cfg Config) (*Task, error) {
	cfg.NTrain = cmp.Or(cfg.NTrain, DefaultNTrain)
	cfg.NVal = cmp.Or(cfg.NVal, DefaultNVal)
	x, y, err := data.BreastCancer()
	if err != nil {
		return nil, err
	}
	rows, _ := x.Dims()
	if cfg.NTrain < 2 || cfg.NVal < 1 || cfg.NTrain+cfg.NVal > rows {
		return nil, fmt.Errorf("logreg: need NTrain >= 2, NVal >= 1 and NTrain + NVal <= %d rows, got %d and %d", rows, cfg.NTrain, cfg.NVal)
	}
	order := rand.New(rand.NewPCG(cfg.Seed, 0x6c6f67)).Perm(rows)
	take := func(idx []int) tasks.Dataset {
		d := tasks.Dataset{X: mat.NewDense(len(idx), Features, nil), Y: make([]float64, len(idx))}
		for i, r := range idx {
			d.X.SetRow(i, x.RawRowView(r))
			d.Y[i] = y[r]
		}
		return d
	}
	t := &Task{cfg: cfg, train: take(order[:cfg.NTrain]), val: take(order[cfg.NTrain : cfg.NTrain+cfg.NVal])}
	for j := 0; j < Features; j++ {
		col := mat.Col(nil, j, t.train.X)
		mean, sd := 0.0, 0.0
		for _, v := range col {
			mean += v / float64(len(col))
		}
		for _, v := range col {
			sd += (v - mean) * (v - mean) / float64(len(col))
		}
		sd = math.Sqrt(sd)
		if !(sd > 0) {
			sd = 1
		}
		for _, d := range []tasks.Dataset{t.train, t.val} {
			r, _ := d.X.Dims()
			for i := 0; i < r; i++ {
				d.X.Set(i, j, (d.X.At(i, j)-mean)/sd)
			}
		}
	}
	t.lo, t.hi = make([]float64, Features), make([]float64, Features)
	for j := range t.lo {
		t.lo[j], t.hi[j] = ThetaLo, ThetaHi
	}
	t.w, t.grad, t.step = mat.NewVecDense(Features+1, nil), mat.NewVecDense(Features+1, nil), mat.NewVecDense(Features+1, nil)
	t.hess = mat.NewSymDense(Features+1, nil)
	return t, nil
}

// Dim is 30, one log penalty per feature.
func (t *Task) Dim() int { return Features }

// Bounds is [ThetaLo, ThetaHi]^30.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name is "logreg".
func (t *Task) Name() string { return Name }

// DataLabel is data.BreastCancerLabel.
func (t *Task) DataLabel() string { return data.BreastCancerLabel }

// LossBound is -log(PMin).
func (t *Task) LossBound() float64 { return -math.Log(PMin) }

// Data returns the standardised training and validation splits.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Losses fits the penalised logistic regression at lambda_j = e^theta_j (fit) and writes
// every validation user's clamped log loss into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if len(theta) != Features || len(dst) != t.cfg.NVal {
		return fmt.Errorf("logreg: theta of %d values (want %d), dst of %d (want %d)", len(theta), Features, len(dst), t.cfg.NVal)
	}
	if err := t.fit(theta); err != nil {
		return err
	}
	w := t.w.RawVector().Data
	for i := range dst {
		z := w[Features]
		for j, v := range t.val.X.RawRowView(i) {
			z += v * w[j]
		}
		p := math.Min(1-PMin, math.Max(PMin, sigmoid(z)))
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
//	sum_i log(1 + e^(-s_i (x_i.w + b))) + sum_j lambda_j w_j^2 / 2,   s_i = 2 y_i - 1,
//
// (the intercept b unpenalised) by Newton's method from zero, halving a step that does not
// lower the objective; the objective is strictly convex, so the minimiser is unique.
func (t *Task) fit(theta []float64) error {
	n := t.cfg.NTrain
	w := t.w.RawVector().Data
	for j := range w {
		w[j] = 0
	}
	obj := t.objective(theta, w)
	for it := 0; it < maxNewton; it++ {
		t.grad.Zero()
		t.hess.Zero()
		g := t.grad.RawVector().Data
		for i := 0; i < n; i++ {
			xi := t.train.X.RawRowView(i)
			z := w[Features]
			for j, v := range xi {
				z += v * w[j]
			}
			p := sigmoid(z)
			r, s := p-t.train.Y[i], p*(1-p)
			for j, v := range xi {
				g[j] += r * v
			}
			g[Features] += r
			for a := 0; a <= Features; a++ {
				va := 1.0
				if a < Features {
					va = xi[a]
				}
				for b := a; b <= Features; b++ {
					vb := 1.0
					if b < Features {
						vb = xi[b]
					}
					t.hess.SetSym(a, b, t.hess.At(a, b)+s*va*vb)
				}
			}
		}
		for j, v := range theta {
			lambda := math.Exp(v)
			g[j] += lambda * w[j]
			t.hess.SetSym(j, j, t.hess.At(j, j)+lambda)
		}
		// A tiny ridge on the intercept keeps the system definite when every p(1-p) underflows.
		t.hess.SetSym(Features, Features, t.hess.At(Features, Features)+1e-12)
		if !t.chol.Factorize(t.hess) {
			return fmt.Errorf("logreg: the Newton system is not positive definite at theta=%s", tasks.FormatTheta(theta))
		}
		if err := t.chol.SolveVecTo(t.step, t.grad); err != nil {
			return fmt.Errorf("logreg: %w", err)
		}
		step := t.step.RawVector().Data
		size := 1.0
		next := make([]float64, len(w))
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
		z := w[Features]
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
	for j, v := range theta {
		sum += 0.5 * math.Exp(v) * w[j] * w[j]
	}
	return sum
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}
