package gibo

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"dpgibo/algo"
	"dpgibo/baselines"
)

// spike is a d = 1 objective on [0, 1] whose every user's loss is 0 at exactly Spike and
// Bound everywhere else, with LossBound Bound: the released theta is Spike only when a
// private choice keeps it.
type spike struct {
	users        int
	Spike, Bound float64
}

func (s spike) Dim() int                   { return 1 }
func (s spike) Bounds() (lo, hi []float64) { return []float64{0}, []float64{1} }
func (s spike) Users() int                 { return s.users }
func (s spike) LossBound() float64         { return s.Bound }
func (s spike) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = s.Bound
		if theta[0] == s.Spike {
			dst[i] = 0
		}
	}
	return nil
}

// TestReleaseNoiseScale pins the noise of the safe release and of the hybrid's start
// choice by the probability that they keep the start. On spike, a choice between the
// start (score 0) and a point of score Lmax under noise sqrt(2) Lmax/(n mu_part) on each
// score keeps the start with probability Phi(n mu_part/2). At n = 2 and mu = 1/sqrt(0.1)
// that is Phi(1) = 0.841 for the safe release (mu_part = mu sqrt(0.1) = 1), and
// Phi(sqrt 2) Phi(1) = 0.775 for the hybrid, which keeps theta0 as its start with
// Phi(n mu sqrt(0.2)/2) first. Half the noise would give 0.977 and 0.952, twice the noise
// 0.691 and 0.515: 1,000 runs tell them apart by more than 8 standard errors.
func TestReleaseNoiseScale(t *testing.T) {
	const runs = 1000
	obj := spike{users: 2, Spike: 0.5, Bound: 3}
	mu := 1 / math.Sqrt(DefaultReleaseShare)
	phi := distuv.UnitNormal.CDF
	for _, tc := range []struct {
		name string
		run  func(rng *rand.Rand) (baselines.Result, error)
		want float64
	}{
		{"dpgibo-safe", func(rng *rand.Rand) (baselines.Result, error) {
			return Safe{Settings: algo.Settings{Mu: mu, Iters: 1}, Theta0: []float64{0.5}}.Run(context.Background(), obj, 4, rng, nil)
		}, phi(1)},
		{"dpgibo-hybrid", func(rng *rand.Rand) (baselines.Result, error) {
			return Hybrid{Settings: algo.Settings{Mu: mu, Iters: 1}, Theta0: []float64{0.5}}.Run(context.Background(), obj, 5, rng, nil)
		}, phi(2*mu*math.Sqrt(DefaultStartShare)/2) * phi(1)},
	} {
		kept := 0
		for seed := range runs {
			res, err := tc.run(rand.New(rand.NewPCG(uint64(seed), 11)))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if res.Theta[0] == obj.Spike {
				kept++
			}
		}
		got := float64(kept) / runs
		se := math.Sqrt(tc.want * (1 - tc.want) / runs)
		if math.Abs(got-tc.want) > 4*se {
			t.Errorf("%s kept the start in %.3f of %d runs, want %.3f (standard error %.3f)", tc.name, got, runs, tc.want, se)
		}
	}
}

func TestLedgerComposesToMu(t *testing.T) {
	obj := spike{users: 20, Spike: 0.5, Bound: 1}
	for _, mu := range []float64{0.5, 1, 0.7} {
		res, err := Hybrid{Settings: algo.Settings{Mu: mu, Iters: 3}, Theta0: []float64{0.2}}.Run(context.Background(), obj, 20, rand.New(rand.NewPCG(1, 2)), nil)
		if err != nil {
			t.Fatal(err)
		}
		l := res.Ledger
		if l.Mu != mu {
			t.Errorf("mu %v: ledger Mu %v, want exactly the mu given", mu, l.Mu)
		}
		want := map[string]float64{"start choice": mu * math.Sqrt(DefaultStartShare), "safe release": mu * math.Sqrt(DefaultReleaseShare)}
		for _, p := range l.Parts {
			if w, ok := want[p.Name]; ok {
				if p.Mu != w || p.Releases != 1 {
					t.Errorf("mu %v: part %+v, want mu %v, one release", mu, p, w)
				}
				delete(want, p.Name)
			}
		}
		if len(want) > 0 {
			t.Errorf("mu %v: ledger lacks the parts %v: %+v", mu, want, l.Parts)
		}
		if res.Evals > 20 || res.Iters != 3 {
			t.Errorf("mu %v: %d evaluations (budget 20) and %d iterations (want 3)", mu, res.Evals, res.Iters)
		}
	}
}

// noBound is spike without a LossBound method.
type noBound struct{ s spike }

func (o noBound) Dim() int                          { return o.s.Dim() }
func (o noBound) Bounds() (lo, hi []float64)        { return o.s.Bounds() }
func (o noBound) Users() int                        { return o.s.Users() }
func (o noBound) Losses(theta, dst []float64) error { return o.s.Losses(theta, dst) }

func TestRefusals(t *testing.T) {
	obj := spike{users: 5, Spike: 0.5, Bound: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() (baselines.Result, error)
		want string
	}{
		{"no loss bound", func() (baselines.Result, error) {
			return Safe{Settings: algo.Settings{Mu: 1}, Theta0: []float64{0.5}}.Run(ctx, noBound{obj}, 40, rng, nil)
		}, "needs a loss bound"},
		{"mu zero", func() (baselines.Result, error) {
			return Safe{Theta0: []float64{0.5}}.Run(ctx, obj, 40, rng, nil)
		}, "Settings.Mu must be positive"},
		{"budget below a batch", func() (baselines.Result, error) {
			return Hybrid{Settings: algo.Settings{Mu: 1}, Theta0: []float64{0.5}}.Run(ctx, obj, 4, rng, nil)
		}, "budget 4 leaves 1 evaluations"},
		{"shares", func() (baselines.Result, error) {
			return Hybrid{Settings: algo.Settings{Mu: 1}, StartShare: 0.5, ReleaseShare: 0.5, Theta0: []float64{0.5}}.Run(ctx, obj, 40, rng, nil)
		}, "StartShare + ReleaseShare below 1"},
		{"theta0 outside", func() (baselines.Result, error) {
			return Safe{Settings: algo.Settings{Mu: 1}, Theta0: []float64{2}}.Run(ctx, obj, 40, rng, nil)
		}, "Theta0: theta[0] = 2 lies outside the box"},
	} {
		_, err := tc.run()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
