package gibo

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
	"dpgibo/baselines/internal/testobj"
)

// TestGIBOSharesStartWithDPGIBO checks that DPGIBO and GIBO draw theta0 as the first
// uniform draw from rng: a run without Theta0 equals a run given that draw as Theta0 with the
// rng advanced past it. Both methods therefore start from the same point for the same seed.
func TestGIBOSharesStartWithDPGIBO(t *testing.T) {
	s := algo.Settings{Iters: 4, Mu: 1}
	for _, build := range []func(theta0 []float64) baselines.Method{
		func(theta0 []float64) baselines.Method { return DPGIBO{Settings: s, Theta0: theta0} },
		func(theta0 []float64) baselines.Method { return GIBO{Settings: s, Theta0: theta0} },
	} {
		name := build(nil).Info().Name
		q1 := testobj.NewQuadratic([]float64{0.2, 0.1}, -1, 1, 3)
		r1, err := build(nil).Run(context.Background(), q1, 9, rand.New(rand.NewPCG(5, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 1))
		lo, hi := q1.Bounds()
		m := build(search.UniformInBox(rng, lo, hi))
		q2 := testobj.NewQuadratic([]float64{0.2, 0.1}, -1, 1, 3)
		r2, err := m.Run(context.Background(), q2, 9, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r1.Theta, r2.Theta) || !slices.EqualFunc(q1.Points, q2.Points, slices.Equal) {
			t.Errorf("%s: run without Theta0 released %v, run with Theta0 = first uniform draw released %v", name, r1.Theta, r2.Theta)
		}
	}
}

// DPGIBO and GIBO declare their LossBound to algo.Minimize, so that a wrapper that hides the
// objective's LossBound does not silently change their defaults: the default Clip is
// S/(4 l) with S = LossBound, and no warning about a missing bound is raised.
func TestGIBODeclaresOptionsLossBound(t *testing.T) {
	q := testobj.NewQuadratic([]float64{0.5, -0.5}, -3, 3, 30)
	obj := testobj.NoBound{Q: q}
	for _, c := range []struct {
		bound, wantClip float64 // l = W/6 = 1
		warned          bool
	}{{8, 2, false}, {0, 0.25, true}} {
		m := GIBO{LossBound: c.bound, Settings: algo.Settings{Iters: 2}}
		var clip float64
		res, err := m.Run(context.Background(), obj, 100, rand.New(rand.NewPCG(1, 1)), func(it algo.Iteration) error {
			clip = it.Clip
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		warned := len(res.Warnings) > 0 && strings.Contains(res.Warnings[0], "declares no loss bound")
		if clip != c.wantClip || warned != c.warned {
			t.Errorf("LossBound %v: clip %v, warned %v; want %v, %v", c.bound, clip, warned, c.wantClip, c.warned)
		}
	}
}
