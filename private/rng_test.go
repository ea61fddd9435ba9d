package private

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"dpgibo/accounting"
)

// A nil generator works for Tune whatever method it runs, and is a secret one, new for each
// call: two runs differ.
func TestNilGeneratorIsSecret(t *testing.T) {
	obj := bowl{d: 2, users: 100, Bound: 4}
	ctx := context.Background()
	target := accounting.EpsDelta{Epsilon: 2, Delta: 1e-5}
	runs := map[string]func(rng *rand.Rand) (Release, error){}
	for _, tc := range tunable {
		cfg := Config{EpsDelta: target, Evals: 60, Rule: Always{tc.m}}
		if tc.atGDP {
			cfg = Config{Mu: 1, Evals: 60, Rule: Always{tc.m}}
		}
		runs["Tune "+tc.m.String()] = func(rng *rand.Rand) (Release, error) { return Tune(ctx, obj, cfg, rng, nil) }
	}
	for name, run := range runs {
		var thetas [][]float64
		for range 2 {
			res, err := run(nil)
			if err != nil {
				t.Fatalf("%s with a nil generator: %v", name, err)
			}
			thetas = append(thetas, res.Theta)
		}
		if slices.Equal(thetas[0], thetas[1]) {
			t.Errorf("%s: two runs with a nil generator released the same theta %v", name, thetas[0])
		}
	}
}
