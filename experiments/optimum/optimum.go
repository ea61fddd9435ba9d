// Package optimum finds a best-known minimum f* of a task's validation loss
// f(theta) = mean_i L(theta, x_i) over the task's box by a long non-private search: L-BFGS
// (gonum/optimize) from several starts, on the unconstrained reparametrisation
// theta = lo + (hi - lo) sigmoid(z) of the box, with finite-difference gradients
// (gonum/diff/fd), then optionally CMA-ES from the best point, a Nelder-Mead polish of the best point found and a sweep that moves
// single coordinates of the best point onto the box's faces.
//
// Every loss the search evaluates is a loss of a theta inside the box, and Search returns
// the smallest of them with its theta, so f* is a loss that some theta attains: an upper
// bound on the true minimum. It is the reference of the figures' suboptimality
// f(theta) - f*, not something any tuning method could release (it reads every validation
// user's loss without privacy).
package optimum

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/optimize"

	"dpgibo/internal/boxmap"
)

// objective is the part of algo.objective the search needs (tasks implement it).
type objective interface {
	Dim() int
	Bounds() (lo, hi []float64)
	Users() int
	Losses(theta, dst []float64) error
}

// Start is a named start of a local search.
type Start struct {
	// Name says where the start comes from, e.g. "true length-scales".
	Name  string
	Theta []float64
}

// Config sets the search's budget. The zero value of a field takes its default.
type Config struct {
	// Starts are starts tried before the random ones (e.g. the data-generating
	// length-scales of GP regression); each must lie in the box.
	Starts []Start
	// BoxStarts are starts on the box's diagonal, tried after Starts: u in [0, 1] starts
	// at lo + u (hi - lo) in every coordinate (nil: 0.5, 0.05 and 0.95).
	BoxStarts []float64
	// Screen is the number of points drawn uniformly from the box and evaluated before the
	// local searches; the best of them is the first start (0: none).
	Screen int
	// RandomStarts is the number of starts drawn uniformly from the box (default 8).
	RandomStarts int
	// StartEvals is the cap on evaluations of one local search (default 200 (d + 1)).
	StartEvals int
	// PolishEvals is the cap on the Nelder-Mead polish of the best point (default
	// 50 (d + 1); negative: no polish).
	PolishEvals int
	// GridSweeps is the number of sweeps of a coordinate search from the best point of the
	// local searches: each coordinate in turn is set to each of GridPoints evenly spaced
	// values of its range (default 25) and the best kept; sweeps stop early when one does
	// not improve (0: none).
	GridSweeps, GridPoints int
	// CMAEvals is the budget of a CMA-ES search (gonum's CmaEsChol, initial step 0.3 in z)
	// started at the best point of the local searches (0: none).
	CMAEvals int
	// Central selects central differences (2d evaluations per gradient) instead of
	// forward differences (d evaluations per gradient plus the value at the point).
	Central bool
	// Step is the finite-difference step in z (default 1e-4 forward, 1e-3 central).
	Step float64
	// Seed draws the random starts.
	Seed uint64
	// Log, when not nil, receives one line per local search.
	Log func(format string, args ...any)
}

// result is the best point found.
type result struct {
	// F is the smallest f(theta) evaluated and Theta its theta (inside the box).
	F     float64
	Theta []float64
	// Found names the step that evaluated Theta: a start's name, "uniform start k",
	// "coordinate grid", "CMA-ES", "polish" or "bound snapping".
	Found string
	// Evals is the number of evaluations of the per-user losses, Starts the number of
	// local searches run.
	Evals, Starts int
}

// Describe says in one line how the result was found (the theta_source of fstar.csv).
func (r result) Describe(cfg Config) string {
	var named []string
	for _, s := range cfg.Starts {
		named = append(named, s.Name)
	}
	diff := "forward"
	if cfg.Central {
		diff = "central"
	}
	for _, u := range cfg.boxStarts() {
		named = append(named, boxStartName(u))
	}
	if cfg.Screen > 0 {
		named = append([]string{fmt.Sprintf("best of %d uniform points", cfg.Screen)}, named...)
	}
	starts := fmt.Sprintf("%d uniform", cfg.randomStarts())
	if len(named) > 0 {
		starts = strings.Join(named, ", ") + " + " + starts
	}
	polish := " + Nelder-Mead polish"
	if cfg.CMAEvals > 0 {
		polish = fmt.Sprintf(" + CMA-ES (%d evaluations)", cfg.CMAEvals) + polish
	}
	if cfg.GridSweeps > 0 {
		polish = fmt.Sprintf(" + coordinate grid (%d points, up to %d sweeps)", cfg.gridPoints(), cfg.GridSweeps) + polish
	}
	if cfg.PolishEvals < 0 {
		polish = ""
	}
	return fmt.Sprintf("L-BFGS with restarts (%s differences) from %s starts%s + bound snapping; %d evaluations; best from %s",
		diff, starts, polish, r.Evals, r.Found)
}

func (c Config) gridPoints() int {
	if c.GridPoints < 2 {
		return 25
	}
	return c.GridPoints
}

func (c Config) boxStarts() []float64 {
	if c.BoxStarts == nil {
		return []float64{0.5, 0.05, 0.95}
	}
	return c.BoxStarts
}

func boxStartName(u float64) string {
	if u == 0.5 {
		return "box centre"
	}
	return fmt.Sprintf("%g%% of the box", 100*u)
}

func (c Config) randomStarts() int {
	if c.RandomStarts == 0 {
		return 8
	}
	return max(c.RandomStarts, 0)
}

// errBudget stops a local search that used up its evaluations.
var errBudget = errors.New("evaluation budget of the local search used")

// search is the state of one Search call.
type search struct {
	obj    objective
	lo, hi []float64
	losses []float64
	theta  []float64
	best   result
	err    error // first evaluation error
	used   int   // evaluations of the current local search
	limit  int   // cap of the current local search
	step   string
	cfg    Config
	logf   func(format string, args ...any)
	// lastZ and lastF remember the latest evaluation: L-BFGS asks for the value and the
	// gradient at the same z one after the other, and the forward gradient needs the value.
	lastZ []float64
	lastF float64
}

// thetaOf maps z to theta = lo + (hi - lo) sigmoid(z), clamped into the box against
// rounding. It divides by 1 + e^-z where boxmap.Map multiplies by the sigmoid: the last bits
// differ, and the committed f* table was searched with this form.
func (s *search) thetaOf(dst, z []float64) {
	for j, v := range z {
		t := s.lo[j] + (s.hi[j]-s.lo[j])/(1+math.Exp(-v))
		dst[j] = math.Min(math.Max(t, s.lo[j]), s.hi[j])
	}
}

// zOf is the inverse of thetaOf, with theta pulled 1e-9 of the width inside the box so
// that z is finite.
func (s *search) zOf(theta []float64) []float64 {
	z := make([]float64, len(theta))
	for j, t := range theta {
		z[j] = boxmap.Unmap(s.lo[j], s.hi[j]-s.lo[j], t, 1e-9)
	}
	return z
}

// f evaluates the mean loss at theta(z) and keeps the best point. It returns +Inf once
// an evaluation failed or the local search's budget is used (the Status function then
// stops the search).
func (s *search) f(z []float64) float64 {
	if s.err != nil || s.used >= s.limit {
		return math.Inf(1)
	}
	if s.lastZ != nil && slices.Equal(z, s.lastZ) {
		return s.lastF
	}
	s.thetaOf(s.theta, z)
	v := s.eval(s.theta)
	s.lastZ, s.lastF = append(s.lastZ[:0], z...), v
	return v
}

// eval evaluates the mean loss at theta (summed in user order, as the runner reports it).
func (s *search) eval(theta []float64) float64 {
	if err := s.obj.Losses(theta, s.losses); err != nil {
		s.err = err
		return math.Inf(1)
	}
	s.used++
	s.best.Evals++
	sum := 0.0
	for _, v := range s.losses {
		sum += v
	}
	v := sum / float64(len(s.losses))
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s.err = fmt.Errorf("loss %v at theta %v", v, theta)
		return math.Inf(1)
	}
	if s.best.Theta == nil || v < s.best.F {
		s.best.F = v
		s.best.Theta = append(s.best.Theta[:0], theta...)
		s.best.Found = s.step
	}
	return v
}

func (s *search) status() (optimize.Status, error) {
	if s.err != nil {
		return optimize.Failure, s.err
	}
	if s.used >= s.limit {
		return optimize.Failure, errBudget
	}
	return optimize.NotTerminated, nil
}

// Search runs the local searches and the polish and returns the best point evaluated.
// It stops between local searches when ctx is cancelled (returning ctx's error) and
// returns the first evaluation error.
func Search(ctx context.Context, obj objective, cfg Config) (result, error) {
	if err := checkSearch(obj, cfg); err != nil {
		return result{}, err
	}
	lo, hi := obj.Bounds()
	s := &search{obj: obj, lo: lo, hi: hi, losses: make([]float64, obj.Users()), theta: make([]float64, obj.Dim()),
		cfg: cfg, logf: cfg.Log}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	starts, err := s.starts()
	if err != nil {
		return s.best, err
	}
	for _, st := range starts {
		if err := ctx.Err(); err != nil {
			return s.best, err
		}
		if err := s.localSearch(st); err != nil {
			return s.best, err
		}
	}
	for _, phase := range []struct {
		on  bool
		run func() error
	}{
		{cfg.GridSweeps > 0, s.coordinateGrid},
		{cfg.CMAEvals > 0, s.cmaes},
		{s.polishEvals() > 0, s.polish},
	} {
		if !phase.on || s.best.Theta == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return s.best, err
		}
		if err := phase.run(); err != nil {
			return s.best, err
		}
	}
	if s.best.Theta == nil {
		return s.best, errors.New("optimum: nothing evaluated")
	}
	if err := s.snapToBounds(); err != nil {
		return s.best, err
	}
	return s.best, nil
}

// checkSearch rejects an objective without a proper box or users and starts outside it.
func checkSearch(obj objective, cfg Config) error {
	d := obj.Dim()
	lo, hi := obj.Bounds()
	if d < 1 || len(lo) != d || len(hi) != d || obj.Users() < 1 {
		return fmt.Errorf("optimum: objective has d = %d, %d/%d bounds and %d users", d, len(lo), len(hi), obj.Users())
	}
	for j := range lo {
		if !(lo[j] < hi[j]) {
			return fmt.Errorf("optimum: empty box in coordinate %d: [%v, %v]", j, lo[j], hi[j])
		}
	}
	for _, st := range cfg.Starts {
		if len(st.Theta) != d {
			return fmt.Errorf("optimum: start %q has %d coordinates, want %d", st.Name, len(st.Theta), d)
		}
		for j, t := range st.Theta {
			if !(t >= lo[j] && t <= hi[j]) {
				return fmt.Errorf("optimum: start %q: coordinate %d = %v outside [%v, %v]", st.Name, j, t, lo[j], hi[j])
			}
		}
	}
	for _, u := range cfg.boxStarts() {
		if !(u >= 0 && u <= 1) {
			return fmt.Errorf("optimum: box start %v outside [0, 1]", u)
		}
	}
	return nil
}

// polishEvals is the Nelder-Mead budget (default 50(d+1)).
func (s *search) polishEvals() int {
	if s.cfg.PolishEvals == 0 {
		return 50 * (len(s.lo) + 1)
	}
	return s.cfg.PolishEvals
}

// starts returns the local searches' starts in order: the best of the screening points
// (when Screen > 0; f* is then at most the best of Screen uniform points), the given starts,
// the box starts and the uniform starts.
func (s *search) starts() ([]Start, error) {
	cfg, lo, hi, d := s.cfg, s.lo, s.hi, len(s.lo)
	starts := append([]Start(nil), cfg.Starts...)
	for _, u := range cfg.boxStarts() {
		theta := make([]float64, d)
		for j := range theta {
			theta[j] = lo[j] + u*(hi[j]-lo[j])
		}
		starts = append(starts, Start{Name: boxStartName(u), Theta: theta})
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6f7074696d756d)) // "optimum"
	for k := 1; k <= cfg.randomStarts(); k++ {
		theta := make([]float64, d)
		for j := range theta {
			theta[j] = lo[j] + (hi[j]-lo[j])*rng.Float64()
		}
		starts = append(starts, Start{Name: fmt.Sprintf("uniform start %d", k), Theta: theta})
	}
	if cfg.Screen == 0 {
		return starts, nil
	}
	name := fmt.Sprintf("best of %d uniform points", cfg.Screen)
	s.step, s.used, s.limit = name, 0, math.MaxInt
	theta := make([]float64, d)
	var best []float64
	bestF := math.Inf(1)
	for range cfg.Screen {
		for j := range theta {
			theta[j] = lo[j] + (hi[j]-lo[j])*rng.Float64()
		}
		if v := s.eval(theta); v < bestF {
			bestF, best = v, append(best[:0], theta...)
		}
		if s.err != nil {
			return nil, fmt.Errorf("optimum: screening: %w", s.err)
		}
	}
	s.logf("%s: %d evaluations; best %.10g", name, s.used, bestF)
	return append([]Start{{Name: name, Theta: best}}, starts...), nil
}

// localSearch runs L-BFGS with finite-difference gradients from st, within StartEvals
// evaluations. L-BFGS stops where its line search fails (at a kink of f, or where the
// finite-difference gradient is poor); it restarts from the best point of this start while
// a run improves on it.
func (s *search) localSearch(st Start) error {
	cfg := s.cfg
	budget := cfg.StartEvals
	if budget == 0 {
		budget = 200 * (len(s.lo) + 1)
	}
	formula, step := fd.Forward, 1e-4
	if cfg.Central {
		formula, step = fd.Central, 1e-3
	}
	if cfg.Step > 0 {
		step = cfg.Step
	}
	grad := func(dst, z []float64) {
		set := &fd.Settings{Formula: formula, Step: step}
		if !cfg.Central {
			// The forward formula needs the value at z, which L-BFGS evaluated just before.
			set.OriginKnown, set.OriginValue = true, s.f(z)
		}
		fd.Gradient(dst, s.f, z, set)
	}
	s.step, s.used, s.limit = st.Name, 0, budget
	before := s.best.F
	if s.best.Theta == nil {
		before = math.Inf(1)
	}
	// The start itself is evaluated exactly (not through z, which is pulled inside).
	f0 := s.eval(st.Theta)
	if s.err != nil {
		return fmt.Errorf("optimum: %s: %w", st.Name, s.err)
	}
	z := s.zOf(st.Theta)
	local, runs, status := f0, 0, ""
	for s.used < s.limit {
		f := func(z, g []float64) float64 {
			if g != nil {
				grad(g, z)
				return 0
			}
			return s.f(z)
		}
		res, err := boxmap.LBFGS(f, s.status, z, &optimize.Settings{
			Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 20},
		})
		if s.err != nil {
			return fmt.Errorf("optimum: %s: %w", st.Name, s.err)
		}
		runs++
		status = "?"
		if res != nil {
			status = res.Status.String()
		}
		if err != nil && !errors.Is(err, errBudget) {
			status += " (" + err.Error() + ")"
		}
		if res == nil || !(res.F < local-1e-12*math.Abs(local)) {
			break
		}
		local, z = res.F, res.X
	}
	s.best.Starts++
	s.logf("%s: f(start) = %.6g, %d evaluations in %d L-BFGS runs, last %s; best so far %.10g (was %.10g)", st.Name, f0, s.used, runs, status, s.best.F, before)
	return nil
}

// coordinateGrid searches one coordinate at a time on a grid over its whole range, for
// GridSweeps sweeps or until a sweep improves nothing: f is often piecewise smooth (a group
// enters or leaves the model), and a grid crosses kinks that stop a gradient method.
func (s *search) coordinateGrid() error {
	lo, hi, d := s.lo, s.hi, len(s.lo)
	s.step, s.used, s.limit = "coordinate grid", 0, math.MaxInt
	before := s.best.F
	points := s.cfg.gridPoints()
	trial := make([]float64, d)
	for sweep := 0; sweep < s.cfg.GridSweeps; sweep++ {
		start := s.best.F
		for j := range d {
			for k := range points {
				copy(trial, s.best.Theta)
				// Clamped: lo + (hi - lo) can round past hi.
				trial[j] = math.Min(lo[j]+(hi[j]-lo[j])*float64(k)/float64(points-1), hi[j])
				if trial[j] == s.best.Theta[j] {
					continue
				}
				s.eval(trial)
				if s.err != nil {
					return fmt.Errorf("optimum: coordinate grid: %w", s.err)
				}
			}
		}
		if !(s.best.F < start) {
			break
		}
	}
	s.logf("coordinate grid: %d evaluations; best %.10g (was %.10g)", s.used, s.best.F, before)
	return nil
}

// cmaes samples around the best point with gonum's CMA-ES, which needs no gradient (L-BFGS
// with finite differences stalls at kinks of f).
func (s *search) cmaes() error {
	s.step, s.used, s.limit = "CMA-ES", 0, s.cfg.CMAEvals
	before := s.best.F
	p := optimize.Problem{Func: s.f, Status: s.status}
	_, _ = optimize.Minimize(p, s.zOf(s.best.Theta), &optimize.Settings{Converger: optimize.NeverTerminate{}},
		&optimize.CmaEsChol{InitStepSize: 0.3, Src: rand.NewPCG(s.cfg.Seed, 0x636d61)}) // "cma"
	if s.err != nil {
		return fmt.Errorf("optimum: CMA-ES: %w", s.err)
	}
	s.logf("CMA-ES: %d evaluations; best %.10g (was %.10g)", s.used, s.best.F, before)
	return nil
}

// polish runs Nelder-Mead from the best point.
func (s *search) polish() error {
	d := len(s.lo)
	s.step, s.used, s.limit = "polish", 0, s.polishEvals()
	before := s.best.F
	p := optimize.Problem{Func: s.f, Status: s.status}
	_, _ = optimize.Minimize(p, s.zOf(s.best.Theta), &optimize.Settings{
		Converger: &optimize.FunctionConverge{Relative: 1e-12, Iterations: 10 * (d + 1)},
	}, &optimize.NelderMead{})
	if s.err != nil {
		return fmt.Errorf("optimum: polish: %w", s.err)
	}
	s.logf("polish: %d evaluations; best %.10g (was %.10g)", s.used, s.best.F, before)
	return nil
}

// snapToBounds tries every coordinate of the best point at either bound, exactly, until no
// change improves: the sigmoid never reaches the box's faces, where optima often lie (a
// penalty at its largest value).
func (s *search) snapToBounds() error {
	lo, hi, d := s.lo, s.hi, len(s.lo)
	s.step, s.used, s.limit = "bound snapping", 0, math.MaxInt
	before := s.best.F
	trial := make([]float64, d)
	for improved := true; improved; {
		improved = false
		for j := range d {
			for _, b := range []float64{lo[j], hi[j]} {
				if s.best.Theta[j] == b {
					continue
				}
				copy(trial, s.best.Theta)
				trial[j] = b
				prev := s.best.F
				s.eval(trial)
				if s.err != nil {
					return fmt.Errorf("optimum: bound snapping: %w", s.err)
				}
				improved = improved || s.best.F < prev
			}
		}
	}
	s.logf("bound snapping: %d evaluations; best %.10g (was %.10g)", s.used, s.best.F, before)
	return nil
}
