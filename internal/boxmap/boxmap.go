// Package boxmap is the smooth change of variables through which this project runs gonum's
// L-BFGS (which has no bounds) inside a box: each coordinate is x = lo + width*Sigmoid(u)
// for an unbounded u, so every iterate stays strictly inside, and the clamped inverse maps a
// starting point, faces included, to a finite u. Used by algo's batch design, the GP
// baselines' hyperparameter fits and UCB's acquisition, and the f* search.
package boxmap

import (
	"math"

	"gonum.org/v1/gonum/optimize"
)

// Sigmoid is 1/(1 + e^-u), in (0, 1).
func Sigmoid(u float64) float64 { return 1 / (1 + math.Exp(-u)) }

// Logit is the inverse of Sigmoid at p clamped into [eps, 1-eps], so that p = 0 and p = 1
// (a point on a face) map to finite values.
func Logit(p, eps float64) float64 {
	p = math.Min(math.Max(p, eps), 1-eps)
	return math.Log(p / (1 - p))
}

// Map returns x = lo + width*Sigmoid(u) and its derivative dx/du = width*s*(1-s).
func Map(lo, width, u float64) (x, dxdu float64) {
	s := Sigmoid(u)
	return lo + width*s, width * s * (1 - s)
}

// Unmap is the inverse of Map, Logit((x - lo)/width, eps), and 0 for a side of width <= 0.
func Unmap(lo, width, x, eps float64) float64 {
	if width <= 0 {
		return 0
	}
	return Logit((x-lo)/width, eps)
}

// LBFGS runs gonum's L-BFGS from u0 with settings on the unconstrained function f of u:
// f(u, nil) is its value, f(u, grad) writes its gradient into grad (its value is then not
// read). status, when not nil, is optimize.Problem.Status (an error from it stops the run).
// It is the one place the project drives L-BFGS; each caller keeps its own change of
// variables (Map, Sigmoid) and chain rule inside f.
func LBFGS(f func(u, grad []float64) float64, status func() (optimize.Status, error), u0 []float64, settings *optimize.Settings) (*optimize.Result, error) {
	p := optimize.Problem{
		Func:   func(u []float64) float64 { return f(u, nil) },
		Grad:   func(grad, u []float64) { f(u, grad) },
		Status: status,
	}
	return optimize.Minimize(p, u0, settings, &optimize.LBFGS{})
}
