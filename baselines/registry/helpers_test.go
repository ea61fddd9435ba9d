package registry_test

import (
	"math"

	"dpgibo/algo"
)

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
