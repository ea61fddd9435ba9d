package baselines

import (
	"context"
	"math/rand/v2"

	"dpgibo/algo"
	"dpgibo/baselines/internal/search"
)

// Evaluator is what a method of one's own that evaluates one point per iteration needs
// from this package, the same checks the built-in baselines run on: it rejects an
// objective without a finite box (lo <= hi in every coordinate) or without users, counts
// evaluations against the budget (one more is an error, not a silent extra), refuses a
// point outside the box, refuses NaN and infinite losses with an error naming theta, keeps
// the best point observed and reports it to the callback after every evaluation.
//
//	ev, err := baselines.NewEvaluator("mine", obj, budget)
//	for ev.Remaining() > 0 {
//		if _, err := ev.Observe(ctx, ev.Uniform(rng), baselines.Mean, cb); err != nil { ... }
//	}
//	return baselines.Result{Theta: ev.Best(), Evals: ev.Evals(), Iters: ev.Evals(), Ledger: accounting.NonPrivateLedger()}, nil
type Evaluator struct{ p *search.Problem }

// NewEvaluator checks obj and budget for the method called method (the name every error
// starts with) and returns an Evaluator with no evaluation spent.
func NewEvaluator(method string, obj algo.Objective, budget int) (*Evaluator, error) {
	p, err := search.NewProblem("baselines", method, obj, budget)
	if err != nil {
		return nil, err
	}
	return &Evaluator{p}, nil
}

// Bounds is the objective's box.
func (e *Evaluator) Bounds() (lo, hi []float64) { return e.p.Lo, e.p.Hi }

// Remaining is the number of evaluations the budget still allows.
func (e *Evaluator) Remaining() int { return e.p.Remaining() }

// Evals is the number of evaluations spent.
func (e *Evaluator) Evals() int { return e.p.Evals }

// Uniform draws a point uniformly from the box, one rng.Float64 per coordinate in order.
func (e *Evaluator) Uniform(rng *rand.Rand) []float64 { return e.p.Uniform(rng) }

// Evaluate spends one evaluation at theta and returns the validated per-user losses. The
// slice is reused by the next call.
func (e *Evaluator) Evaluate(ctx context.Context, theta []float64) ([]float64, error) {
	return e.p.Evaluate(ctx, theta)
}

// Observe spends one evaluation at theta, scores its losses with score (Mean for the
// non-private mean loss), keeps theta as the best point when its score is the smallest so
// far (ties keep the earlier point) and reports the best point to cb (if non-nil). It
// returns the score.
func (e *Evaluator) Observe(ctx context.Context, theta []float64, score func(losses []float64) float64, cb algo.Callback) (float64, error) {
	return e.p.Observe(ctx, theta, score, nil, cb)
}

// Best is a copy of the best point observed so far (nil before the first).
func (e *Evaluator) Best() []float64 { return e.p.Released() }

// Mean is the mean of the per-user losses, f(theta) of the paper's equation (1): the score
// of the non-private baselines.
func Mean(losses []float64) float64 { return mean(losses) }
