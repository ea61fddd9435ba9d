// Package zo is differentially private zeroth-order optimisation: a method that estimates
// a directional derivative of the validation loss from two evaluations, privatises that one
// scalar and steps along the direction, with no surrogate model.
package zo

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/search"
)

// DPZO is differentially private zeroth-order descent (registry name "dp-zo"), after the
// two-point estimators of DPZero and DP-ZO. Everything happens in the box's unit cube
// (u = (theta - lo)/(hi - lo)), so that Step and Smoothing mean the same on every task.
// From the start, for t = 1..K with K = floor(E/2) for a budget of E evaluations:
//
//  1. draw a direction v_t uniformly on the unit sphere of R^d (data-independent);
//  2. evaluate every user's loss, clipped to [0, Lmax], at u + h v_t and u - h v_t
//     (h = Smoothing) and form each user's difference
//     d_i = (l_i(u + h v_t) - l_i(u - h v_t)) / (2h), clipped to [-Clip, Clip];
//  3. release s_t = mean_i d_i + N(0, NoiseStd^2);
//  4. step u <- Proj(u - Step (s_t/Clip) v_t), Proj the projection onto [h, 1 - h]^d, the
//     cube shrunk by h so that the next two evaluations lie in the box: a step of at most
//     Step in the cube when every difference saturates, whatever the loss's scale.
//
// It releases the last iterate.
//
// Privacy. Replacing one validation user changes one d_i, which lies in [-Clip, Clip], by
// at most 2 Clip, so the mean's sensitivity is 2 Clip/n whatever the direction and the
// iterate (both fixed by earlier releases and data-independent draws). Step t is the
// Gaussian mechanism with that sensitivity and noise NoiseStd: (2 Clip/(n NoiseStd))-GDP.
// The K steps compose adaptively in mu-GDP to sqrt(K) 2 Clip/(n NoiseStd); NoiseStd =
// 2 Clip sqrt(K)/(n mu) makes the run mu-GDP. The iterates and the released theta are
// post-processing of s_1..s_K and of the directions. The noise does not grow with d; the
// estimator's variance does (a random direction carries a 1/d share of the gradient).
// Its ledger is accounting.NewLedger(mu, K).
type DPZO struct {
	// Mu is the run's mu-GDP (math.Inf(1): no noise).
	Mu float64
	// LossBound is Lmax (0: the objective's LossBound(); one is required).
	LossBound float64
	// Theta0 is the start (nil: the box's centre).
	Theta0 []float64
	// Step is the step size on the unit cube (per unit of s_t/Clip), Smoothing h (in
	// (0, 1/2)) and Clip the bound on a user's difference (loss per unit of the cube; 0:
	// ClipShare times Lmax); each must be positive.
	Step, Smoothing, Clip, ClipShare float64
	// OnRelease, when non-nil, receives every step's direction (a copy) and its released
	// scalar s_t.
	OnRelease func(direction []float64, released float64)
}

var dpzoInfo = baselines.Info{Name: "dp-zo", Legend: "DP zeroth-order", Colour: color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, Private: true}

// Info implements baselines.Method.
func (DPZO) Info() baselines.Info { return dpzoInfo }

// Sweeps implements baselines.Sweeper: mu and the loss noise.
func (DPZO) Sweeps(param string) bool { return param == "mu" || param == "noise" }

// Check returns an error unless the settings can run.
func (m DPZO) Check() error {
	if err := baselines.CheckMu("zo: dp-zo", m.Mu); err != nil {
		return err
	}
	switch {
	case !(m.Step > 0) || math.IsInf(m.Step, 1):
		return fmt.Errorf("zo: dp-zo: Step must be positive and finite, got %v", m.Step)
	case !(m.Smoothing > 0) || !(m.Smoothing < 0.5):
		return fmt.Errorf("zo: dp-zo: Smoothing must lie in (0, 1/2), got %v", m.Smoothing)
	case m.Clip == 0 && (!(m.ClipShare > 0) || math.IsInf(m.ClipShare, 1)):
		return fmt.Errorf("zo: dp-zo: Clip or ClipShare must be positive and finite, got %v and %v", m.Clip, m.ClipShare)
	case m.Clip != 0 && (!(m.Clip > 0) || math.IsInf(m.Clip, 1)):
		return fmt.Errorf("zo: dp-zo: Clip must be positive and finite, got %v", m.Clip)
	}
	return nil
}

// noiseStd is the standard deviation of the noise on each released scalar that makes K
// steps over n users with clip bound clip mu-GDP: 2 clip sqrt(K)/(n mu), 0 at mu = +Inf.
func noiseStd(clip float64, users, steps int, mu float64) float64 {
	if math.IsInf(mu, 1) {
		return 0
	}
	return 2 * clip * math.Sqrt(float64(steps)) / (float64(users) * mu)
}

// Run implements baselines.Method.
func (m DPZO) Run(ctx context.Context, obj algo.Objective, budget int, rng *rand.Rand, cb algo.Callback) (baselines.Result, error) {
	const name = "dp-zo"
	if err := m.Check(); err != nil {
		return baselines.Result{}, err
	}
	p, err := search.NewSearch("zo", name, obj, budget)
	if err != nil {
		return baselines.Result{}, err
	}
	bound, err := baselines.LossBoundOf("zo: "+name, m.LossBound, obj)
	if err != nil {
		return baselines.Result{}, err
	}
	steps := budget / 2
	if steps < 1 {
		return baselines.Result{}, fmt.Errorf("zo: %s needs a budget of at least 2 evaluations, got %d", name, budget)
	}
	clip := m.Clip
	if clip == 0 {
		clip = m.ClipShare * bound
	}
	d, h := p.Dim(), m.Smoothing
	u := make([]float64, d)
	if m.Theta0 != nil {
		if len(m.Theta0) != len(p.Expand(u)) {
			return baselines.Result{}, fmt.Errorf("zo: %s: Theta0 has length %d, the box %d", name, len(m.Theta0), len(p.Expand(u)))
		}
		u = p.ToUnit(p.Reduce(m.Theta0))
	} else {
		for j := range u {
			u[j] = 0.5
		}
	}
	project(u, h)
	sd := noiseStd(clip, p.Users, steps, m.Mu)
	v := make([]float64, d)
	plus, minus := make([]float64, d), make([]float64, d)
	diffs := make([]float64, p.Users)
	for t := 1; t <= steps; t++ {
		direction(rng, v)
		for j := range u {
			plus[j], minus[j] = u[j]+h*v[j], u[j]-h*v[j]
		}
		hi, err := p.Evaluate(ctx, p.FromUnit(plus))
		if err != nil {
			return baselines.Result{}, err
		}
		for i, l := range hi {
			diffs[i] = clamp(l, 0, bound)
		}
		lo, err := p.Evaluate(ctx, p.FromUnit(minus))
		if err != nil {
			return baselines.Result{}, err
		}
		s := 0.0
		for i, l := range lo {
			s += clamp((diffs[i]-clamp(l, 0, bound))/(2*h), -clip, clip)
		}
		s /= float64(p.Users)
		if sd > 0 {
			s += sd * rng.NormFloat64()
		}
		if m.OnRelease != nil {
			m.OnRelease(append([]float64(nil), v...), s)
		}
		for j := range u {
			u[j] -= m.Step * s / clip * v[j]
		}
		project(u, h)
		if cb != nil {
			if err := cb(algo.Iteration{Iter: t, Evals: p.Evals, Batch: 2, Trace: math.NaN(), Theta: p.Expand(p.FromUnit(u))}); err != nil {
				return baselines.Result{}, fmt.Errorf("zo: %s: callback at step %d: %w", name, t, err)
			}
		}
	}
	return baselines.Result{Theta: p.Expand(p.FromUnit(u)), Evals: p.Evals, Iters: steps, Ledger: accounting.NewLedger(m.Mu, steps)}, nil
}

// direction draws v uniformly on the unit sphere: normalised standard normals.
func direction(rng *rand.Rand, v []float64) {
	for {
		norm := 0.0
		for j := range v {
			v[j] = rng.NormFloat64()
			norm += v[j] * v[j]
		}
		if norm > 0 {
			norm = math.Sqrt(norm)
			for j := range v {
				v[j] /= norm
			}
			return
		}
	}
}

// project clamps every coordinate of u to [h, 1 - h].
func project(u []float64, h float64) {
	for j := range u {
		u[j] = clamp(u[j], h, 1-h)
	}
}

func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

// DefaultSettings are the settings dp-zo runs with unless given others: the choice of its
// declared pilot (docs/peers.md; reproduction/zo-pilot/zo-pilot.csv), step 0.1, smoothing
// 0.1 and the clip at 0.1 times the loss bound, the smallest mean log(final/start) over the
// pilot's four synthetic problems. The pilot's grid ends at this smoothing and this clip.
var DefaultSettings = Settings{Step: 0.1, Smoothing: 0.1, ClipShare: 0.1}

// Settings are dp-zo's own config (a baselines.Config, a block's Config in the harness):
// Step and Smoothing as DPZO's, and the clip as a share of the loss bound (Clip =
// ClipShare Lmax).
type Settings struct {
	Step      float64 `json:"step"`
	Smoothing float64 `json:"smoothing"`
	ClipShare float64 `json:"clip_share"`
}

// Label names the settings in a row's config label.
func (s Settings) Label() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return "step=" + f(s.Step) + ",smoothing=" + f(s.Smoothing) + ",clip_share=" + f(s.ClipShare)
}

// ConfigType implements baselines.Configurable: dp-zo takes Settings.
func (DPZO) ConfigType() baselines.Config { return Settings{} }

// WithSettings returns m with s's step, smoothing and clip share (Clip 0).
func (m DPZO) WithSettings(s Settings) DPZO {
	m.Step, m.Smoothing, m.Clip, m.ClipShare = s.Step, s.Smoothing, 0, s.ClipShare
	return m
}
