// Package testobj holds the test objectives and runs that the tests of several packages
// under baselines share. Only tests import it.
package testobj

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
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

// NewQuadratic returns the quadratic with the given centre on [lo, hi]^d with n users whose
// offsets spread evenly over [-0.2, 0.2] (so the mean loss is |theta - center|^2). Bounds
// returns the box's own slices: a test may fix a coordinate by writing into them.
func NewQuadratic(center []float64, lo, hi float64, n int) *quadratic {
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

// F is the mean loss |theta - Center|^2.
func (q *quadratic) F(theta []float64) float64 {
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
	base := q.F(theta)
	for i := range dst {
		dst[i] = base + q.Offset[i]
	}
	if q.NaNUser >= 0 {
		dst[q.NaNUser] = math.NaN()
	}
	return nil
}

// Outside returns the first recorded point outside the box, or nil.
func (q *quadratic) Outside() []float64 {
	for _, p := range q.Points {
		if !InBox(p, q.lo, q.hi) {
			return p
		}
	}
	return nil
}

// InBox reports whether theta has the box's dimension and lies in [lo, hi].
func InBox(theta, lo, hi []float64) bool {
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

// NoBound is Q without its LossBound method.
type NoBound struct{ Q *quadratic }

func (o NoBound) Dim() int                          { return o.Q.Dim() }
func (o NoBound) Bounds() (lo, hi []float64)        { return o.Q.Bounds() }
func (o NoBound) Users() int                        { return o.Q.Users() }
func (o NoBound) Losses(theta, dst []float64) error { return o.Q.Losses(theta, dst) }

// BenchmarkRuns runs m on a cheap quadratic in d = 103 (fig-peers' SVR d) with the given
// budget once per benchmark iteration, so that the time measured is the method's own.
func BenchmarkRuns(b *testing.B, m baselines.Method, budget int) {
	center := make([]float64, 103)
	for j := range center {
		center[j] = 0.5 * math.Sin(float64(j))
	}
	for b.Loop() {
		q := NewQuadratic(center, -2, 2, 3)
		if _, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(1, 1)), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// MeanFinalF runs m on NewQuadratic(center, -2, 2, 3) with the given budget from seeds 1 to
// 5 (rand.NewPCG(seed, 5)) and returns its mean final F, logged.
func MeanFinalF(t testing.TB, m baselines.Method, center []float64, budget int) float64 {
	t.Helper()
	out := 0.0
	for seed := uint64(1); seed <= 5; seed++ {
		q := NewQuadratic(center, -2, 2, 3)
		res, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(seed, 5)), nil)
		if err != nil {
			t.Fatal(err)
		}
		out += q.F(res.Theta) / 5
	}
	t.Logf("%s: mean final f over 5 seeds, %d evaluations: %.4g", m.Info().Name, budget, out)
	return out
}

// flat is a quadratic whose every loss is the same constant: CMA-ES's stopping test (no
// change of the loss over its history window) fires and the search restarts.
type flat struct{ *quadratic }

func (f flat) Losses(theta, dst []float64) error {
	if err := f.quadratic.Losses(theta, dst); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = 1
	}
	return nil
}

// CheckRestartOnFlatLoss runs the CMA-ES m for 400 evaluations on a constant loss in d = 2
// from the box centre: its flat-history test fires after 120 evaluations and the restart
// draws a new mean uniformly from the box, so the mean of the points evaluated from the
// later-th on is at least 0.1 away from that of the first 120.
func CheckRestartOnFlatLoss(t testing.TB, m baselines.Method, later int) {
	t.Helper()
	name := m.Info().Name
	q := NewQuadratic([]float64{0, 0}, -2, 2, 3)
	if _, err := m.Run(context.Background(), flat{q}, 400, rand.New(rand.NewPCG(3, 3)), nil); err != nil {
		t.Fatal(err)
	}
	if q.Evals != 400 {
		t.Fatalf("%d evaluations, want the budget 400", q.Evals)
	}
	centreOf := func(pts [][]float64) []float64 {
		c := make([]float64, 2)
		for _, p := range pts {
			c[0] += p[0] / float64(len(pts))
			c[1] += p[1] / float64(len(pts))
		}
		return c
	}
	first, after := centreOf(q.Points[:120]), centreOf(q.Points[later:])
	t.Logf("%s: mean evaluated point: first 120 %v, from the %dth %v", name, first, later, after)
	shift := (first[0]-after[0])*(first[0]-after[0]) + (first[1]-after[1])*(first[1]-after[1])
	if shift < 0.01 {
		t.Errorf("%s: evaluations from the %dth centre on %v, within 0.1 of the first search's %v: no restart", name, later, after, first)
	}
}

// Ensure quadratic is an objective with a loss bound and NoBound one without.
var (
	_ algo.LossBounder = (*quadratic)(nil)
	_ algo.Objective   = NoBound{}
)
