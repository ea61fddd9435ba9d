package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// shapeOnly has the shape of fig2b-real (98 validation users, 103 hyperparameters on
// [-3, 3]) and no losses: Forecast must not ask for them.
type shapeOnly struct{ n, d int }

func (o shapeOnly) Dim() int   { return o.d }
func (o shapeOnly) Users() int { return o.n }
func (o shapeOnly) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, o.d), make([]float64, o.d)
	for j := range lo {
		lo[j], hi[j] = -3, 3
	}
	return lo, hi
}
func (o shapeOnly) Losses(theta, dst []float64) error {
	panic("Forecast called Losses")
}

// boxOnly is shapeOnly with the box given.
type boxOnly struct{ lo, hi []float64 }

func (o boxOnly) Dim() int                   { return len(o.lo) }
func (o boxOnly) Users() int                 { return 5 }
func (o boxOnly) Bounds() (lo, hi []float64) { return o.lo, o.hi }
func (o boxOnly) Losses(theta, dst []float64) error {
	panic("Forecast called Losses")
}

func closeTo(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 1e-12*math.Abs(want)
}

// TestForecastHandComputed pins Forecast against numbers computed by hand for fig2b-real's
// shape and settings: n = 98, d = 103, T = 10, mu = 0.2, B = 1, so the SNR ceiling is
// 98*0.2/(2 sqrt(10*103)) = 0.30536 and the noise 2 sqrt(10)/(98*0.2) = 0.32268; with
// adaptive clipping spending 19% of mu^2 on counts, mu_g = 0.18, 0.27482 and 0.35853.
func TestForecastHandComputed(t *testing.T) {
	obj := shapeOnly{n: 98, d: 103}
	for _, c := range []struct {
		name                   string
		s                      Settings
		muGrad, noise, ceiling float64
		warnings               []string // substrings, one per expected warning, in order
	}{
		{"fixed clip", Settings{Mu: 0.2, Iters: 10, Clipping: FixedClip(1)}, 0.2, 0.3226813938947326, 0.30535670689638034,
			[]string{"privacy SNR cannot exceed n mu_g/(2 sqrt(T d)) = 0.305 < 1"}},
		{"adaptive clip", Settings{Mu: 0.2, Iters: 10, Clipping: AdaptiveClip{CountShare: 0.19, Start: 1}}, 0.18, 0.3585348821052584, 0.2748210362067423,
			[]string{"= 0.275 < 1"}},
		{"fixed default clip without a loss bound", Settings{Mu: 0.2, Iters: 10, StepRule: GradientDescent}, 0.2, 2 * 0.25 * math.Sqrt(10) / (98 * 0.2), 0.30535670689638034,
			[]string{"declares no loss bound", "= 0.305 < 1"}},
		// The default: B calibrated for 5% of mu^2, so mu_g = 0.2 sqrt(0.95) and the noise is
		// known only per unit of B.
		{"calibrated clip without a loss bound", Settings{Mu: 0.2, Iters: 10}, 0.2 * math.Sqrt(0.95), math.NaN(), 0.30535670689638034 * math.Sqrt(0.95),
			[]string{"anchors ClipCalibration's search: B can only fall between 3.815e-06 and 64",
				"noisy counts have standard deviation 54.8 users, over a quarter of the n = 98 users", "= 0.298 < 1"}},
		{"mu = 2 lifts the ceiling above 1", Settings{Mu: 2, Iters: 10, Clipping: FixedClip(1)}, 2, 0.03226813938947326, 3.0535670689638034, nil},
		{"non-private", Settings{Mu: math.Inf(1), Iters: 10, Clipping: FixedClip(1)}, math.Inf(1), 0, math.Inf(1), nil},
	} {
		f, err := Forecast(obj, c.s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.Users != 98 || f.Dim != 103 || f.Settings.Iters != 10 || f.Settings.Batch != 104 {
			t.Errorf("%s: n %d, d %d, T %d, batch %d; want 98, 103, 10, 104", c.name, f.Users, f.Dim, f.Settings.Iters, f.Settings.Batch)
		}
		if perClip := 2 * math.Sqrt(10) / (98 * c.muGrad); !closeTo(f.NoisePerClip, perClip) && !(math.IsInf(c.muGrad, 1) && f.NoisePerClip == 0) {
			t.Errorf("%s: noise per unit of B %v, want 2 sqrt(T)/(n mu_g) = %v", c.name, f.NoisePerClip, perClip)
		}
		if !closeTo(f.GradientMu, c.muGrad) || !(closeTo(f.NoiseStd, c.noise) || math.IsNaN(c.noise) && math.IsNaN(f.NoiseStd)) || !closeTo(f.SNRCeiling, c.ceiling) {
			t.Errorf("%s: mu_g %v, noise std %v, SNR ceiling %v; want %v, %v, %v", c.name, f.GradientMu, f.NoiseStd, f.SNRCeiling, c.muGrad, c.noise, c.ceiling)
		}
		if len(f.Warnings) != len(c.warnings) {
			t.Errorf("%s: warnings %q, want %d", c.name, f.Warnings, len(c.warnings))
			continue
		}
		for k, w := range c.warnings {
			if !strings.Contains(f.Warnings[k], w) {
				t.Errorf("%s: warning %d is %q, want one containing %q", c.name, k, f.Warnings[k], w)
			}
		}
	}
}

// TestForecastMatchesTheRun: the noise scale Forecast reports is the one every iteration of
// the run uses (scaled by B_t/B_0 with adaptive clipping), no iteration's privacy SNR
// exceeds the ceiling, and the run's warnings are the forecast's.
func TestForecastMatchesTheRun(t *testing.T) {
	const d, iters = 3, 6
	for _, c := range []struct {
		name string
		n    int
		s    Settings
	}{
		// 20 users at mu = 0.5: ceiling 20*0.5/(2 sqrt(18)) = 1.18.
		{"fixed clip", 20, Settings{Mu: 0.5, Iters: iters, Clipping: FixedClip(0.05)}},
		// The default clip (calibrated) without a loss bound, and a ceiling of 0.59 below 1.
		{"default clip, ceiling below 1", 10, Settings{Mu: 0.5, Iters: iters}},
		{"fixed default clip", 20, Settings{Mu: 0.5, Iters: iters, StepRule: GradientDescent}},
		{"adaptive clip", 40, Settings{Mu: 1, Iters: iters, Clipping: AdaptiveClip{Rate: 2, Start: 5}}},
	} {
		obj := newQuadUsers(rand.New(rand.NewPCG(5, 5)), c.n, d, 0.5)
		c.s.NonPrivateDiagnostics = true
		f, err := Forecast(obj, c.s)
		if err != nil {
			t.Fatal(err)
		}
		var its []Iteration
		res, err := Minimize(context.Background(), obj, []float64{-2, 2, -2}, c.s, rand.New(rand.NewPCG(1, 2)),
			func(it Iteration) error { its = append(its, it); return nil })
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(its) != iters {
			t.Fatalf("%s: %d iterations, want %d", c.name, len(its), iters)
		}
		clipMoved := false
		calibrated := f.Settings.calibration != nil
		if calibrated != math.IsNaN(f.NoiseStd) {
			t.Errorf("%s: calibrated %v, forecast noise std %v (NaN exactly when B comes from the data)", c.name, calibrated, f.NoiseStd)
		}
		for _, it := range its {
			if !closeTo(it.NoiseStd, f.NoisePerClip*it.Clip) {
				t.Errorf("%s: iteration %d used noise std %v with clip %v; forecast %v per unit of B", c.name, it.Iter, it.NoiseStd, it.Clip, f.NoisePerClip)
			}
			if it.Iter == 1 && !calibrated && it.NoiseStd != f.NoiseStd {
				t.Errorf("%s: iteration 1 used noise std %v; forecast %v", c.name, it.NoiseStd, f.NoiseStd)
			}
			if snr := it.Diagnostics.SNR(it.NoiseStd, d); !(snr <= f.SNRCeiling*(1+1e-12)) {
				t.Errorf("%s: iteration %d has privacy SNR %v above the forecast ceiling %v", c.name, it.Iter, snr, f.SNRCeiling)
			}
			clipMoved = clipMoved || it.Clip != its[0].Clip
		}
		if isAdaptive(c.s) != clipMoved {
			t.Errorf("%s: clip moved %v; the test checks the noise at one clip only", c.name, clipMoved)
		}
		if !slices.Equal(res.Warnings, f.Warnings) {
			t.Errorf("%s: run's warnings %q, forecast's %q", c.name, res.Warnings, f.Warnings)
		}
	}
}

func TestForecastBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		obj  Objective
		s    Settings
		want string
	}{
		{"nil objective", nil, Settings{Mu: 1}, "nil Objective"},
		{"no users", shapeOnly{n: 0, d: 2}, Settings{Mu: 1}, "0 users"},
		{"no dimension", shapeOnly{n: 5, d: 0}, Settings{Mu: 1}, "dimension 0"},
		{"mu unset", shapeOnly{n: 5, d: 2}, Settings{}, "Mu must be positive"},
		{"bad loss bound", WithLossBound(shapeOnly{n: 5, d: 2}, math.NaN()), Settings{Mu: 1}, "LossBound() = NaN"},
		{"lo > hi", boxOnly{lo: []float64{0, 2}, hi: []float64{1, 1}}, Settings{Mu: 1}, "coordinate 1, [2, 1], are not a finite interval"},
		{"infinite bound", boxOnly{lo: []float64{math.Inf(-1), 0}, hi: []float64{1, 1}}, Settings{Mu: 1}, "coordinate 0, [-Inf, 1], are not a finite interval"},
	} {
		_, err := Forecast(c.obj, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Count(err.Error(), "algo:") != 1 {
			t.Errorf("%s: error %v, want one error containing %q", c.name, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Step") || strings.Contains(err.Error(), "Kernel")) {
			t.Errorf("%s: error %v blames a setting that was not given", c.name, err)
		}
	}
}

// counter counts evaluations. Embedding Objective forwards Dim, Bounds, Users and Losses
// but not LossBound, which Objective does not include.
type counter struct {
	Objective
	evals int
}

func (c *counter) Losses(theta, dst []float64) error {
	c.evals++
	return c.Objective.Losses(theta, dst)
}

// forwardingCounter forwards LossBound explicitly, the pattern WithLossBound documents.
type forwardingCounter struct{ counter }

func (c *forwardingCounter) LossBound() float64 { return c.Objective.(LossBounder).LossBound() }

// TestWrappersKeepTheLossBound: a wrapper that embeds Objective hides the loss bound (the
// default Clip then uses S = 1 and the result warns); forwarding LossBound or wrapping with
// WithLossBound keeps it, and WithLossBound still forwards every evaluation.
func TestWrappersKeepTheLossBound(t *testing.T) {
	inner := newScaledBowls(3, 8) // W = 12, l = 2, S = 8: default Clip 1 with the bound, 0.125 without
	hiding := &counter{Objective: inner}
	forwarding := &forwardingCounter{counter{Objective: inner}}
	declared := &counter{Objective: inner}
	for _, c := range []struct {
		name    string
		obj     Objective
		evals   *int
		clip    float64
		warning bool
	}{
		{"inner", inner, nil, 1, false},
		{"wrapper hiding the bound", hiding, &hiding.evals, 0.125, true},
		{"wrapper forwarding the bound", forwarding, &forwarding.evals, 1, false},
		{"WithLossBound", WithLossBound(declared, 8), &declared.evals, 1, false},
	} {
		s := Settings{Mu: 1, Iters: 2}
		res, err := Minimize(context.Background(), c.obj, []float64{0, 0, 0}, s, rand.New(rand.NewPCG(1, 1)), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		used, err := s.WithDefaults(c.obj)
		if err != nil {
			t.Fatal(err)
		}
		if used.clip != c.clip {
			t.Errorf("%s: default Clip %v, want %v", c.name, used.clip, c.clip)
		}
		warned := len(res.Warnings) == 1 && strings.Contains(res.Warnings[0], "declares no loss bound")
		if warned != c.warning || (!c.warning && len(res.Warnings) > 0) {
			t.Errorf("%s: warnings %q; want the no-loss-bound warning: %v", c.name, res.Warnings, c.warning)
		}
		if c.evals != nil && *c.evals != res.Evals {
			t.Errorf("%s: the wrapper counted %d evaluations, the run charged %d", c.name, *c.evals, res.Evals)
		}
	}
	// A set Clip or Standardise (whose losses have unit spread by construction) needs no
	// bound: no warning.
	for _, s := range []Settings{{Mu: 1, Clipping: FixedClip(0.3)}, {Mu: 1, Standardise: true}} {
		f, err := Forecast(hiding, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Warnings) != 0 {
			t.Errorf("Clip %v, Standardise %v: warnings %q, want none", s.clip, s.Standardise, f.Warnings)
		}
	}
	// WithLossBound replaces a bound the objective declares itself.
	if used, _ := (Settings{Mu: 1}).WithDefaults(WithLossBound(inner, 4)); used.clip != 0.5 {
		t.Errorf("WithLossBound(obj with bound 8, 4): default Clip %v, want 4/(4*2) = 0.5", used.clip)
	}
}
