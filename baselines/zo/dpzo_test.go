package zo

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"dpgibo/accounting"
)

// linear is an objective on [0, 1]^dim whose user 0 has loss slope*theta_1 + offset (other
// users 0), with loss bound bound.
type linear struct {
	dim, users           int
	slope, offset, bound float64
}

func (o linear) Dim() int { return o.dim }
func (o linear) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, o.dim), make([]float64, o.dim)
	for j := range hi {
		hi[j] = 1
	}
	return lo, hi
}
func (o linear) Users() int         { return o.users }
func (o linear) LossBound() float64 { return o.bound }
func (o linear) Losses(theta, dst []float64) error {
	clear(dst)
	dst[0] = o.slope*theta[0] + o.offset
	return nil
}

// The released scalar's sensitivity is 2 Clip/n: on a one-dimensional box, user 0's loss
// rising (X) or falling (X') at the bound's slope moves its clipped difference from +Clip
// to -Clip along the direction, so that without noise every released scalar of X and X'
// differs by exactly 2 Clip/n (the directions are data-independent: the same draws).
func TestReleasedScalarSensitivity(t *testing.T) {
	const users, clip, bound = 20, 0.5, 2.0
	releases := func(o linear) []float64 {
		var out []float64
		m := DPZO{Mu: math.Inf(1), Step: 0.1, Smoothing: 0.05, Clip: clip, OnRelease: func(v []float64, s float64) { out = append(out, s*v[0]) }}
		if _, err := m.Run(context.Background(), o, 20, rand.New(rand.NewPCG(1, 2)), nil); err != nil {
			t.Fatal(err)
		}
		return out
	}
	x := releases(linear{dim: 1, users: users, slope: bound, bound: bound})
	xPrime := releases(linear{dim: 1, users: users, slope: -bound, offset: bound, bound: bound})
	if len(x) != 10 || len(xPrime) != 10 {
		t.Fatalf("%d and %d releases, want 10 (20 evaluations)", len(x), len(xPrime))
	}
	for k := range x {
		if d := x[k] - xPrime[k]; math.Abs(d-2*clip/users) > 1e-12 {
			t.Errorf("release %d: X and X' differ by %v along the direction, want 2 Clip/n = %v", k, d, 2*clip/users)
		}
	}
}

// The noise on each released scalar is 2 Clip sqrt(K)/(n mu) for K = floor(E/2) steps, and
// the ledger says mu-GDP over K releases.
func TestNoiseScaleAndLedger(t *testing.T) {
	const users, clip, mu, budget = 50, 0.3, 0.7, 41
	steps := budget / 2
	want := 2 * clip * math.Sqrt(float64(steps)) / (users * mu)
	if got := noiseStd(clip, users, steps, mu); math.Abs(got-want) > 1e-15 || noiseStd(clip, users, steps, math.Inf(1)) != 0 {
		t.Fatalf("NoiseStd = %v, want %v", got, want)
	}
	// On a flat objective every released scalar is noise alone.
	var s []float64
	m := DPZO{Mu: mu, Step: 0.1, Smoothing: 0.1, Clip: clip, OnRelease: func(_ []float64, r float64) { s = append(s, r) }}
	rng := rand.New(rand.NewPCG(3, 4))
	flat := linear{dim: 3, users: users, bound: 1}
	for range 200 {
		res, err := m.Run(context.Background(), flat, budget, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Evals != 2*steps || res.Iters != steps || !reflect.DeepEqual(res.Ledger, accounting.NewLedger(mu, steps)) {
			t.Fatalf("evals %d, iters %d, ledger %+v", res.Evals, res.Iters, res.Ledger)
		}
	}
	sum, sq := 0.0, 0.0
	for _, v := range s {
		sum += v
		sq += v * v
	}
	n := float64(len(s))
	sd := math.Sqrt(sq/n - (sum/n)*(sum/n))
	// 4000 draws: the sample sd is within 5% of the truth with overwhelming probability.
	if math.Abs(sd/want-1) > 0.05 {
		t.Errorf("released scalars on a flat objective: sd %v, want %v", sd, want)
	}
}

// Without noise it descends: on a bowl it ends far below its start, every evaluation inside
// the box, and the iterates stay in the box shrunk by the smoothing.
func TestDescendsWithoutNoise(t *testing.T) {
	const d = 4
	o := bowlObjective{d: d}
	start := []float64{0.9, 0.1, 0.9, 0.1}
	m := DPZO{Mu: math.Inf(1), Theta0: start, Step: 0.05, Smoothing: 0.05, Clip: 1}
	res, err := m.Run(context.Background(), o, 400, rand.New(rand.NewPCG(5, 6)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.loss(res.Theta) > 0.05*o.loss(start) {
		t.Errorf("loss %v from %v", o.loss(res.Theta), o.loss(start))
	}
	for _, v := range res.Theta {
		if v < 0.05-1e-12 || v > 0.95+1e-12 {
			t.Errorf("released theta %v leaves the shrunk box", res.Theta)
		}
	}
}

type bowlObjective struct{ d int }

func (o bowlObjective) loss(theta []float64) float64 {
	s := 0.0
	for _, v := range theta {
		s += (v - 0.5) * (v - 0.5)
	}
	return s
}
func (o bowlObjective) Dim() int { return o.d }
func (o bowlObjective) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, o.d), make([]float64, o.d)
	for j := range hi {
		hi[j] = 1
	}
	return lo, hi
}
func (o bowlObjective) Users() int         { return 3 }
func (o bowlObjective) LossBound() float64 { return float64(o.d) }
func (o bowlObjective) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = o.loss(theta)
	}
	return nil
}

func TestCheck(t *testing.T) {
	ok := DPZO{Mu: 1, Step: 0.1, Smoothing: 0.1, Clip: 1}
	for _, tc := range []struct {
		edit func(*DPZO)
		want string
	}{
		{func(m *DPZO) { m.Mu = 0 }, "mu"},
		{func(m *DPZO) { m.Step = 0 }, "Step"},
		{func(m *DPZO) { m.Smoothing = 0.5 }, "Smoothing"},
		{func(m *DPZO) { m.Clip = math.NaN() }, "Clip"},
	} {
		m := ok
		tc.edit(&m)
		if err := m.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error naming %s", m, err, tc.want)
		}
	}
	if _, err := ok.Run(context.Background(), bowlObjective{d: 2}, 1, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
		t.Errorf("a budget of one evaluation runs")
	}
}
