package baselines

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines/internal/search"
)

// nanAt is a 1-d objective on [0, 1] whose losses are NaN above 0.9.
type nanAt struct{}

func (nanAt) Dim() int                   { return 1 }
func (nanAt) Bounds() (lo, hi []float64) { return []float64{0}, []float64{1} }
func (nanAt) Users() int                 { return 2 }
func (nanAt) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = (theta[0] - 0.3) * (theta[0] - 0.3)
		if theta[0] > 0.9 {
			dst[i] = math.NaN()
		}
	}
	return nil
}

// The Evaluator a method of one's own builds on keeps the budget, the box and the losses'
// validity as the built-in baselines do, and tracks and reports the best point.
func TestEvaluatorChecksBudgetBoxAndLosses(t *testing.T) {
	ctx := context.Background()
	if _, err := NewEvaluator("mine", nanAt{}, 0); err == nil {
		t.Error("a zero budget was accepted")
	}
	ev, err := NewEvaluator("mine", nanAt{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var reported [][]float64
	cb := func(it algo.Iteration) error { reported = append(reported, it.Theta); return nil }
	for _, x := range []float64{0.5, 0.35} {
		if _, err := ev.Observe(ctx, []float64{x}, Mean, cb); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(ev.Best(), []float64{0.35}) || len(reported) != 2 || reported[0][0] != 0.5 || reported[1][0] != 0.35 {
		t.Errorf("best %v, reported %v", ev.Best(), reported)
	}
	if _, err := ev.Evaluate(ctx, []float64{1.5}); err == nil || !strings.Contains(err.Error(), "mine") {
		t.Errorf("a point outside the box: %v", err)
	}
	if _, err := ev.Evaluate(ctx, []float64{0.95}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN losses: %v", err)
	}
	if ev.Remaining() != 0 || ev.Evals() != 3 {
		t.Errorf("remaining %d, evals %d after three evaluations of a budget of 3", ev.Remaining(), ev.Evals())
	}
	if _, err := ev.Evaluate(ctx, []float64{0.1}); !errors.Is(err, search.ErrBudget) {
		t.Errorf("an evaluation over the budget: %v", err)
	}
	u := ev.Uniform(rand.New(rand.NewPCG(1, 1)))
	if len(u) != 1 || u[0] < 0 || u[0] > 1 {
		t.Errorf("uniform point %v outside [0, 1]", u)
	}
}
