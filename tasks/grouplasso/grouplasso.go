// Package grouplasso is the synthetic group LASSO tuning task of the paper (section 2.2 and
// appendix "Examples"): one regularisation strength per feature group, tuned on held-out
// validation users, each evaluation refitting the group LASSO by ISTA.
//
// # Data
//
// The design has K = D groups of GroupSize contiguous columns, p = K * GroupSize features.
// Every example (row) is drawn independently. Within group k, one latent factor
// z ~ N(0, 1) is drawn for the row and each of the group's columns is a noisy copy of it:
//
//	x_j = sqrt(Rho) * z + sqrt(1 - Rho) * e_j,   e_j ~ N(0, 1) independent,
//
// so every column has unit variance and two columns of the same group have correlation
// Rho; columns of different groups are independent. The true coefficients beta* are
// N(0, 1) on the columns of the first Informative groups and zero elsewhere, and the target
// is y = <x, beta*> + NoiseStd * N(0, 1).
//
// NTrain + NVal rows are drawn; the first NTrain form the training split, the rest the
// validation split (one validation user per row). All draws come, in this order, from one
// PCG source seeded with Seed: beta* (group by group, column by column), then row by row
// the latent factor and column noise of each group followed by the target noise.
//
// Standardisation uses training statistics only: each feature column is centred with its
// training mean and divided by its training standard deviation (1/NTrain normalisation),
// and the target y is likewise centred with the training mean of y and divided by the
// training standard deviation of y. Validation rows are transformed with the same training
// statistics. With a standardised target the strength lambda_k has the same meaning for
// every seed: w = 0 is the solution exactly when every lambda_k is at least the norm of
// X_{G_k}^T y / NTrain, the vector of group k's correlations with the training target,
// which is at most sqrt(GroupSize). Data returns the standardised arrays, exactly what the
// solver and the losses use.
//
// # Hyperparameters and loss
//
// theta_k = log lambda_k in [-6, 0] for k = 1..K. An evaluation runs ISTAIters iterations of
// ISTA from w = 0 on
//
//	(1 / (2 NTrain)) |X_train w - y_train|^2 + sum_k lambda_k |w_{G_k}|_2
//
// with step 1/L, L the largest eigenvalue of X_train^T X_train / NTrain (computed once in
// New), and the group soft-threshold as proximal map. The loss of validation user i is
// 0.5 (y_i - <x_i, w(theta)>)^2 on the standardised scale.
package grouplasso

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "grouplasso"

// Box of theta_k = log lambda_k (appendix "Examples").
const (
	thetaLo = -6.0
	thetaHi = 0.0
)

// Defaults of Config; a zero field takes the default.
const (
	DefaultD           = 10
	DefaultGroupSize   = 5
	defaultRho         = 0.9
	defaultInformative = 1
	DefaultNTrain      = 50
	defaultNVal        = 150
	defaultNoiseStd    = 1.0
	DefaultISTAIters   = 200
	// defaultLossBound is 0.5 * 3^2: the loss of a validation residual of three training
	// standard deviations of y. The target is standardised with training statistics, so
	// the bound does not depend on the seed or on beta*; a predictor no better than zero
	// has loss 0.5*y_i^2, which exceeds it only for about 0.3% of users. Losses returns the
	// raw loss; only the private baselines clip to this bound.
	defaultLossBound = 4.5
)

// Config sets up the task. Every zero field takes the paper's default (stated on each
// field), so the zero Config is the appendix's setting with D = 10.
type Config struct {
	// D is the number of groups K and of hyperparameters; the paper sweeps 2, 10 and 20.
	// Zero means DefaultD = 10.
	D int
	// GroupSize is g, the number of contiguous columns per group (default 5).
	GroupSize int
	// Rho is the correlation between two columns of one group, in [0, 1) (default 0.9;
	// zero takes the default).
	Rho float64
	// Informative is K_inf, the number of leading groups with nonzero true coefficients
	// (default 1). It must not exceed D.
	Informative int
	// NTrain is the number of training rows (default 50).
	NTrain int
	// NVal is the number of validation rows, the users (default 150).
	NVal int
	// NoiseStd is the standard deviation of the target noise (default 1).
	NoiseStd float64
	// ISTAIters is the number of ISTA iterations per evaluation (default 200).
	ISTAIters int
	// Seed fixes every random draw of the data.
	Seed uint64
	// LossBound is the public per-user loss bound Lmax (default 4.5).
	LossBound float64
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	c.D = cmp.Or(c.D, DefaultD)
	c.GroupSize = cmp.Or(c.GroupSize, DefaultGroupSize)
	c.Rho = cmp.Or(c.Rho, defaultRho)
	c.Informative = cmp.Or(c.Informative, defaultInformative)
	c.NTrain = cmp.Or(c.NTrain, DefaultNTrain)
	c.NVal = cmp.Or(c.NVal, defaultNVal)
	c.NoiseStd = cmp.Or(c.NoiseStd, defaultNoiseStd)
	c.ISTAIters = cmp.Or(c.ISTAIters, DefaultISTAIters)
	c.LossBound = cmp.Or(c.LossBound, defaultLossBound)
	return c
}

func (c Config) validate() error {
	switch {
	case c.D < 1:
		return fmt.Errorf("grouplasso: D must be >= 1, got %d", c.D)
	case c.GroupSize < 1:
		return fmt.Errorf("grouplasso: GroupSize must be >= 1, got %d", c.GroupSize)
	case !(c.Rho >= 0 && c.Rho < 1):
		return fmt.Errorf("grouplasso: Rho must lie in [0, 1), got %v", c.Rho)
	case c.Informative < 0 || c.Informative > c.D:
		return fmt.Errorf("grouplasso: Informative must lie in [0, D=%d], got %d", c.D, c.Informative)
	case c.NTrain < 2:
		return fmt.Errorf("grouplasso: NTrain must be >= 2, got %d", c.NTrain)
	case c.NVal < 1:
		return fmt.Errorf("grouplasso: NVal must be >= 1, got %d", c.NVal)
	case !(c.NoiseStd >= 0) || math.IsInf(c.NoiseStd, 0):
		return fmt.Errorf("grouplasso: NoiseStd must be finite and >= 0, got %v", c.NoiseStd)
	case c.ISTAIters < 1:
		return fmt.Errorf("grouplasso: ISTAIters must be >= 1, got %d", c.ISTAIters)
	case !(c.LossBound > 0) || math.IsInf(c.LossBound, 0):
		return fmt.Errorf("grouplasso: LossBound must be finite and > 0, got %v", c.LossBound)
	}
	if maxD := c.maxD(); c.D > maxD {
		p := float64(c.D) * float64(c.GroupSize)
		return &tasks.LimitError{Task: Name, D: c.D, MaxD: maxD, Reason: fmt.Sprintf(
			"%d groups of %d features need a %.0f x %.0f Gram matrix, %.3g GiB; the task's memory is capped at %d GiB",
			c.D, c.GroupSize, p, p, 8*p*(p+float64(c.NTrain+c.NVal))/(1<<30), tasks.MaxTaskBytes>>30)}
	}
	return nil
}

// maxD is the largest number of groups whose Gram matrix (p x p) and data ((NTrain+NVal) x
// p), p = D*GroupSize, fit in tasks.MaxTaskBytes.
func (c Config) maxD() int {
	n := float64(c.NTrain + c.NVal)
	floats := float64(tasks.MaxTaskBytes) / 8
	p := (-n + math.Sqrt(n*n+4*floats)) / 2 // p^2 + n p = floats
	return int(p) / c.GroupSize
}

// MaxD is the largest D the task supports with c's other settings (zero fields take their
// defaults); New rejects a larger D with a tasks.LimitError. It builds nothing.
func (c Config) MaxD() int { return c.withDefaults().maxD() }

// Task is the group LASSO tuning task. It implements tasks.Task. Losses reuses internal
// buffers, so a Task is not safe for concurrent use; build one Task per goroutine.
type Task struct {
	cfg        Config
	groupSize  int
	train, val tasks.Dataset
	betaStar   []float64 // true coefficients on the original (unstandardised) scale

	gram   blas64.General // X_train^T X_train / NTrain, both triangles stored
	corr   []float64      // X_train^T y_train / NTrain
	lipsch float64        // L, the largest eigenvalue of gram

	lo, hi []float64
	// buffers reused by every evaluation
	lambda, w, next, pred []float64
}

// New draws the data described in the package documentation and prepares the solver.
func New(cfg Config) (*Task, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	p := cfg.D * cfg.GroupSize
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x67726f75706c6173))

	beta := make([]float64, p)
	for j := 0; j < cfg.Informative*cfg.GroupSize; j++ {
		beta[j] = rng.NormFloat64()
	}
	n := cfg.NTrain + cfg.NVal
	X := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	sr, sn := math.Sqrt(cfg.Rho), math.Sqrt(1-cfg.Rho)
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for k := 0; k < cfg.D; k++ {
			z := rng.NormFloat64()
			for j := k * cfg.GroupSize; j < (k+1)*cfg.GroupSize; j++ {
				row[j] = sr*z + sn*rng.NormFloat64()
			}
		}
		y[i] = blas64.Dot(blas64.Vector{N: p, Inc: 1, Data: row}, blas64.Vector{N: p, Inc: 1, Data: beta}) +
			cfg.NoiseStd*rng.NormFloat64()
	}
	if err := standardise(X, y, cfg.NTrain); err != nil {
		return nil, err
	}
	train := tasks.Dataset{X: mat.DenseCopyOf(X.Slice(0, cfg.NTrain, 0, p)), Y: append([]float64(nil), y[:cfg.NTrain]...)}
	val := tasks.Dataset{X: mat.DenseCopyOf(X.Slice(cfg.NTrain, n, 0, p)), Y: append([]float64(nil), y[cfg.NTrain:]...)}
	t, err := fromData(cfg, train, val)
	if err != nil {
		return nil, err
	}
	t.betaStar = beta
	return t, nil
}

// standardise centres and scales every column of X and the target y with the mean and
// standard deviation (1/nTrain normalisation) of the first nTrain rows.
func standardise(X *mat.Dense, y []float64, nTrain int) error {
	n, p := X.Dims()
	col := make([]float64, n)
	for j := 0; j < p; j++ {
		mat.Col(col, j, X)
		if err := scaleWithTrain(col, nTrain); err != nil {
			return fmt.Errorf("grouplasso: feature column %d: %w", j+1, err)
		}
		X.SetCol(j, col)
	}
	if err := scaleWithTrain(y, nTrain); err != nil {
		return fmt.Errorf("grouplasso: target: %w", err)
	}
	return nil
}

// scaleWithTrain replaces v by (v - m)/s, m and s the mean and standard deviation of
// v[:nTrain].
func scaleWithTrain(v []float64, nTrain int) error {
	m := 0.0
	for _, x := range v[:nTrain] {
		m += x
	}
	m /= float64(nTrain)
	s := 0.0
	for _, x := range v[:nTrain] {
		s += (x - m) * (x - m)
	}
	s = math.Sqrt(s / float64(nTrain))
	if !(s > 0) {
		return fmt.Errorf("training standard deviation is %v, cannot standardise", s)
	}
	for i := range v {
		v[i] = (v[i] - m) / s
	}
	return nil
}

// fromData builds the task on given (already standardised) splits: the Gram matrix
// X^T X / n, X^T y / n and the Lipschitz constant L of the smooth part's gradient.
func fromData(cfg Config, train, val tasks.Dataset) (*Task, error) {
	nTrain, p := train.X.Dims()
	if p != cfg.D*cfg.GroupSize {
		return nil, fmt.Errorf("grouplasso: data has %d columns, want D*GroupSize = %d", p, cfg.D*cfg.GroupSize)
	}
	g := mat.NewSymDense(p, nil)
	g.SymOuterK(1/float64(nTrain), train.X.T())
	corr := make([]float64, p)
	mat.NewVecDense(p, corr).MulVec(train.X.T(), mat.NewVecDense(nTrain, train.Y))
	for j := range corr {
		corr[j] /= float64(nTrain)
	}
	var eig mat.EigenSym
	if !eig.Factorize(g, false) {
		return nil, fmt.Errorf("grouplasso: eigen-decomposition of X^T X / n failed")
	}
	values := eig.Values(nil)
	lipsch := values[len(values)-1]
	if !(lipsch > 0) || math.IsInf(lipsch, 0) {
		return nil, fmt.Errorf("grouplasso: largest eigenvalue of X^T X / n is %v", lipsch)
	}
	lo, hi := make([]float64, cfg.D), make([]float64, cfg.D)
	for k := range lo {
		lo[k], hi[k] = thetaLo, thetaHi
	}
	nVal, _ := val.X.Dims()
	return &Task{
		cfg: cfg, groupSize: cfg.GroupSize, train: train, val: val,
		gram: mat.DenseCopyOf(g).RawMatrix(), corr: corr, lipsch: lipsch,
		lo: lo, hi: hi,
		lambda: make([]float64, cfg.D), w: make([]float64, p), next: make([]float64, p),
		pred: make([]float64, nVal),
	}, nil
}

// Dim is D, the number of groups.
func (t *Task) Dim() int { return t.cfg.D }

// Bounds returns the box [-6, 0]^D of log lambda. Callers must not modify the slices.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal, the number of validation users.
func (t *Task) Users() int { return len(t.val.Y) }

// Name returns "grouplasso".
func (t *Task) Name() string { return Name }

// DataLabel returns "synthetic".
func (t *Task) DataLabel() string { return "synthetic" }

// LossBound is the public per-user loss bound Lmax of the Config (default 4.5).
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the standardised training and validation splits. They are the task's own
// arrays: callers must not modify them.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Config returns the configuration with every default filled in.
func (t *Task) Config() Config { return t.cfg }

// BetaStar returns a copy of the true coefficients (before standardisation).
func (t *Task) BetaStar() []float64 { return append([]float64(nil), t.betaStar...) }

// Lipschitz returns L, the largest eigenvalue of X_train^T X_train / NTrain.
func (t *Task) Lipschitz() float64 { return t.lipsch }

// Losses fits the group LASSO with lambda = exp(theta) and writes the validation losses
// 0.5 (y_i - <x_i, w>)^2 into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if err := tasks.CheckTheta(Name, theta, t.lo, t.hi); err != nil {
		return err
	}
	if len(dst) != t.Users() {
		return fmt.Errorf("grouplasso: dst has length %d, want Users() = %d", len(dst), t.Users())
	}
	tasks.Exp(t.lambda, theta)
	w := t.fit(t.lambda, t.cfg.ISTAIters, nil)
	v := t.val.X.RawMatrix()
	blas64.Gemv(blas.NoTrans, 1, v, blas64.Vector{N: len(w), Inc: 1, Data: w}, 0, blas64.Vector{N: len(t.pred), Inc: 1, Data: t.pred})
	for i, yi := range t.val.Y {
		r := yi - t.pred[i]
		dst[i] = 0.5 * r * r
	}
	return tasks.CheckLosses(Name, theta, dst)
}

// Coefficients returns a copy of w(theta), the ISTA solution used by Losses.
func (t *Task) Coefficients(theta []float64) ([]float64, error) {
	if err := tasks.CheckTheta(Name, theta, t.lo, t.hi); err != nil {
		return nil, err
	}
	tasks.Exp(t.lambda, theta)
	return append([]float64(nil), t.fit(t.lambda, t.cfg.ISTAIters, nil)...), nil
}

// fit runs iters ISTA iterations from w = 0 with per-group strengths lambda and returns
// the final iterate (an internal buffer, overwritten by the next call). If trace is non-nil
// it is called after every iteration with the current iterate.
func (t *Task) fit(lambda []float64, iters int, trace func(w []float64)) []float64 {
	w, next := t.w, t.next
	for j := range w {
		w[j] = 0
	}
	step := 1 / t.lipsch
	p := len(w)
	for it := 0; it < iters; it++ {
		// next = w - step * (G w - c), then the proximal map.
		copy(next, w)
		blas64.Gemv(blas.NoTrans, -step, t.gram, blas64.Vector{N: p, Inc: 1, Data: w}, 1, blas64.Vector{N: p, Inc: 1, Data: next})
		for j, c := range t.corr {
			next[j] += step * c
		}
		groupSoftThreshold(next, lambda, step, t.groupSize)
		copy(w, next)
		if trace != nil {
			trace(w)
		}
	}
	return w
}

// groupSoftThreshold applies the proximal map of step * sum_k lambda_k |v_{G_k}|_2 in
// place: each group is shrunk towards zero by step*lambda_k in norm, and set exactly to
// zero when its norm does not exceed that.
func groupSoftThreshold(v, lambda []float64, step float64, groupSize int) {
	for k, lam := range lambda {
		g := v[k*groupSize : (k+1)*groupSize]
		norm := blas64.Nrm2(blas64.Vector{N: groupSize, Inc: 1, Data: g})
		thr := step * lam
		if norm <= thr {
			for j := range g {
				g[j] = 0
			}
			continue
		}
		scale := 1 - thr/norm
		for j := range g {
			g[j] *= scale
		}
	}
}
