package private

import (
	"context"

	"dpgibo/algo"
)

// progressKey is the context key of the progress hook.
type progressKey struct{}

// WithNonPrivateProgress returns ctx carrying a progress hook f: every method of this
// package (Tune and each method's Run) run with that context calls f(done, budget) after
// each evaluation of the objective's Losses, done the evaluations so far and budget the
// most the method may use (Plan.MaxEvals; a selection with a random number of trials: its
// cap, 0 when uncapped). f runs on the method's goroutine, between evaluations.
//
// The progress is NOT private: for a selection with a random number of trials, done at
// the end is its number of trials K, which its theorem does not cover, and for every method
// the timing of the calls can depend on the data. Show it to whoever runs the tuning; never
// publish it with the release.
func WithNonPrivateProgress(ctx context.Context, f func(done, budget int)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// withProgress returns obj counting its evaluations into ctx's progress hook (obj itself
// when there is none), keeping its LossBound.
func withProgress(ctx context.Context, obj algo.Objective, budget int) algo.Objective {
	f, _ := ctx.Value(progressKey{}).(func(done, budget int))
	if f == nil || obj == nil {
		return obj
	}
	c := &counting{Objective: obj, f: f, budget: budget}
	if lb, ok := obj.(algo.LossBounder); ok {
		return countingBound{c, lb}
	}
	return c
}

// counting is an objective that reports every evaluation to a progress hook.
type counting struct {
	algo.Objective
	f            func(done, budget int)
	budget, done int
}

func (c *counting) Losses(theta, dst []float64) error {
	err := c.Objective.Losses(theta, dst)
	c.done++
	c.f(c.done, c.budget)
	return err
}

// countingBound is counting for an objective with a loss bound.
type countingBound struct {
	*counting
	bound algo.LossBounder
}

func (c countingBound) LossBound() float64 { return c.bound.LossBound() }
