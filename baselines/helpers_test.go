// goptuna v0.9.0's TPE draws from math/rand's process-wide source; goptuna-tpe re-seeds it,
// which needs this setting (see GoptunaTPE).

//go:debug randseednop=0

package baselines

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/algo"
)

// quadratic is a cheap test objective: user i's loss is |theta - Center|^2 + Offset[i]
// on the box [Lo, Hi]^d. It counts evaluations, records every evaluated point and declares
// a loss bound.
type quadratic struct {
	Center  []float64
	Offset  []float64
	Lo, Hi  float64
	Bound   float64
	Evals   int
	Points  [][]float64
	NaNUser int // user whose loss is NaN (-1: none)

	lo, hi []float64
}

// newQuadratic returns the quadratic with the given centre on [lo, hi]^d with n users whose
// offsets spread evenly over [-0.2, 0.2] (so the mean loss is |theta - center|^2).
func newQuadratic(center []float64, lo, hi float64, n int) *quadratic {
	q := &quadratic{Center: center, Lo: lo, Hi: hi, Bound: 4, NaNUser: -1, Offset: make([]float64, n)}
	for i := range q.Offset {
		if n > 1 {
			q.Offset[i] = -0.2 + 0.4*float64(i)/float64(n-1)
		}
	}
	q.lo, q.hi = make([]float64, len(center)), make([]float64, len(center))
	for j := range q.lo {
		q.lo[j], q.hi[j] = lo, hi
	}
	return q
}

func (q *quadratic) Dim() int                   { return len(q.Center) }
func (q *quadratic) Bounds() (lo, hi []float64) { return q.lo, q.hi }
func (q *quadratic) Users() int                 { return len(q.Offset) }
func (q *quadratic) LossBound() float64         { return q.Bound }

// f is the mean loss |theta - Center|^2.
func (q *quadratic) f(theta []float64) float64 {
	s := 0.0
	for j, c := range q.Center {
		s += (theta[j] - c) * (theta[j] - c)
	}
	return s
}

func (q *quadratic) Losses(theta, dst []float64) error {
	if len(theta) != q.Dim() || len(dst) != q.Users() {
		return fmt.Errorf("quadratic: bad lengths %d, %d", len(theta), len(dst))
	}
	q.Evals++
	q.Points = append(q.Points, append([]float64(nil), theta...))
	base := q.f(theta)
	for i := range dst {
		dst[i] = base + q.Offset[i]
	}
	if q.NaNUser >= 0 {
		dst[q.NaNUser] = math.NaN()
	}
	return nil
}

// outside returns the first recorded point outside the box, or nil.
func (q *quadratic) outside() []float64 {
	for _, p := range q.Points {
		if !inBox(p, q.lo, q.hi) {
			return p
		}
	}
	return nil
}

func inBox(theta, lo, hi []float64) bool {
	if len(theta) != len(lo) {
		return false
	}
	for j, v := range theta {
		if !(v >= lo[j] && v <= hi[j]) {
			return false
		}
	}
	return true
}

// noBound is an objective without a LossBound method.
type noBound struct{ q *quadratic }

func (o noBound) Dim() int                          { return o.q.Dim() }
func (o noBound) Bounds() (lo, hi []float64)        { return o.q.Bounds() }
func (o noBound) Users() int                        { return o.q.Users() }
func (o noBound) Losses(theta, dst []float64) error { return o.q.Losses(theta, dst) }

// tableObjective has losses given per user by a function of theta; used for neighbouring
// datasets and constant objectives.
type tableObjective struct {
	d      int
	lo, hi []float64
	loss   func(user int, theta []float64) float64
	users  int
	bound  float64
}

func (o *tableObjective) Dim() int                   { return o.d }
func (o *tableObjective) Bounds() (lo, hi []float64) { return o.lo, o.hi }
func (o *tableObjective) Users() int                 { return o.users }
func (o *tableObjective) LossBound() float64         { return o.bound }
func (o *tableObjective) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = o.loss(i, theta)
	}
	return nil
}

func unitBox(d int, lo, hi float64) ([]float64, []float64) {
	l, h := make([]float64, d), make([]float64, d)
	for j := range l {
		l[j], h[j] = lo, hi
	}
	return l, h
}

// clipped wraps an objective and clips every loss to [0, bound]: random search on it is
// what dp-random at mu = +Inf must equal.
type clipped struct {
	algo.Objective
	bound float64
}

func (c clipped) Losses(theta, dst []float64) error {
	if err := c.Objective.Losses(theta, dst); err != nil {
		return err
	}
	for i, v := range dst {
		dst[i] = math.Min(math.Max(v, 0), c.bound)
	}
	return nil
}

// benchmarkRuns runs method name on a cheap quadratic in d = 103 (fig-peers' SVR d) with the
// given budget once per benchmark iteration, so that the time measured is the method's own.
func benchmarkRuns(b *testing.B, name string, budget int) {
	center := make([]float64, 103)
	for j := range center {
		center[j] = 0.5 * math.Sin(float64(j))
	}
	m, err := New(name, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		q := newQuadratic(center, -2, 2, 3)
		if _, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// meanFinalF runs each method on newQuadratic(center, -2, 2, 3) with the given budget from
// seeds 1 to 5 (rand.NewPCG(seed, 5)) and returns each method's mean final f, logged.
func meanFinalF(t *testing.T, names []string, center []float64, budget int) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, name := range names {
		for seed := uint64(1); seed <= 5; seed++ {
			q := newQuadratic(center, -2, 2, 3)
			m, err := New(name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(seed, 5)), nil)
			if err != nil {
				t.Fatal(err)
			}
			out[name] += q.f(res.Theta) / 5
		}
		t.Logf("%s: mean final f over 5 seeds, %d evaluations: %.4g", name, budget, out[name])
	}
	return out
}
