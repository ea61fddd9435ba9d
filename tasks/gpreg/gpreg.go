// Package gpreg is the GP regression tuning task of the paper (section 4 and appendix
// "Examples"): the hyperparameters are the per-dimension log length-scales of an RBF
// kernel, each evaluation fits GP regression on the training split with those
// length-scales and the loss of validation user i is the squared error of the predictive
// mean at the i-th validation point.
//
// # Data
//
// NTrain + NVal inputs are drawn independently and uniformly on the unit cube [0, 1]^D.
// The true length-scale of dimension j is
//
//	l*_j = sqrt(D) * s_j,   log s_j ~ Uniform[log TrueScaleLo, log TrueScaleHi]
//
// (defaults 0.15 and 0.6). The factor sqrt(D) keeps the typical scaled distance between two
// inputs, and so the difficulty of the regression, roughly the same for every D, while the
// spread of s_j makes some dimensions several times more relevant than others, which is
// what tuning per-dimension length-scales can exploit. The targets are one joint draw
//
//	y ~ N(0, K* + NoiseStd^2 I),   K*_ab = SignalVariance * exp(-0.5 sum_j (x_aj - x_bj)^2 / l*_j^2),
//
// that is, noisy observations of one sample path of a zero-mean GP with the ARD RBF kernel
// (defaults SignalVariance = 1, NoiseStd = 0.1). The first NTrain rows are the training
// split, the rest the validation split (one user per row). Nothing is standardised: Data
// returns the inputs and targets as drawn.
//
// All draws come, in this order, from one PCG source seeded with Seed: the D scale factors
// s_j, the inputs row by row, then the NTrain + NVal standard normals z with y = C z, C the
// lower Cholesky factor of K* + NoiseStd^2 I. One seed gives the same data bit for bit on a
// given platform and BLAS: the Cholesky factorisation runs on whatever implementation blas64
// is switched to, so the pure-Go and the OpenBLAS builds (tag openblas) may differ in the
// last bits of y.
//
// # Hyperparameters and loss
//
// theta_j = log l_j, the log length-scale of dimension j, in the box
// [-3, 3] (l_j from 0.05 to 20), which contains every true length-scale for D up to 100
// with the default scale range. An evaluation builds K = k_theta(X_train, X_train) +
// NoiseStd^2 I with the true SignalVariance and NoiseStd held fixed, factorises it once by
// Cholesky, solves alpha = K^{-1} y_train, and predicts mu_i = k_theta(x_i, X_train) alpha
// for every validation input x_i. The loss of user i is (y_i - mu_i)^2. Each kernel matrix
// comes from one BLAS product (Dsyrk or Dgemm) on the inputs scaled by 1/l_j; all buffers
// are allocated once in New.
package gpreg

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"dpgibo/tasks"
)

// Name is the task's registry name.
const Name = "gpreg"

// Box of theta_j = log l_j.
const (
	thetaLo = -3.0
	thetaHi = 3.0
)

// Defaults of Config; a zero field takes the default.
const (
	// defaultD is the appendix's dimension (the main text sweeps 2, 5 and 10).
	defaultD = 15
	// DefaultNTrain and DefaultNVal split the paper's n = 2000 points 50/50.
	DefaultNTrain         = 1000
	DefaultNVal           = 1000
	defaultSignalVariance = 1.0
	defaultNoiseStd       = 0.1
	defaultTrueScaleLo    = 0.15
	defaultTrueScaleHi    = 0.6
)

// Config sets up the task. Every zero field takes its default (stated on the field), so
// the zero Config is the appendix's setting: d = 15, n = 2000 split 50/50.
type Config struct {
	// D is the input dimension and the number of hyperparameters (default 15).
	D int
	// NTrain is the number of training points (default 1000).
	NTrain int
	// NVal is the number of validation points, the users (default 1000).
	NVal int
	// SignalVariance is the kernel's variance, used both to draw the data and to fit
	// (default 1).
	SignalVariance float64
	// NoiseStd is the observation noise standard deviation, used both to draw the data and
	// to fit (default 0.1).
	NoiseStd float64
	// TrueScaleLo and TrueScaleHi bound the factors s_j of the true length-scales
	// l*_j = sqrt(D) s_j (defaults 0.15 and 0.6). Zero takes the default.
	TrueScaleLo, TrueScaleHi float64
	// Seed fixes every random draw of the data.
	Seed uint64
	// LossBound is the public per-user loss bound Lmax (default 9 (SignalVariance +
	// NoiseStd^2), computed from the filled-in variances).
	LossBound float64
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	c.D = cmp.Or(c.D, defaultD)
	c.NTrain = cmp.Or(c.NTrain, DefaultNTrain)
	c.NVal = cmp.Or(c.NVal, DefaultNVal)
	c.SignalVariance = cmp.Or(c.SignalVariance, defaultSignalVariance)
	c.NoiseStd = cmp.Or(c.NoiseStd, defaultNoiseStd)
	c.TrueScaleLo = cmp.Or(c.TrueScaleLo, defaultTrueScaleLo)
	c.TrueScaleHi = cmp.Or(c.TrueScaleHi, defaultTrueScaleHi)
	if c.LossBound == 0 {
		// The default bound, 9 (SignalVariance + NoiseStd^2), is the squared error of a
		// residual of three marginal standard deviations of y. A validation target alone
		// exceeds it in about 0.3% of cases, and a GP predictive mean is a shrunken
		// interpolation of training targets, so only badly wrong length-scales push many
		// users above it. Losses returns the raw loss; only the private baselines clip.
		c.LossBound = 9 * (c.SignalVariance + c.NoiseStd*c.NoiseStd)
	}
	return c
}

func positiveFinite(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

func (c Config) validate() error {
	switch {
	case c.D < 1:
		return fmt.Errorf("gpreg: D must be >= 1, got %d", c.D)
	case c.NTrain < 1:
		return fmt.Errorf("gpreg: NTrain must be >= 1, got %d", c.NTrain)
	case c.NVal < 1:
		return fmt.Errorf("gpreg: NVal must be >= 1, got %d", c.NVal)
	case !positiveFinite(c.SignalVariance):
		return fmt.Errorf("gpreg: SignalVariance must be finite and > 0, got %v", c.SignalVariance)
	case !positiveFinite(c.NoiseStd):
		return fmt.Errorf("gpreg: NoiseStd must be finite and > 0, got %v", c.NoiseStd)
	case !positiveFinite(c.TrueScaleLo) || !positiveFinite(c.TrueScaleHi) || c.TrueScaleLo > c.TrueScaleHi:
		return fmt.Errorf("gpreg: need 0 < TrueScaleLo <= TrueScaleHi < Inf, got %v and %v", c.TrueScaleLo, c.TrueScaleHi)
	case !positiveFinite(c.LossBound):
		return fmt.Errorf("gpreg: LossBound must be finite and > 0, got %v", c.LossBound)
	}
	if maxD := c.maxD(); c.D > maxD {
		return &tasks.LimitError{Task: Name, D: c.D, MaxD: maxD, Reason: fmt.Sprintf(
			"the true length-scales sqrt(d)*s, s up to %v, must lie in the box of length-scales [e^%v, e^%v]",
			c.TrueScaleHi, thetaLo, thetaHi)}
	}
	return nil
}

// maxD is the largest D whose true log length-scales 0.5 log D + log s, s in
// [TrueScaleLo, TrueScaleHi], all lie at most thetaHi.
func (c Config) maxD() int {
	return int(math.Exp(2 * (thetaHi - math.Log(c.TrueScaleHi))))
}

// MaxD is the largest D the task supports with c's other settings (zero fields take their
// defaults); New rejects a larger D with a tasks.LimitError. It builds nothing.
func (c Config) MaxD() int { return c.withDefaults().maxD() }

// Task is the GP regression tuning task. It implements tasks.Task. Losses reuses internal
// buffers, so a Task is not safe for concurrent use; build one Task per goroutine.
type Task struct {
	cfg        Config
	train, val tasks.Dataset
	trueTheta  []float64
	lo, hi     []float64

	// buffers reused by every evaluation
	norms       []float64 // squared row norms of the scaled inputs
	invScale    []float64
	scaledTrain *mat.Dense    // X_train with column j divided by l_j
	scaledVal   *mat.Dense    // X_val likewise
	gram        *mat.SymDense // K + noise I, overwritten by its Cholesky factor
	alpha       []float64     // K^{-1} y_train
	cross       *mat.Dense    // k(X_val, X_train)
	mean        []float64     // predictive means at the validation inputs
}

// New draws the data described in the package documentation.
func New(cfg Config) (*Task, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d, n := cfg.D, cfg.NTrain+cfg.NVal
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6770726567))

	trueTheta := make([]float64, d)
	logLo, logHi := math.Log(cfg.TrueScaleLo), math.Log(cfg.TrueScaleHi)
	for j := range trueTheta {
		trueTheta[j] = 0.5*math.Log(float64(d)) + logLo + (logHi-logLo)*rng.Float64()
		if trueTheta[j] < thetaLo || trueTheta[j] > thetaHi {
			return nil, fmt.Errorf("gpreg: true log length-scale %v of dimension %d lies outside the box [%v, %v]; narrow TrueScaleLo/TrueScaleHi", trueTheta[j], j+1, thetaLo, thetaHi)
		}
	}
	X := mat.NewDense(n, d, nil)
	raw := X.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.Float64()
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	y, err := drawTargets(cfg, X, trueTheta, z)
	if err != nil {
		return nil, err
	}
	train := tasks.Dataset{X: mat.DenseCopyOf(X.Slice(0, cfg.NTrain, 0, d)), Y: y[:cfg.NTrain:cfg.NTrain]}
	val := tasks.Dataset{X: mat.DenseCopyOf(X.Slice(cfg.NTrain, n, 0, d)), Y: y[cfg.NTrain:]}
	t := fromData(cfg, train, val)
	t.trueTheta = trueTheta
	return t, nil
}

// drawTargets returns y = C z with C C^T = K* + NoiseStd^2 I, K* the ARD RBF kernel with log
// length-scales trueTheta on the rows of X, computed entry by entry.
func drawTargets(cfg Config, X *mat.Dense, trueTheta, z []float64) ([]float64, error) {
	n, d := X.Dims()
	inv2 := make([]float64, d)
	for j, th := range trueTheta {
		inv2[j] = math.Exp(-2 * th)
	}
	cov := make([]float64, n*n) // upper triangle, row-major
	noiseVar := cfg.NoiseStd * cfg.NoiseStd
	for a := 0; a < n; a++ {
		xa := X.RawRowView(a)
		cov[a*n+a] = cfg.SignalVariance + noiseVar
		for b := a + 1; b < n; b++ {
			xb := X.RawRowView(b)
			s := 0.0
			for j, v := range xa {
				t := v - xb[j]
				s += t * t * inv2[j]
			}
			cov[a*n+b] = cfg.SignalVariance * math.Exp(-0.5*s)
		}
	}
	if !(lapackgonum.Implementation{}).Dpotrf(blas.Upper, n, cov, n) {
		return nil, fmt.Errorf("gpreg: Cholesky of the data covariance failed (n = %d)", n)
	}
	// cov now holds U with U^T U = K; y = U^T z.
	y := append([]float64(nil), z...)
	blas64.Trmv(blas.Trans, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: n, Data: cov},
		blas64.Vector{N: n, Inc: 1, Data: y})
	return y, nil
}

// fromData builds the task on given splits and allocates the evaluation buffers.
func fromData(cfg Config, train, val tasks.Dataset) *Task {
	nTrain, d := train.X.Dims()
	nVal, _ := val.X.Dims()
	lo, hi := make([]float64, d), make([]float64, d)
	for j := range lo {
		lo[j], hi[j] = thetaLo, thetaHi
	}
	return &Task{
		cfg: cfg, train: train, val: val, lo: lo, hi: hi,
		norms:       make([]float64, nTrain+nVal),
		invScale:    make([]float64, d),
		scaledTrain: mat.NewDense(nTrain, d, nil),
		scaledVal:   mat.NewDense(nVal, d, nil),
		gram:        mat.NewSymDense(nTrain, nil),
		alpha:       make([]float64, nTrain),
		cross:       mat.NewDense(nVal, nTrain, nil),
		mean:        make([]float64, nVal),
	}
}

// Dim is D, the number of length-scales.
func (t *Task) Dim() int { return t.cfg.D }

// Bounds returns the box [-3, 3]^D of log length-scales. Callers must not modify the slices.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users is NVal, the number of validation users.
func (t *Task) Users() int { return len(t.val.Y) }

// Name returns "gpreg".
func (t *Task) Name() string { return Name }

// DataLabel returns "synthetic".
func (t *Task) DataLabel() string { return "synthetic" }

// LossBound is the public per-user loss bound Lmax of the Config (default
// 9 (SignalVariance + NoiseStd^2)).
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the training and validation splits as drawn. They are the task's own
// arrays: callers must not modify them.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Config returns the configuration with every default filled in.
func (t *Task) Config() Config { return t.cfg }

// TrueTheta returns a copy of the log length-scales the data was drawn with.
func (t *Task) TrueTheta() []float64 { return append([]float64(nil), t.trueTheta...) }

// Losses fits GP regression with length-scales exp(theta) and writes the squared errors
// (y_i - mu_i)^2 of the predictive means at the validation inputs into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if err := tasks.CheckTheta(Name, theta, t.lo, t.hi); err != nil {
		return err
	}
	if len(dst) != t.Users() {
		return fmt.Errorf("gpreg: dst has length %d, want Users() = %d", len(dst), t.Users())
	}
	if err := t.predict(theta); err != nil {
		return err
	}
	for i, yi := range t.val.Y {
		r := yi - t.mean[i]
		dst[i] = r * r
	}
	return tasks.CheckLosses(Name, theta, dst)
}

// predict fills t.mean with the GP predictive means at the validation inputs for log
// length-scales theta.
func (t *Task) predict(theta []float64) error {
	for j, th := range theta {
		t.invScale[j] = math.Exp(-th)
	}
	scaleColumns(t.scaledTrain, t.train.X, t.invScale)
	scaleColumns(t.scaledVal, t.val.X, t.invScale)

	noiseVar := t.cfg.NoiseStd * t.cfg.NoiseStd
	gramUpper(t.gram.RawSymmetric(), t.scaledTrain.RawMatrix(), t.cfg.SignalVariance, noiseVar, t.norms)
	// K = U^T U. gonum's blocked Cholesky runs its level-3 updates on the BLAS blas64 is
	// switched to; with OpenBLAS it is faster than LAPACKE's row-major Dpotrf, which
	// transposes the matrix twice. alpha = U^{-1} U^{-T} y by two triangular solves.
	nTrain := len(t.alpha)
	g := t.gram.RawSymmetric()
	if !(lapackgonum.Implementation{}).Dpotrf(blas.Upper, nTrain, g.Data, g.Stride) {
		return fmt.Errorf("gpreg: Cholesky of the training kernel matrix failed at theta=%s", tasks.FormatTheta(theta))
	}
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: nTrain, Stride: g.Stride, Data: g.Data}
	copy(t.alpha, t.train.Y)
	alpha := blas64.Vector{N: nTrain, Inc: 1, Data: t.alpha}
	blas64.Trsv(blas.Trans, u, alpha)
	blas64.Trsv(blas.NoTrans, u, alpha)

	crossKernel(t.cross.RawMatrix(), t.scaledVal.RawMatrix(), t.scaledTrain.RawMatrix(), t.cfg.SignalVariance, t.norms)
	blas64.Gemv(blas.NoTrans, 1, t.cross.RawMatrix(),
		blas64.Vector{N: len(t.alpha), Inc: 1, Data: t.alpha}, 0,
		blas64.Vector{N: len(t.mean), Inc: 1, Data: t.mean})
	return nil
}

// scaleColumns writes src with column j multiplied by s[j] into dst.
func scaleColumns(dst, src *mat.Dense, s []float64) {
	r, _ := src.Dims()
	for i := 0; i < r; i++ {
		out, in := dst.RawRowView(i), src.RawRowView(i)
		for j, v := range in {
			out[j] = v * s[j]
		}
	}
}
