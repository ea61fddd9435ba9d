package selection_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/selection"
)

// Poisson's K = 0 releases a point of the box without evaluating anything.
func TestPoissonWithoutTrials(t *testing.T) {
	m := selection.Poisson{Mu: 1}
	for seed := range uint64(50) {
		q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
		res, err := m.Run(context.Background(), q, 1, rand.New(rand.NewPCG(seed, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.NonPrivateTrials == 0 {
			lo, hi := q.Bounds()
			if q.Evals != 0 || res.Evals != 1 || !testobj.InBox(res.Theta, lo, hi) {
				t.Errorf("K = 0: %d evaluations, released %v", q.Evals, res.Theta)
			}
			return
		}
	}
	t.Error("no run of 50 drew K = 0 at mean 1 (P = e^-1 each)")
}
