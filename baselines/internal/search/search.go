// Package search is the bookkeeping of a tuning method that evaluates points one at a time:
// it checks the objective and its box, counts evaluations against the budget, keeps every
// evaluated point inside the box, validates the losses and reports iterations. The
// method families under baselines share it.
package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/tasks"
)

// Problem is one run of a score-based method on an objective: it checks the objective,
// counts evaluations against the budget, keeps every evaluated point inside the box,
// validates the losses and reports iterations. Methods that evaluate one point per
// iteration use it so that budget, box and NaN handling live in one place.
type Problem struct {
	Method string // method name, used in every error
	pkg    string // the package running the method, which every error starts with
	obj    algo.Objective
	// Lo and Hi are the box searched: the objective's, or with fixed coordinates (Lo == Hi)
	// reduced to the free ones by NewSearch.
	Lo, Hi []float64
	// fixed, when not nil, is the objective's full theta with every fixed coordinate set
	// (the searched coordinates, free, are filled in by expand).
	fixed []float64
	free  []int
	Users int
	// LossBound is Lmax of a private method (0 otherwise).
	LossBound float64
	Budget    int
	Evals     int
	losses    []float64 // reused buffer of length users
	// Best is the point of smallest score observed so far (nil before the first), bestScore
	// its score; see observe.
	Best      []float64
	bestScore float64
}

// NewProblem checks obj and budget and returns a problem ready for evaluations.
func NewProblem(pkg, method string, obj algo.Objective, budget int) (*Problem, error) {
	if obj == nil {
		return nil, fmt.Errorf("%s: %s: nil objective", pkg, method)
	}
	if budget <= 0 {
		return nil, fmt.Errorf("%s: %s: budget must be positive, got %d", pkg, method, budget)
	}
	d := obj.Dim()
	lo, hi := obj.Bounds()
	if err := tasks.CheckBox(d, lo, hi); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", pkg, method, err)
	}
	n := obj.Users()
	if n <= 0 {
		return nil, fmt.Errorf("%s: %s: objective has %d users, want at least 1", pkg, method, n)
	}
	return &Problem{Method: method, pkg: pkg, obj: obj, Lo: lo, Hi: hi, Users: n, Budget: budget, losses: make([]float64, n)}, nil
}

// NewSearch is NewProblem for a method that searches the box: a coordinate the
// objective fixes (lo == hi, which algo accepts too) is left out of the box the method
// searches and put back into every theta evaluated, reported and released (expand). A box
// with every coordinate fixed is an error: there is nothing to tune.
func NewSearch(pkg, method string, obj algo.Objective, budget int) (*Problem, error) {
	p, err := NewProblem(pkg, method, obj, budget)
	if err != nil {
		return nil, err
	}
	var free []int
	for j := range p.Lo {
		if p.Lo[j] < p.Hi[j] {
			free = append(free, j)
		}
	}
	switch {
	case len(free) == len(p.Lo):
		return p, nil
	case len(free) == 0:
		return nil, fmt.Errorf("%s: %s: every coordinate of the box is fixed (lo == hi): nothing to tune", pkg, method)
	}
	lo, hi := p.Lo, p.Hi
	p.fixed, p.free = append([]float64(nil), lo...), free
	p.Lo, p.Hi = make([]float64, len(free)), make([]float64, len(free))
	for k, j := range free {
		p.Lo[k], p.Hi[k] = lo[j], hi[j]
	}
	return p, nil
}

// Expand returns a new slice holding theta, a point of the box searched, as a point of the
// objective's box: the fixed coordinates put back.
func (p *Problem) Expand(theta []float64) []float64 {
	if p.fixed == nil {
		return append([]float64(nil), theta...)
	}
	out := append([]float64(nil), p.fixed...)
	for k, j := range p.free {
		out[j] = theta[k]
	}
	return out
}

// Reduce returns theta, a point of the objective's box, as a point of the box searched:
// the fixed coordinates left out (a copy).
func (p *Problem) Reduce(theta []float64) []float64 {
	if p.fixed == nil {
		return append([]float64(nil), theta...)
	}
	out := make([]float64, len(p.free))
	for k, j := range p.free {
		out[k] = theta[j]
	}
	return out
}

// Dim is d.
func (p *Problem) Dim() int { return len(p.Lo) }

// Remaining is the number of evaluations still allowed.
func (p *Problem) Remaining() int { return p.Budget - p.Evals }

// Uniform draws a point uniformly from the box, one rng.Float64 per coordinate in order.
func (p *Problem) Uniform(rng *rand.Rand) []float64 {
	return UniformInBox(rng, p.Lo, p.Hi)
}

// UniformInBox draws a point uniformly from [lo, hi], one rng.Float64 per coordinate in
// order, clamped against rounding at the upper end.
func UniformInBox(rng *rand.Rand, lo, hi []float64) []float64 {
	theta := make([]float64, len(lo))
	for j := range theta {
		theta[j] = math.Min(hi[j], lo[j]+(hi[j]-lo[j])*rng.Float64())
	}
	return theta
}

// ErrBudget is returned (wrapped) when a method asks for more evaluations than its budget;
// it signals a bug in the method, never a user error.
var ErrBudget = errors.New("evaluation budget exhausted")

// Evaluate charges one evaluation, evaluates the per-user losses at theta and validates
// them. The returned slice is reused by the next call.
func (p *Problem) Evaluate(ctx context.Context, theta []float64) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %s: stopped after %d evaluations: %w", p.pkg, p.Method, p.Evals, err)
	}
	if p.Evals >= p.Budget {
		return nil, fmt.Errorf("%s: %s: %w (%d evaluations)", p.pkg, p.Method, ErrBudget, p.Budget)
	}
	if err := tasks.CheckTheta(p.pkg+": "+p.Method, theta, p.Lo, p.Hi); err != nil {
		return nil, err
	}
	if p.fixed != nil {
		theta = p.Expand(theta)
	}
	p.Evals++
	if err := p.obj.Losses(theta, p.losses); err != nil {
		return nil, fmt.Errorf("%s: %s: evaluating theta=%s: %w", p.pkg, p.Method, tasks.FormatTheta(theta), err)
	}
	if err := tasks.CheckLosses(p.pkg+": "+p.Method, theta, p.losses); err != nil {
		return nil, err
	}
	return p.losses, nil
}

// Observe is one evaluation of a score-based method: it evaluates theta, scores the
// losses with score, hands a copy of theta and the score to onScore (if non-nil), keeps
// theta as p.best when its score is the smallest so far (ties keep the earlier point) and
// reports p.best to cb. It returns the score.
func (p *Problem) Observe(ctx context.Context, theta []float64, score func([]float64) float64,
	onScore func([]float64, float64), cb algo.Callback) (float64, error) {
	losses, err := p.Evaluate(ctx, theta)
	if err != nil {
		return 0, err
	}
	s := score(losses)
	if onScore != nil {
		onScore(p.Expand(theta), s)
	}
	if p.Best == nil || s < p.bestScore {
		p.Best, p.bestScore = append(p.Best[:0], theta...), s
	}
	return s, p.Report(cb, p.Best)
}

// Released is a copy of the best point observed so far, in the objective's box.
func (p *Problem) Released() []float64 { return p.Expand(p.Best) }

// Report calls cb (if non-nil) after an evaluation of a one-point-per-iteration method:
// Iter and Evals are the evaluations so far, Batch is 1, Trace is NaN and Theta is a copy
// of the released theta.
func (p *Problem) Report(cb algo.Callback, released []float64) error {
	if cb == nil {
		return nil
	}
	it := algo.Iteration{Iter: p.Evals, Evals: p.Evals, Batch: 1, Trace: math.NaN(), Theta: p.Expand(released)}
	if err := cb(it); err != nil {
		return fmt.Errorf("%s: %s: callback at evaluation %d: %w", p.pkg, p.Method, p.Evals, err)
	}
	return nil
}

// ToUnit maps theta from the box to the unit cube.
func (p *Problem) ToUnit(theta []float64) []float64 {
	u := make([]float64, len(theta))
	for j := range u {
		u[j] = (theta[j] - p.Lo[j]) / (p.Hi[j] - p.Lo[j])
	}
	return u
}

// FromUnit maps u from the unit cube to the box, clamped against rounding.
func (p *Problem) FromUnit(u []float64) []float64 {
	theta := make([]float64, len(u))
	for j := range u {
		theta[j] = p.Lo[j] + (p.Hi[j]-p.Lo[j])*u[j]
	}
	ClampBox(theta, p.Lo, p.Hi)
	return theta
}

// ClampBox moves every coordinate of x into [lo, hi] (used only for final rounding of a
// point mapped from the unit cube, never inside an optimiser).
func ClampBox(x, lo, hi []float64) {
	for j := range x {
		x[j] = math.Min(hi[j], math.Max(lo[j], x[j]))
	}
}

// CMAStart is where both CMA-ES (package score's and goptuna's) start on p's box: the mean at the box's
// centre and the step size sigma0 = min_j (hi_j - lo_j) / 6.
func (p *Problem) CMAStart() (mean0 []float64, sigma0 float64) {
	mean0 = make([]float64, p.Dim())
	sigma0 = math.Inf(1)
	for j := range mean0 {
		mean0[j] = (p.Lo[j] + p.Hi[j]) / 2
		sigma0 = math.Min(sigma0, (p.Hi[j]-p.Lo[j])/6)
	}
	return mean0, sigma0
}
