package runner

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
	"dpgibo/experiments/algocfg"
	"dpgibo/internal/records"
	"dpgibo/internal/testhook"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// TaskSpec describes the task of a cell: the catalog's flat description.
type TaskSpec = catalog.Spec

// TaskFactory builds a task; the default is catalog.New.
type TaskFactory func(TaskSpec) (tasks.Task, error)

// MethodFactory builds a method by registry name; the default is registry.New.
type MethodFactory func(name string, opts registry.Options) (baselines.Method, error)

func defaultTaskFactory(s TaskSpec) (tasks.Task, error) { return catalog.New(s) }

func defaultMethodFactory(name string, opts registry.Options) (baselines.Method, error) {
	return registry.New(name, opts)
}

// cellOutput is what one cell's run produces: its rows (loss traces) or theta paths, its
// timing, and the method's Result.Warnings (not written to the cell's files).
type cellOutput struct {
	Rows     []records.Row
	Theta    []records.ThetaRow
	Timing   records.Timing
	Warnings []string
}

// timedObjective wraps the objective a method sees: it counts evaluations, times them, and
// (for noiseless objectives) remembers the mean loss at every evaluated theta, so that the
// runner's reported loss at a theta the method has already evaluated (random search's best
// point) is not computed twice. The remembered value is bit-identical to a recomputation
// on a deterministic task.
type timedObjective struct {
	algo.Objective
	evals   int
	elapsed time.Duration
	memo    map[string]float64 // nil when the objective is noisy
}

func (t *timedObjective) Losses(theta, dst []float64) error {
	testhook.Hold()
	start := time.Now()
	err := t.Objective.Losses(theta, dst)
	t.elapsed += time.Since(start)
	t.evals++
	if err == nil && t.memo != nil && len(dst) > 0 {
		t.memo[thetaKey(theta)] = mean(dst)
	}
	return err
}

// thetaKey is the exact bit pattern of theta as a map key.
func thetaKey(theta []float64) string {
	b := make([]byte, 8*len(theta))
	for i, v := range theta {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return string(b)
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// coordName says what coordinate j of a task's theta is: the catalog's name, or theta<j+1>
// for a task the catalog does not know.
func coordName(task string, d, j int) string {
	if info, ok := catalog.Lookup(task); ok {
		return info.Coord(d, j)
	}
	return fmt.Sprintf("theta%d", j+1)
}

// runCell performs one run: builds the task, wraps it (noise, timing), runs the method and
// records the loss of every released theta on the noiseless task.
func runCell(ctx context.Context, spec cellSpec, newTask TaskFactory, newMethod MethodFactory, dataPath string, warn func(tasks.Task)) (*cellOutput, error) {
	start := time.Now()
	task, timed, err := cellTask(spec, newTask, dataPath, warn)
	if err != nil {
		return nil, err
	}
	setup := time.Since(start)
	theta0, rng := cellStart(spec, task)
	opts, err := cellOptions(spec, task, theta0)
	if err != nil {
		return nil, err
	}
	method, err := newMethod(spec.Method, opts)
	if err != nil {
		return nil, fmt.Errorf("building method: %w", err)
	}
	rec := newCellRecorder(spec, task, timed)
	if spec.local() && spec.Defaults != "" {
		// The rows of a defaults cell give the clip and step the run used (dpgibo takes mu
		// from opts.Mu).
		withMu := opts.Settings
		withMu.Mu = opts.Mu
		set, err := withMu.WithDefaults(task)
		if err != nil {
			return nil, fmt.Errorf("building method: %w", err)
		}
		rec.step = set.Step
	}
	if spec.local() {
		if err := rec.record(0, 0, 0, theta0, nil); err != nil {
			return nil, err
		}
	}
	// A selection with a random number of trials has the budget as its mean and a cap.
	limit := spec.Budget
	if c, ok := method.(baselines.EvaluationCapper); ok {
		if limit, err = c.EvaluationCap(timed, spec.Budget); err != nil {
			return nil, fmt.Errorf("method %s: %w", spec.Method, err)
		}
	}
	cb := func(it algo.Iteration) error {
		if it.Evals > limit {
			return fmt.Errorf("method %s reported %d evaluations, over its budget %d", spec.Method, it.Evals, limit)
		}
		rec.lastIter = it.Iter
		return rec.record(it.Iter, it.Evals, it.Batch, it.Theta, &it)
	}
	evalBefore := timed.elapsed
	res, err := method.Run(ctx, timed, spec.Budget, rng, cb)
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", spec.Method, err)
	}
	if timed.evals > limit {
		return nil, fmt.Errorf("method %s used %d evaluations, over its budget %d", spec.Method, timed.evals, limit)
	}
	// The released theta closes the trace when the last callback did not report it.
	if res.Theta != nil && (rec.last == nil || thetaKey(rec.last) != thetaKey(res.Theta)) {
		if err := rec.record(rec.lastIter+1, res.Evals, 0, res.Theta, nil); err != nil {
			return nil, err
		}
	}
	// dp-auto gives its K when the rule chose a selection with a random number of trials.
	if tc, ok := method.(baselines.TrialCounter); (ok && tc.CountsTrials()) || res.NonPrivateTrials > 0 {
		for i := range rec.out.Rows {
			rec.out.Rows[i].TrialsNonPrivate = records.Some(float64(res.NonPrivateTrials))
		}
	}
	if err := rec.stamp(res.Ledger); err != nil {
		return nil, err
	}
	rec.out.Warnings = res.Warnings
	total := time.Since(start)
	eval := timed.elapsed - evalBefore
	design := total - setup - eval - rec.reportTime
	rec.out.Timing = records.Timing{
		Task: spec.Task, Data: task.DataLabel(), Method: spec.Method, D: spec.D, Seed: spec.Seed, Evals: timed.evals,
		SetupSeconds: setup.Seconds(), DesignSeconds: design.Seconds(), EvalSeconds: eval.Seconds(),
		ReportSeconds: rec.reportTime.Seconds(), TotalSeconds: total.Seconds(),
	}
	return &rec.out, nil
}

// cellTask builds the cell's task and the objective its method sees: the task, with the
// cell's evaluation noise added, counted and timed (and memoised when noiseless).
func cellTask(spec cellSpec, newTask TaskFactory, dataPath string, warn func(tasks.Task)) (tasks.Task, *timedObjective, error) {
	task, err := newTask(TaskSpec{Name: spec.Task, D: spec.D, Seed: spec.DataSeed, NTrain: spec.NTrain, NVal: spec.NVal, DataPath: dataPath, Data: spec.Data,
		Precision: cellPrecision(spec)})
	if err != nil {
		return nil, nil, fmt.Errorf("building task: %w", err)
	}
	if task.Dim() != spec.D {
		return nil, nil, fmt.Errorf("task %s has d = %d, want %d", spec.Task, task.Dim(), spec.D)
	}
	if warn != nil {
		warn(task)
	}
	var seen algo.Objective = task
	if spec.EvalNoise > 0 {
		noisy, err := tasks.NewNoisy(task, spec.Task, float64(spec.EvalNoise), spec.DataSeed^stream("eval-noise", spec.Method, fmt.Sprint(spec.Seed)))
		if err != nil {
			return nil, nil, err
		}
		seen = noisy
	}
	timed := &timedObjective{Objective: seen}
	if spec.EvalNoise == 0 {
		timed.memo = map[string]float64{}
	}
	return task, timed, nil
}

// cellStart returns theta0, which depends on the seed and the task only (so DP-GIBO and GIBO
// start together): uniform in the box, or the task's own start for every seed when it
// prescribes one (tasks.Starter); and the method's random stream.
func cellStart(spec cellSpec, task tasks.Task) ([]float64, *rand.Rand) {
	method := rand.New(rand.NewPCG(uint64(spec.Seed), stream("method", spec.Method)))
	if s, ok := task.(tasks.Starter); ok {
		return append([]float64(nil), s.Start()...), method
	}
	lo, hi := task.Bounds()
	startRNG := rand.New(rand.NewPCG(uint64(spec.Seed), stream("theta0", spec.Task, fmt.Sprint(spec.D))))
	theta0 := make([]float64, spec.D)
	for j := range theta0 {
		theta0[j] = lo[j] + (hi[j]-lo[j])*startRNG.Float64()
	}
	return theta0, method
}

// cellOptions are the method's options: mu (Options.Mu, its one home: dpgibo copies it
// into its Settings), the task's loss bound and theta0, and for DP-GIBO and GIBO
// Algorithm 1's other settings with every default the suites do not set pinned.
func cellOptions(spec cellSpec, task tasks.Task, theta0 []float64) (registry.Options, error) {
	opts := registry.Options{Mu: float64(spec.Mu), LossBound: task.LossBound(), Config: spec.config}
	if l, ok := task.(tasks.LogLosser); ok {
		opts.LogLoss = l.LogLoss()
	}
	if _, ok := revisionerOf(spec.Method); ok {
		opts.AutoRevision = spec.MethodRevision
	}
	switch spec.Currency {
	case "":
	case algocfg.CurrencyGDP:
		opts.Currency = selection.CurrencyGDP
	default:
		return opts, fmt.Errorf("unknown privacy currency %q (want %q or empty)", spec.Currency, algocfg.CurrencyGDP)
	}
	// Every method that starts from a point starts from the cell's theta0 (the local
	// methods, dp-zo); the others ignore it.
	opts.Theta0 = theta0
	if spec.local() {
		var err error
		if opts.Settings, err = spec.Settings(task, float64(spec.Mu)); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// cellRecorder turns the thetas a method releases into the cell's rows: the noiseless loss
// of each (computed by the runner, never charged to the method) and the configuration.
type cellRecorder struct {
	spec       cellSpec
	task       tasks.Task
	timed      *timedObjective
	lo, hi     []float64
	losses     []float64
	reported   map[string]float64 // noiseless loss of every theta already reported
	reportTime time.Duration
	last       []float64 // the theta of the last row
	lastIter   int       // the iteration of the last callback
	// step and clip are, in a defaults cell, the run's step and its latest clipping norm,
	// which the rows give instead of the spec's (0 before the first iteration).
	step, clip float64
	out        cellOutput
}

func newCellRecorder(spec cellSpec, task tasks.Task, timed *timedObjective) *cellRecorder {
	lo, hi := task.Bounds()
	return &cellRecorder{spec: spec, task: task, timed: timed, lo: lo, hi: hi,
		losses: make([]float64, task.Users()), reported: map[string]float64{}}
}

// report returns the noiseless mean loss of theta. Score-based methods report their best
// point after every evaluation, and it rarely changes: repeats are looked up.
func (c *cellRecorder) report(theta []float64) (float64, error) {
	spec := c.spec
	if err := tasks.CheckTheta(spec.Task, theta, c.lo, c.hi); err != nil {
		return 0, fmt.Errorf("method %s released a theta outside the task's box: %w", spec.Method, err)
	}
	key := thetaKey(theta)
	if v, ok := c.timed.memo[key]; ok {
		return v, nil
	}
	if v, ok := c.reported[key]; ok {
		return v, nil
	}
	t0 := time.Now()
	defer func() { c.reportTime += time.Since(t0) }()
	if err := c.task.Losses(theta, c.losses); err != nil {
		return 0, fmt.Errorf("reporting loss: %w", err)
	}
	if err := tasks.CheckLosses(spec.Task, theta, c.losses); err != nil {
		return 0, err
	}
	v := mean(c.losses)
	c.reported[key] = v
	return v, nil
}

// record appends the row of one released theta; it (nil for iteration 0 and for the closing
// row) supplies dpgibo's and gibo's clip and diagnostics.
func (c *cellRecorder) record(iter, evals, batch int, theta []float64, it *algo.Iteration) error {
	loss, err := c.report(theta)
	if err != nil {
		return err
	}
	spec := c.spec
	row := records.Row{
		Suite: spec.Suite, Task: spec.Task, Method: spec.Method, D: spec.D, NUsers: c.task.Users(), NTrain: spec.NTrain,
		NoiseStd: float64(spec.NoiseStd), EvalNoise: float64(spec.EvalNoise), BiasTol: float64(spec.BiasTol),
		Clip: float64(spec.Clip), Step: float64(spec.Step), Iters: spec.Iters, Batch: batch,
		Budget: spec.Budget, Seed: spec.Seed, Iter: iter, Evals: evals, Loss: loss,
	}
	if spec.Defaults != "" {
		if it != nil {
			c.clip = it.Clip
		}
		row.Clip, row.Step = c.clip, c.step
	}
	if it != nil && it.Diagnostics != nil {
		if spec.AdaptiveClip != nil {
			row.Clip = it.Clip
		}
		row.GradNorm = records.Some(it.Diagnostics.ClippedMeanNorm)
		row.NoiseNorm = records.Some(it.Diagnostics.NoiseNorm)
		row.ClippedFrac = records.Some(it.Diagnostics.ClippedFrac)
		row.NoiseScale = records.Some(it.NoiseStd)
	}
	c.out.Rows = append(c.out.Rows, row)
	for _, j := range spec.ThetaCoords {
		c.out.Theta = append(c.out.Theta, records.ThetaRow{
			Suite: spec.Suite, Task: spec.Task, Method: spec.Method, D: spec.D, Seed: spec.Seed,
			Iter: iter, Evals: evals, Coord: j, Name: coordName(spec.Task, spec.D, j), Value: theta[j],
		})
	}
	c.last = append(c.last[:0], theta...)
	return nil
}

// stamp writes the data label and the ledger's privacy into every row; a run that released
// nothing or returned no ledger is an error.
func (c *cellRecorder) stamp(led accounting.Ledger) error {
	if len(c.out.Rows) == 0 {
		return fmt.Errorf("method %s released nothing", c.spec.Method)
	}
	if led.IsZero() {
		return fmt.Errorf("method %s returned no privacy ledger (accounting.Ledger is zero)", c.spec.Method)
	}
	label := c.task.DataLabel()
	for i := range c.out.Rows {
		r := &c.out.Rows[i]
		r.Data, r.Private, r.Mu, r.DPEpsilon = label, led.Private, led.Mu, led.Epsilon
	}
	for i := range c.out.Theta {
		r := &c.out.Theta[i]
		r.Data, r.Private, r.Mu = label, led.Private, led.Mu
	}
	return nil
}
