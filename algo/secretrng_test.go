package algo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// A nil generator is a secret one, new for each call: the run works and two runs differ.
func TestMinimizeNilGeneratorIsSecret(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(1, 2)), 50, 2, 0.3)
	s := Settings{Mu: 1, Iters: 3}
	var thetas [][]float64
	for range 2 {
		res, err := Minimize(context.Background(), obj, []float64{0, 0}, s, nil, nil)
		if err != nil {
			t.Fatalf("nil generator: %v", err)
		}
		thetas = append(thetas, res.Theta)
	}
	if slices.Equal(thetas[0], thetas[1]) {
		t.Errorf("two runs with a nil generator released the same theta %v: the generator is not fresh", thetas[0])
	}
}
