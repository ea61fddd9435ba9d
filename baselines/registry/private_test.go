package registry_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/registry"
)

// splitObjective has n users on [-1, 1]^d whose losses do not depend on theta: half the users
// have loss below 0 and half above Lmax, so the clipped mean (Lmax/2) differs from the
// unclipped one.
func splitObjective(d, n int, bound float64) *tableObjective {
	lo, hi := unitBox(d, -1, 1)
	return &tableObjective{d: d, lo: lo, hi: hi, users: n, bound: bound, loss: func(i int, _ []float64) float64 {
		if i%2 == 0 {
			return -1
		}
		return 3 * bound
	}}
}

// TestPrivateNoiseScale runs each private baseline on an objective whose clipped mean is
// Lmax/2 everywhere and checks that its released scores have mean Lmax/2 and standard
// deviation equal to the formula, with tolerances of 5 standard errors from the sample size:
// 5*sigma/sqrt(N) for the mean and 5/sqrt(2(N-1)) relative for the standard deviation.
func TestPrivateNoiseScale(t *testing.T) {
	const bound, users, mu = 1.0, 10, 1.0
	cases := []struct {
		name            string
		d, budget, runs int
		std             float64
	}{
		{"dp-random", 2, 50, 40, baselines.GaussianNoiseStd(bound, users, 50, mu)},
		{"dp-ucb", 1, 12, 25, baselines.GaussianNoiseStd(bound, users, 12, mu)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var scores []float64
			opt := registry.Options{Mu: mu, LossBound: bound, OnScore: func(_ []float64, s float64) { scores = append(scores, s) }}
			m, err := registry.New(c.name, opt)
			if err != nil {
				t.Fatal(err)
			}
			for run := 0; run < c.runs; run++ {
				if _, err := m.Run(context.Background(), splitObjective(c.d, users, bound), c.budget, rand.New(rand.NewPCG(uint64(run), 77)), nil); err != nil {
					t.Fatal(err)
				}
			}
			n := float64(len(scores))
			if len(scores) != c.runs*c.budget {
				t.Fatalf("%d scores, want %d", len(scores), c.runs*c.budget)
			}
			mean, ss := 0.0, 0.0
			for _, s := range scores {
				mean += s
			}
			mean /= n
			for _, s := range scores {
				ss += (s - mean) * (s - mean)
			}
			sd := math.Sqrt(ss / (n - 1))
			t.Logf("%s: %d releases, mean %.4f (want %.4f), sd %.4f (want %.4f)", c.name, len(scores), mean, bound/2, sd, c.std)
			if math.Abs(mean-bound/2) > 5*c.std/math.Sqrt(n) {
				t.Errorf("mean release %.4f, want clipped mean %.4f within %.4f", mean, bound/2, 5*c.std/math.Sqrt(n))
			}
			if math.Abs(sd/c.std-1) > 5/math.Sqrt(2*(n-1)) {
				t.Errorf("release sd %.4f, formula %.4f: ratio %.4f outside 1 +- %.4f", sd, c.std, sd/c.std, 5/math.Sqrt(2*(n-1)))
			}
		})
	}
}

// neighbours returns two objectives on [-1, 1]^2 with n users that differ only in user 0,
// whose loss is below 0 in the first and above Lmax in the second (the worst case).
func neighbours(n int, bound float64) (a, b *tableObjective) {
	lo, hi := unitBox(2, -1, 1)
	base := func(i int, theta []float64) float64 {
		return (theta[0]-0.3)*(theta[0]-0.3) + (theta[1]+0.2)*(theta[1]+0.2) + 0.1*float64(i%3)
	}
	a = &tableObjective{d: 2, lo: lo, hi: hi, users: n, bound: bound, loss: func(i int, th []float64) float64 {
		if i == 0 {
			return -3
		}
		return base(i, th)
	}}
	b = &tableObjective{d: 2, lo: lo, hi: hi, users: n, bound: bound, loss: func(i int, th []float64) float64 {
		if i == 0 {
			return 10 * bound
		}
		return base(i, th)
	}}
	return a, b
}

// TestNeighbourPreNoiseScores runs each private baseline at mu = +Inf (releases = pre-noise
// scores) on worst-case neighbouring datasets with the same seed: every pre-noise score at
// the same (data-independent) points differs by at most Lmax/n, and by exactly Lmax/n here.
// dp-random's candidates are all data-independent; dp-ucb's initial design of d+1 points is.
func TestNeighbourPreNoiseScores(t *testing.T) {
	const bound, users = 1.0, 8
	for _, c := range []struct {
		name       string
		budget     int
		comparable int
	}{{"dp-random", 30, 30}, {"dp-ucb", 6, 3}} {
		var runs [2][]float64
		var points [2][][]float64
		a, b := neighbours(users, bound)
		for k, obj := range []algo.Objective{a, b} {
			opt := registry.Options{Mu: math.Inf(1), OnScore: func(th []float64, s float64) {
				runs[k] = append(runs[k], s)
				points[k] = append(points[k], th)
			}}
			m, _ := registry.New(c.name, opt)
			if _, err := m.Run(context.Background(), obj, c.budget, rand.New(rand.NewPCG(21, 21)), nil); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < c.comparable; i++ {
			if !slices.Equal(points[0][i], points[1][i]) {
				t.Fatalf("%s: point %d differs between neighbours: %v vs %v", c.name, i, points[0][i], points[1][i])
			}
			diff := math.Abs(runs[1][i] - runs[0][i])
			if diff > bound/users*(1+1e-12) {
				t.Errorf("%s: release %d moved by %v > Lmax/n = %v", c.name, i, diff, bound/users)
			}
			if math.Abs(diff-bound/users) > 1e-12 {
				t.Errorf("%s: release %d moved by %v, want exactly Lmax/n = %v for these worst-case neighbours", c.name, i, diff, bound/users)
			}
		}
	}
}

// TestDPRandomInfIsRandomOnClippedLosses: dp-random at mu = +Inf must be random search on the
// clipped losses: same evaluated points, same scores, same trace, same release.
func TestDPRandomInfIsRandomOnClippedLosses(t *testing.T) {
	const bound = 0.5
	type out struct {
		res    baselines.Result
		its    []algo.Iteration
		scores []float64
	}
	run := func(name string, obj algo.Objective) out {
		var o out
		var tr trace
		opt := registry.Options{Mu: math.Inf(1), LossBound: bound, OnScore: func(_ []float64, s float64) { o.scores = append(o.scores, s) }}
		m, err := registry.New(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		o.res, err = m.Run(context.Background(), obj, 40, rand.New(rand.NewPCG(5, 6)), tr.cb)
		if err != nil {
			t.Fatal(err)
		}
		o.its = tr.its
		return o
	}
	// Losses |theta - c|^2 + offsets on [-2, 2]^3 exceed the bound 0.5 on most of the box and
	// are negative for some users near c, so clipping acts on both sides.
	qDP := testobj.NewQuadratic([]float64{0.4, -0.1, 0.2}, -2, 2, 6)
	qR := testobj.NewQuadratic([]float64{0.4, -0.1, 0.2}, -2, 2, 6)
	dp := run("dp-random", qDP)
	rs := run("random", clipped{qR, bound})
	if !slices.EqualFunc(qDP.Points, qR.Points, slices.Equal) {
		t.Fatal("dp-random at mu=+Inf and random search evaluate different points")
	}
	for i := range dp.scores {
		if dp.scores[i] != rs.scores[i] {
			t.Fatalf("score %d: dp-random %v, random on clipped losses %v", i, dp.scores[i], rs.scores[i])
		}
	}
	if !equalIterations(dp.its, rs.its) || !slices.Equal(dp.res.Theta, rs.res.Theta) {
		t.Errorf("traces or releases differ: dp-random %v, random %v", dp.res.Theta, rs.res.Theta)
	}
	if dp.res.Ledger.Private || rs.res.Ledger.Private {
		t.Error("a mu=+Inf run reports a private ledger")
	}
}
