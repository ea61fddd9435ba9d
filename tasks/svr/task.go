package svr

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"dpgibo/data"
	"dpgibo/tasks"

	"gonum.org/v1/gonum/mat"
)

// Name is the task's registry name.
const Name = "svr"

// Defaults of Config (the paper's appendix "Hyperparameter tuning of an SVM").
const (
	DefaultNTrain = 1000
	DefaultNVal   = 9000
	DefaultP      = 100
)

// defaultLossBound is the default public per-user loss bound Lmax, in squared standardised
// target units (see Config.LossBound).
const defaultLossBound = 4.0

// fetchHint is the command that downloads the real CT-slice data (run from the repository
// root).
const fetchHint = data.FetchCommand

// The box of theta, natural units (each coordinate is optimised in log space).
const (
	logLengthscaleMin = -2.0
	logLengthscaleMax = 2.0
	epsilonMin        = 0.01
	epsilonMax        = 1.0
	cMin              = 0.1
	cMax              = 3.0
	gammaMin          = 0.01
	gammaMax          = 5.0
)

// Config configures the svr task. Its zero value is the paper's setting on whatever data
// the lookup finds.
type Config struct {
	// NTrain is the number of training rows (default 1000).
	NTrain int
	// NVal is the number of validation rows, the users (default 9000).
	NVal int
	// P is the number of features, a random subset of the 384 (default 100). The task's
	// dimension is d = P + 3.
	P int
	// Seed draws the rows (training and validation, disjoint, uniformly without
	// replacement) and the feature subset.
	Seed uint64
	// Path is the CT-slice CSV, UCI zip or a directory holding either (the runner's
	// -ctslice flag); "" applies the rest of the lookup order: $DPGIBO_CTSLICE, then
	// data/ctslice/ (working directory, then repository root). When nothing is found the
	// stand-in is used.
	Path string
	// Standin forces the generated stand-in even when the real data is present.
	Standin bool
	// Sample runs on the embedded real sample (data.Sample, labelled data.SampleLabel)
	// instead of looking for the full file, split by patient: the training rows are drawn
	// from the slices of patient data.SampleTrainPatient and the validation users from those
	// of patient data.SampleValPatient, so a user is one CT slice. NTrain and NVal default
	// to every slice of the two patients (583 and 98).
	Sample bool
	// LossBound is Lmax, the public per-user loss bound that private baselines clip each
	// per-user loss to (default 4). See Task.LossBound.
	LossBound float64
	// Tol is the SMO stopping tolerance (default 1e-3).
	Tol float64
	// MaxIter is the SMO iteration guard (default max(10 000 000, 100 NTrain)).
	MaxIter int
	// PredictPrecision is the precision of the prediction's cross products,
	// PrecisionFloat64 or PrecisionFloat32 ("" : DefaultPredictPrecision); see
	// SVR.SinglePrecisionPredict.
	PredictPrecision string
}

// The precisions of Config.PredictPrecision.
const (
	PrecisionFloat64 = "float64"
	PrecisionFloat32 = "float32"
)

// DefaultPredictPrecision is the precision of the prediction's cross products when
// Config.PredictPrecision is empty: float32 since the precision study (docs/library.md,
// "SVR evaluation") showed it non-inferior to float64 on every svr figure.
const DefaultPredictPrecision = PrecisionFloat32

func (c *Config) defaults(sample *data.CTSlice) {
	if c.NTrain == 0 {
		c.NTrain = DefaultNTrain
		if sample != nil {
			c.NTrain = len(data.PatientRows(sample, data.SampleTrainPatient))
		}
	}
	if c.NVal == 0 {
		c.NVal = DefaultNVal
		if sample != nil {
			c.NVal = len(data.PatientRows(sample, data.SampleValPatient))
		}
	}
	c.P = cmp.Or(c.P, DefaultP)
	c.LossBound = cmp.Or(c.LossBound, defaultLossBound)
	c.PredictPrecision = cmp.Or(c.PredictPrecision, DefaultPredictPrecision)
}

// Task tunes an epsilon-SVR with the ARD-RBF kernel on the CT-slice data. It implements
// tasks.Task (and so algo.Objective).
//
// theta = (log l_1, ..., log l_P, log epsilon, log C, log gamma), d = P + 3, in the box
// log l_j in [-2, 2], epsilon in [0.01, 1], C in [0.1, 3], gamma in [0.01, 5] (log space).
// Losses fits the SVR on the training rows at theta and returns, for validation user i,
// the squared error (z_i - f(x_i))^2.
//
// Scaling: the features are used as the file has them (already on a common scale: values
// in [0, 1], -0.25 outside the image; no standardisation). The target is standardised with
// the training rows' mean and standard deviation (n - 1 denominator):
// z = (reference - mean) / sd. Losses, the figure of merit (validation MSE) and LossBound
// are therefore in squared standardised target units; multiply by TargetScale()^2 for
// squared reference units. Epsilon is in standardised units too.
//
// Losses reuses buffers: a Task is not safe for concurrent use (create one per worker;
// the loaded data is shared between tasks and read only).
type Task struct {
	cfg       Config
	found     data.Found
	synthetic bool
	features  []int
	trainRows []int
	valRows   []int
	train     tasks.Dataset
	val       tasks.Dataset
	mean, sd  float64
	lo, hi    []float64

	model SVR
	pred  []float64
	hyper Hyper
}

// New builds the task: it finds and loads the data (or generates the stand-in), draws the
// rows and features with cfg.Seed and standardises the target.
func New(cfg Config) (*Task, error) {
	var sample *data.CTSlice
	if cfg.Sample {
		if cfg.Standin {
			return nil, fmt.Errorf("svr: Sample and Standin are both set; choose one data set")
		}
		var err error
		if sample, err = data.Sample(); err != nil {
			return nil, fmt.Errorf("svr: %w", err)
		}
	}
	cfg.defaults(sample)
	if cfg.NTrain < 2 || cfg.NVal < 1 {
		return nil, fmt.Errorf("svr: need NTrain >= 2 and NVal >= 1, got %d and %d", cfg.NTrain, cfg.NVal)
	}
	if cfg.P < 1 || cfg.P > data.Features {
		return nil, fmt.Errorf("svr: P must be in [1, %d], got %d", data.Features, cfg.P)
	}
	if !(cfg.LossBound > 0) || math.IsInf(cfg.LossBound, 0) {
		return nil, fmt.Errorf("svr: LossBound must be finite and > 0, got %v", cfg.LossBound)
	}
	if cfg.PredictPrecision != PrecisionFloat64 && cfg.PredictPrecision != PrecisionFloat32 {
		return nil, fmt.Errorf("svr: PredictPrecision must be %q or %q, got %q", PrecisionFloat64, PrecisionFloat32, cfg.PredictPrecision)
	}
	t := &Task{cfg: cfg}
	var all *data.CTSlice
	if cfg.Sample {
		return t.fromSample(sample)
	}
	if cfg.Standin {
		t.found = data.Found{Origin: data.OriginNone}
	} else {
		found, err := data.Find(cfg.Path)
		if err != nil {
			return nil, fmt.Errorf("svr: %w", err)
		}
		t.found = found
	}
	if t.found.Path == "" {
		t.synthetic = true
		all = standin()
	} else {
		d, err := loadCached(t.found.Path)
		if err != nil {
			return nil, fmt.Errorf("svr: %w", err)
		}
		all = d
	}
	if need := cfg.NTrain + cfg.NVal; need > all.Rows() {
		return nil, fmt.Errorf("svr: NTrain + NVal = %d exceeds the %d rows of the data", need, all.Rows())
	}

	rng := t.drawFeatures()
	rows := rng.Perm(all.Rows())[:cfg.NTrain+cfg.NVal]
	return t.finish(all, rows[:cfg.NTrain], rows[cfg.NTrain:])
}

// drawFeatures draws the feature subset and returns the source that then draws the rows.
func (t *Task) drawFeatures() *rand.Rand {
	rng := rand.New(rand.NewPCG(t.cfg.Seed, 0x737672)) // "svr"
	t.features = rng.Perm(data.Features)[:t.cfg.P]
	slices.Sort(t.features)
	return rng
}

// fromSample builds the task on the embedded sample, split by patient (Config.Sample).
func (t *Task) fromSample(all *data.CTSlice) (*Task, error) {
	cfg := t.cfg
	t.found = data.Found{Origin: data.OriginSample}
	trainPool := data.PatientRows(all, data.SampleTrainPatient)
	valPool := data.PatientRows(all, data.SampleValPatient)
	if cfg.NTrain > len(trainPool) || cfg.NVal > len(valPool) {
		return nil, fmt.Errorf("svr: the sample has %d training slices (patient %d) and %d validation slices (patient %d); NTrain = %d and NVal = %d do not fit",
			len(trainPool), data.SampleTrainPatient, len(valPool), data.SampleValPatient, cfg.NTrain, cfg.NVal)
	}
	rng := t.drawFeatures()
	train, val := make([]int, cfg.NTrain), make([]int, cfg.NVal)
	for i, k := range rng.Perm(len(trainPool))[:cfg.NTrain] {
		train[i] = trainPool[k]
	}
	for i, k := range rng.Perm(len(valPool))[:cfg.NVal] {
		val[i] = valPool[k]
	}
	return t.finish(all, train, val)
}

// finish takes the given training and validation rows of all, standardises the target
// and sets the box.
func (t *Task) finish(all *data.CTSlice, trainRows, valRows []int) (*Task, error) {
	cfg := t.cfg
	t.trainRows, t.valRows = trainRows, valRows
	t.train = subset(all, trainRows, t.features)
	t.val = subset(all, valRows, t.features)

	// Standardise the target with the training rows' mean and sd.
	mean := 0.0
	for _, y := range t.train.Y {
		mean += y
	}
	mean /= float64(cfg.NTrain)
	ss := 0.0
	for _, y := range t.train.Y {
		ss += (y - mean) * (y - mean)
	}
	sd := math.Sqrt(ss / float64(cfg.NTrain-1))
	if !(sd > 0) {
		return nil, fmt.Errorf("svr: the training targets are constant (sd = %v); cannot standardise", sd)
	}
	for _, ys := range [][]float64{t.train.Y, t.val.Y} {
		for i := range ys {
			ys[i] = (ys[i] - mean) / sd
		}
	}
	t.mean, t.sd = mean, sd

	d := cfg.P + 3
	t.lo, t.hi = make([]float64, d), make([]float64, d)
	for j := 0; j < cfg.P; j++ {
		t.lo[j], t.hi[j] = logLengthscaleMin, logLengthscaleMax
	}
	t.lo[cfg.P], t.hi[cfg.P] = math.Log(epsilonMin), math.Log(epsilonMax)
	t.lo[cfg.P+1], t.hi[cfg.P+1] = math.Log(cMin), math.Log(cMax)
	t.lo[cfg.P+2], t.hi[cfg.P+2] = math.Log(gammaMin), math.Log(gammaMax)

	t.model = SVR{Tol: cfg.Tol, MaxIter: cfg.MaxIter, SinglePrecisionPredict: cfg.PredictPrecision == PrecisionFloat32}
	t.pred = make([]float64, cfg.NVal)
	t.hyper.Lengthscales = make([]float64, cfg.P)
	return t, nil
}

func subset(all *data.CTSlice, rows, features []int) tasks.Dataset {
	x := mat.NewDense(len(rows), len(features), nil)
	y := make([]float64, len(rows))
	for i, r := range rows {
		src := all.X.RawRowView(r)
		dst := x.RawRowView(i)
		for j, f := range features {
			dst[j] = src[f]
		}
		y[i] = all.Y[r]
	}
	return tasks.Dataset{X: x, Y: y}
}

// Hyper converts theta to the SVR's hyperparameters in natural units (the length-scale
// slice is owned by the task and overwritten by the next call).
func (t *Task) Hyper(theta []float64) Hyper {
	p := t.cfg.P
	h := t.hyper
	tasks.Exp(h.Lengthscales, theta[:p])
	h.Epsilon = math.Exp(theta[p])
	h.C = math.Exp(theta[p+1])
	h.Gamma = math.Exp(theta[p+2])
	return h
}

// Losses writes the squared error of each validation user at theta into dst.
func (t *Task) Losses(theta, dst []float64) error {
	if err := tasks.CheckTheta(Name, theta, t.lo, t.hi); err != nil {
		return err
	}
	if len(dst) != t.cfg.NVal {
		return fmt.Errorf("%s: dst has %d entries, want %d users", Name, len(dst), t.cfg.NVal)
	}
	if err := t.model.Fit(t.train.X, t.train.Y, t.Hyper(theta)); err != nil {
		return fmt.Errorf("%s: fit at theta=%s: %w", Name, tasks.FormatTheta(theta), err)
	}
	if err := t.model.Predict(t.pred, t.val.X); err != nil {
		return fmt.Errorf("%s: predict at theta=%s: %w", Name, tasks.FormatTheta(theta), err)
	}
	for i, f := range t.pred {
		r := t.val.Y[i] - f
		dst[i] = r * r
	}
	return tasks.CheckLosses(Name, theta, dst)
}

// Dim returns d = P + 3.
func (t *Task) Dim() int { return t.cfg.P + 3 }

// Bounds returns the box of theta (log space). Callers must not modify the slices.
func (t *Task) Bounds() (lo, hi []float64) { return t.lo, t.hi }

// Users returns n = NVal.
func (t *Task) Users() int { return t.cfg.NVal }

// Name returns "svr".
func (t *Task) Name() string { return Name }

// DataLabel returns "ctslice" on the real data, "ctslice-sample" on the embedded sample and
// "ctslice-synthetic" on the stand-in.
func (t *Task) DataLabel() string {
	switch {
	case t.synthetic:
		return data.StandinLabel
	case t.cfg.Sample:
		return data.SampleLabel
	}
	return data.RealLabel
}

// LossBound returns Lmax = Config.LossBound (default 4), in squared standardised target
// units: a prediction error of two training standard deviations. The squared error of an
// SVR has no a-priori bound (its prediction is not confined to the target range), so Lmax
// is a public, data-independent clipping level rather than a hard bound: private baselines
// clip each per-user loss to [0, Lmax], which bounds one user's influence on a mean by
// Lmax/n whatever the data.
//
// Measured on the stand-in (seed 1, 30 thetas drawn uniformly from the box plus the box
// centre): the largest per-user loss was 11.2; at most 3.1% of the users exceeded 4, and
// clipping at 4 lowered the mean loss by at most 5.4% at every theta whose MSE was below
// 0.1 and by at most 9% overall (Lmax = 9: at most 0.07% of users clipped, mean lowered by
// at most 0.4%). Clipping rates on the real CT-slice data are yet to be measured.
func (t *Task) LossBound() float64 { return t.cfg.LossBound }

// Data returns the training and validation splits as the task uses them: the P selected
// features and the standardised target.
func (t *Task) Data() (train, val tasks.Dataset) { return t.train, t.val }

// Config returns the task's configuration with the defaults filled in.
func (t *Task) Config() Config { return t.cfg }

// Features returns the indices (0..383, ascending) of the selected features.
func (t *Task) Features() []int { return slices.Clone(t.features) }

// Rows returns the indices (into the full data set, 0-based data rows) of the training
// and validation rows.
func (t *Task) Rows() (train, val []int) { return slices.Clone(t.trainRows), slices.Clone(t.valRows) }

// TargetScale returns the training mean and standard deviation used to standardise the
// target: reference = mean + sd * z.
func (t *Task) TargetScale() (mean, sd float64) { return t.mean, t.sd }

// Synthetic reports whether the task runs on the generated stand-in.
func (t *Task) Synthetic() bool { return t.synthetic }

// DataPath returns the file the data was loaded from and which lookup step found it
// (Path "" and Origin data.OriginNone for the stand-in, data.OriginSample for the sample).
func (t *Task) DataPath() data.Found { return t.found }

// Warning returns the one warning line the runner prints when the task runs on the
// stand-in, naming the fetch command; "" on the real data.
func (t *Task) Warning() string {
	if !t.synthetic {
		return ""
	}
	why := "CT-slice data not found (-ctslice, $" + data.EnvVar + ", " + data.DefaultDir + "/)"
	if t.cfg.Standin {
		why = "stand-in requested"
	}
	return fmt.Sprintf("warning: svr: %s; running on the generated stand-in %q, whose results are not CT-slice results; fetch the real data with: %s",
		why, data.StandinLabel, fetchHint)
}

// Data shared between tasks: loaded once per path, generated once for the stand-in.
var (
	cacheMu   sync.Mutex
	realCache = map[string]*cacheEntry{}
	standinCh = &cacheEntry{}
)

type cacheEntry struct {
	once sync.Once
	d    *data.CTSlice
	err  error
}

func loadCached(path string) (*data.CTSlice, error) {
	cacheMu.Lock()
	e, ok := realCache[path]
	if !ok {
		e = &cacheEntry{}
		realCache[path] = e
	}
	cacheMu.Unlock()
	e.once.Do(func() { e.d, e.err = data.Load(path, data.LoadOptions{ExpectRows: data.FullRows}) })
	return e.d, e.err
}

func standin() *data.CTSlice {
	standinCh.once.Do(func() { standinCh.d = data.Standin(data.StandinSeed) })
	return standinCh.d
}
