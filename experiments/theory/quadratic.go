// Package theory measures the rates of the paper's convergence theorem (Theorem 3.5 and the
// noiseless Lemma of its appendix) on an objective that meets their assumptions, and fits
// them with github.com/sajari/regression.
//
// The rate sweep runs DP-GIBO (gradient-descent step) over a grid of n and mu in the
// privacy-dominated regime and fits log gap = a + b log n + c log mu on the mean final
// suboptimality gap; the theorem's bound is O(sqrt(log n (d + log(log n/delta)))/(n mu)),
// i.e. b = c = -1 up to logarithms. The evaluation sweep runs the adaptive batch
// (BiasTol = d*sigma/sqrt(omega), the theorem's epsilon_omega) over d and fits the total
// evaluations against d; the theorem bounds them by O(omega d log n).
package theory

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// quadratic is a validation objective with per-user quadratic losses
//
//	L_i(theta) = (Curvature/2) |theta - c_i|^2,   c_i = theta* + Spread*(u_i - mean_k u_k),
//
// with u_i uniform in [-1, 1]^d, on the box [0, 1]^d. The mean loss is
// f(theta) = (Curvature/2)|theta - theta*|^2 + const, so theta* is its known minimiser
// (inside the box), f is Curvature-smooth and Curvature-strongly convex, and the
// suboptimality gap is Gap(theta) = (Curvature/2)|theta - theta*|^2. Every user's gradient
// Curvature*(theta - c_i) is bounded on the box by gradientBound, a public constant: with
// Clip >= gradientBound clipping never binds, the theorem's condition B >= B(delta).
// These are the assumptions of the appendix theorem (L-smooth, locally strongly convex,
// bounded gradients, interior minimum); quadratics are not in the RBF kernel's RKHS, so the
// surrogate keeps a small gradient bias, measured by the non-private reference runs.
type quadratic struct {
	dim, users int
	curvature  float64
	minimiser  []float64
	centres    []float64 // users x dim, row-major
	lo, hi     []float64
}

// minimiserCoord is each coordinate of theta* (the minimiser is minimiserCoord*(1,...,1)).
const minimiserCoord = 0.4

// newQuadratic draws the users' centres from rng. spread must lie in [0, 0.2] so that every
// centre stays inside the box.
func newQuadratic(dim, users int, curvature, spread float64, rng *rand.Rand) (*quadratic, error) {
	switch {
	case dim < 1:
		return nil, fmt.Errorf("theory: quadratic needs dim >= 1, got %d", dim)
	case users < 1:
		return nil, fmt.Errorf("theory: quadratic needs at least one user, got %d", users)
	case !(curvature > 0) || math.IsInf(curvature, 0):
		return nil, fmt.Errorf("theory: curvature must be positive and finite, got %v", curvature)
	case !(spread >= 0 && spread <= 0.2):
		return nil, fmt.Errorf("theory: spread must lie in [0, 0.2], got %v", spread)
	}
	q := &quadratic{
		dim: dim, users: users, curvature: curvature,
		minimiser: make([]float64, dim), centres: make([]float64, users*dim),
		lo: make([]float64, dim), hi: make([]float64, dim),
	}
	mean := make([]float64, dim)
	for i := 0; i < users; i++ {
		for j := 0; j < dim; j++ {
			u := 2*rng.Float64() - 1
			q.centres[i*dim+j] = u
			mean[j] += u / float64(users)
		}
	}
	for j := 0; j < dim; j++ {
		q.minimiser[j] = minimiserCoord
		q.hi[j] = 1
		for i := 0; i < users; i++ {
			q.centres[i*dim+j] = minimiserCoord + spread*(q.centres[i*dim+j]-mean[j])
		}
	}
	return q, nil
}

// Dim is d.
func (q *quadratic) Dim() int { return q.dim }

// Bounds returns the box [0, 1]^d.
func (q *quadratic) Bounds() (lo, hi []float64) { return q.lo, q.hi }

// Users is n.
func (q *quadratic) Users() int { return q.users }

// Minimiser returns a copy of theta*.
func (q *quadratic) Minimiser() []float64 { return append([]float64(nil), q.minimiser...) }

// Losses writes L_i(theta) = (Curvature/2)|theta - c_i|^2 for every user.
func (q *quadratic) Losses(theta, dst []float64) error {
	if len(theta) != q.dim || len(dst) != q.users {
		return fmt.Errorf("theory: Quadratic.Losses: theta has length %d (want %d), dst %d (want %d)", len(theta), q.dim, len(dst), q.users)
	}
	for i := range dst {
		c := q.centres[i*q.dim : (i+1)*q.dim]
		s := 0.0
		for j, t := range theta {
			s += (t - c[j]) * (t - c[j])
		}
		dst[i] = 0.5 * q.curvature * s
	}
	return nil
}

// Gap is the suboptimality gap f(theta) - f(theta*) = (Curvature/2)|theta - theta*|^2.
func (q *quadratic) Gap(theta []float64) float64 {
	return 0.5 * q.curvature * sqDist(theta, q.minimiser)
}

// Dist is |theta - theta*|.
func (q *quadratic) Dist(theta []float64) float64 { return math.Sqrt(sqDist(theta, q.minimiser)) }

// gradientBound is Curvature*sqrt(d), a bound on every user's gradient norm over the box
// that holds whatever the data (theta and every centre lie in [0, 1]^d).
func gradientBound(dim int, curvature float64) float64 {
	return curvature * math.Sqrt(float64(dim))
}

func sqDist(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += (a[j] - b[j]) * (a[j] - b[j])
	}
	return s
}
