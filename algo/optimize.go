package algo

import (
	"context"
	"errors"
	"math/rand/v2"
)

// Minimize runs Algorithm 1 (DP-GIBO) on obj from theta0.
func Minimize(ctx context.Context, obj Objective, theta0 []float64, s Settings, rng *rand.Rand, cb Callback) (Result, error) {
	return Result{}, errors.New("algo: Minimize: under construction")
}
