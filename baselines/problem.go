package baselines

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/tasks"
)

// problem is one run of a score-based method on an objective: it checks the objective,
// counts evaluations against the budget, keeps every evaluated point inside the box,
// validates the losses and reports iterations. Methods that evaluate one point per
// iteration use it so that budget, box and NaN handling live in one place.
type problem struct {
	method string // method name, used in every error
	obj    algo.Objective
	// lo and hi are the box searched: the objective's, or with fixed coordinates (lo == hi)
	// reduced to the free ones by newSearchProblem.
	lo, hi []float64
	// fixed, when not nil, is the objective's full theta with every fixed coordinate set
	// (the searched coordinates, free, are filled in by expand).
	fixed []float64
	free  []int
	users int
	// lossBound is Lmax of a private method (set by privateProblem; 0 otherwise).
	lossBound float64
	budget    int
	evals     int
	losses    []float64 // reused buffer of length users
	// best is the point of smallest score observed so far (nil before the first), bestScore
	// its score; see observe.
	best      []float64
	bestScore float64
}

// newProblem checks obj and budget and returns a problem ready for evaluations.
func newProblem(method string, obj algo.Objective, budget int) (*problem, error) {
	if obj == nil {
		return nil, fmt.Errorf("baselines: %s: nil objective", method)
	}
	if budget <= 0 {
		return nil, fmt.Errorf("baselines: %s: budget must be positive, got %d", method, budget)
	}
	d := obj.Dim()
	lo, hi := obj.Bounds()
	if err := checkBox(d, lo, hi); err != nil {
		return nil, fmt.Errorf("baselines: %s: %w", method, err)
	}
	n := obj.Users()
	if n <= 0 {
		return nil, fmt.Errorf("baselines: %s: objective has %d users, want at least 1", method, n)
	}
	return &problem{method: method, obj: obj, lo: lo, hi: hi, users: n, budget: budget, losses: make([]float64, n)}, nil
}

// newSearchProblem is newProblem for a method that searches the box: a coordinate the
// objective fixes (lo == hi, which algo accepts too) is left out of the box the method
// searches and put back into every theta evaluated, reported and released (expand). A box
// with every coordinate fixed is an error: there is nothing to tune.
func newSearchProblem(method string, obj algo.Objective, budget int) (*problem, error) {
	p, err := newProblem(method, obj, budget)
	if err != nil {
		return nil, err
	}
	var free []int
	for j := range p.lo {
		if p.lo[j] < p.hi[j] {
			free = append(free, j)
		}
	}
	switch {
	case len(free) == len(p.lo):
		return p, nil
	case len(free) == 0:
		return nil, fmt.Errorf("baselines: %s: every coordinate of the box is fixed (lo == hi): nothing to tune", method)
	}
	lo, hi := p.lo, p.hi
	p.fixed, p.free = append([]float64(nil), lo...), free
	p.lo, p.hi = make([]float64, len(free)), make([]float64, len(free))
	for k, j := range free {
		p.lo[k], p.hi[k] = lo[j], hi[j]
	}
	return p, nil
}

// expand returns a new slice holding theta, a point of the box searched, as a point of the
// objective's box: the fixed coordinates put back.
func (p *problem) expand(theta []float64) []float64 {
	if p.fixed == nil {
		return append([]float64(nil), theta...)
	}
	out := append([]float64(nil), p.fixed...)
	for k, j := range p.free {
		out[j] = theta[k]
	}
	return out
}

// checkBox returns an error unless lo and hi have length d >= 1 and are finite with
// lo <= hi (the rule of algo: a coordinate with lo == hi is fixed).
func checkBox(d int, lo, hi []float64) error {
	if d <= 0 {
		return fmt.Errorf("objective has dimension %d, want at least 1", d)
	}
	if len(lo) != d || len(hi) != d {
		return fmt.Errorf("objective box has %d lower and %d upper bounds for dimension %d", len(lo), len(hi), d)
	}
	for j := range lo {
		if math.IsNaN(lo[j]) || math.IsNaN(hi[j]) || math.IsInf(lo[j], 0) || math.IsInf(hi[j], 0) || !(lo[j] <= hi[j]) {
			return fmt.Errorf("objective box coordinate %d is [%v, %v], want finite bounds with lo <= hi", j, lo[j], hi[j])
		}
	}
	return nil
}

// dim is d.
func (p *problem) dim() int { return len(p.lo) }

// remaining is the number of evaluations still allowed.
func (p *problem) remaining() int { return p.budget - p.evals }

// uniform draws a point uniformly from the box, one rng.Float64 per coordinate in order.
func (p *problem) uniform(rng *rand.Rand) []float64 {
	return uniformInBox(rng, p.lo, p.hi)
}

// uniformInBox draws a point uniformly from [lo, hi], one rng.Float64 per coordinate in
// order, clamped against rounding at the upper end.
func uniformInBox(rng *rand.Rand, lo, hi []float64) []float64 {
	theta := make([]float64, len(lo))
	for j := range theta {
		theta[j] = math.Min(hi[j], lo[j]+(hi[j]-lo[j])*rng.Float64())
	}
	return theta
}

// errBudget is returned (wrapped) when a method asks for more evaluations than its budget;
// it signals a bug in the method, never a user error.
var errBudget = errors.New("evaluation budget exhausted")

// evaluate charges one evaluation, evaluates the per-user losses at theta and validates
// them. The returned slice is reused by the next call.
func (p *problem) evaluate(ctx context.Context, theta []float64) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("baselines: %s: stopped after %d evaluations: %w", p.method, p.evals, err)
	}
	if p.evals >= p.budget {
		return nil, fmt.Errorf("baselines: %s: %w (%d evaluations)", p.method, errBudget, p.budget)
	}
	if err := tasks.CheckTheta("baselines: "+p.method, theta, p.lo, p.hi); err != nil {
		return nil, err
	}
	if p.fixed != nil {
		theta = p.expand(theta)
	}
	p.evals++
	if err := p.obj.Losses(theta, p.losses); err != nil {
		return nil, fmt.Errorf("baselines: %s: evaluating theta=%s: %w", p.method, tasks.FormatTheta(theta), err)
	}
	if err := tasks.CheckLosses("baselines: "+p.method, theta, p.losses); err != nil {
		return nil, err
	}
	return p.losses, nil
}

// observe is one evaluation of a score-based method: it evaluates theta, scores the
// losses with score, hands a copy of theta and the score to onScore (if non-nil), keeps
// theta as p.best when its score is the smallest so far (ties keep the earlier point) and
// reports p.best to cb. It returns the score.
func (p *problem) observe(ctx context.Context, theta []float64, score func([]float64) float64,
	onScore func([]float64, float64), cb algo.Callback) (float64, error) {
	losses, err := p.evaluate(ctx, theta)
	if err != nil {
		return 0, err
	}
	s := score(losses)
	if onScore != nil {
		onScore(p.expand(theta), s)
	}
	if p.best == nil || s < p.bestScore {
		p.best, p.bestScore = append(p.best[:0], theta...), s
	}
	return s, p.report(cb, p.best)
}

// released is a copy of the best point observed so far, in the objective's box.
func (p *problem) released() []float64 { return p.expand(p.best) }

// report calls cb (if non-nil) after an evaluation of a one-point-per-iteration method:
// Iter and Evals are the evaluations so far, Batch is 1, Trace is NaN and Theta is a copy
// of the released theta.
func (p *problem) report(cb algo.Callback, released []float64) error {
	if cb == nil {
		return nil
	}
	it := algo.Iteration{Iter: p.evals, Evals: p.evals, Batch: 1, Trace: math.NaN(), Theta: p.expand(released)}
	if err := cb(it); err != nil {
		return fmt.Errorf("baselines: %s: callback at evaluation %d: %w", p.method, p.evals, err)
	}
	return nil
}

// mean is the unclipped mean of the per-user losses, f(theta) of equation (1).
func mean(losses []float64) float64 {
	s := 0.0
	for _, v := range losses {
		s += v
	}
	return s / float64(len(losses))
}

// clampBox moves every coordinate of x into [lo, hi] (used only for final rounding of a
// point mapped from the unit cube, never inside an optimiser).
func clampBox(x, lo, hi []float64) {
	for j := range x {
		x[j] = math.Min(hi[j], math.Max(lo[j], x[j]))
	}
}
