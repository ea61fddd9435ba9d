package algo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// LossBounder is the optional interface of an Objective that knows, without looking at the
// validation data, an upper bound on every per-user loss: 0 <= L(theta, x_i) <= LossBound()
// for every theta in the box and every possible user. It is a public fact (like the box),
// so settings derived from it cost no privacy. Minimize uses it only for the default Clip
// (see Settings.WithDefaults); private score-based baselines clip each user's loss to it.
// Every task of this project implements it.
type LossBounder interface {
	// LossBound is Lmax, positive and finite.
	LossBound() float64
}

// publicFacts are everything the defaults of Settings may depend on: the dimension, the
// box and the objective's declared loss bound. Nothing in it is computed from the
// validation data, so defaults derived from it cost no privacy.
type publicFacts struct {
	d int
	// width is W, the median side hi_j - lo_j of the box over the coordinates with a
	// positive side (1 when every side is zero: nothing is tuned then).
	width float64
	// lossScale is S, the objective's LossBound() when it has one, otherwise 1.
	lossScale float64
	// lossBound reports whether lossScale came from LossBound().
	lossBound bool
}

// factsOf reads the public facts of obj. lo and hi are its bounds, already checked by the
// caller to have length d.
func factsOf(obj Objective, lo, hi []float64) (publicFacts, error) {
	f := publicFacts{d: len(lo), width: BoxWidth(lo, hi), lossScale: 1}
	if lb, ok := obj.(LossBounder); ok {
		v := lb.LossBound()
		if !positiveFinite(v) {
			return f, fmt.Errorf("algo: the objective's LossBound() = %v; a loss bound must be positive and finite", v)
		}
		f.lossScale, f.lossBound = v, true
	}
	return f, nil
}

// BoxWidth is W, the box's scale from which the defaults derive (see WithDefaults): the
// median of the positive sides hi_j - lo_j, or 1 when no side is positive.
func BoxWidth(lo, hi []float64) float64 {
	sides := make([]float64, 0, len(lo))
	for j := range lo {
		if w := hi[j] - lo[j]; w > 0 {
			sides = append(sides, w)
		}
	}
	if len(sides) == 0 {
		return 1
	}
	slices.Sort(sides)
	m := len(sides) / 2
	if len(sides)%2 == 1 {
		return sides[m]
	}
	return (sides[m-1] + sides[m]) / 2
}

// Constants of the defaults derived from the box and the loss bound (see
// Settings.WithDefaults for the formulas).
const (
	// defaultLengthscalesPerWidth is W / Kernel.Lengthscale: the box side spans six
	// length-scales, which is the paper's length-scale 1 on its boxes of side 6.
	defaultLengthscalesPerWidth = 6
	// defaultClipFraction is Clip * Kernel.Lengthscale / S: the default Clip is a quarter
	// of S/l, the slope of a loss that spans its whole range [0, S] over one length-scale.
	defaultClipFraction = 0.25
)

// applyPublicDefaults fills the zero Kernel, LocalRadius, Clip and Step of s from f (and
// Iters, which Step depends on), and turns ClipCalibration on where Clip is left to the
// defaults (calibratesByDefault). Fields already set are kept; validation is resolved's.
func (s Settings) applyPublicDefaults(f publicFacts) Settings {
	if s.calibratesByDefault() {
		s.calibration = &ClipCalibration{}
	}
	s.Iters = cmp.Or(s.Iters, defaultIters)
	if s.Kernel.Lengthscale == 0 {
		s.Kernel.Lengthscale = f.width / defaultLengthscalesPerWidth
	}
	s.Kernel.Variance = cmp.Or(s.Kernel.Variance, 1)
	if s.LocalRadius == 0 && positiveFinite(s.Kernel.Lengthscale) {
		s.LocalRadius = 2 * s.Kernel.Lengthscale
	}
	if s.clip == 0 && positiveFinite(s.Kernel.Lengthscale) {
		scale := f.lossScale
		if s.Standardise {
			scale = 1
		}
		s.clip = defaultClipFraction * scale / s.Kernel.Lengthscale
	}
	if s.Shrink == ShrinkDefault {
		s.Shrink = NoShrink
	}
	if s.Release == ReleaseDefault {
		s.Release = ReleaseLast
	}
	if s.FallbackSNR == 0 {
		s.FallbackSNR = defaultFallbackSNR
	}
	if s.Step == 0 && s.Iters > 0 {
		switch s.StepRule {
		case GradientDescent:
			if positiveFinite(s.clip) {
				s.Step = f.width / (float64(s.Iters) * s.clip)
			}
		default:
			s.Step = f.width / math.Sqrt(float64(s.Iters))
		}
	}
	return s
}

// calibratesByDefault reports whether the defaults choose B by ClipCalibration: a private
// run (finite Mu) with the AdaGrad rule that leaves Clip and ClipCalibration unset. A
// non-private run has no noise to trade against clipping, and the gradient-descent rule's
// default Step depends on Clip, so both keep the fixed default Clip.
func (s Settings) calibratesByDefault() bool {
	return s.clip == 0 && s.calibration == nil && !math.IsInf(s.Mu, 1) && s.StepRule == AdaGrad
}

// WithDefaults returns s with every zero field replaced by its default for obj, and an
// error if the result is invalid. Minimize runs with exactly these settings. The defaults
// depend only on public facts, never on the validation data: the dimension d, the box
// (through W, the median side hi_j - lo_j over coordinates with a positive side) and, when
// obj implements LossBounder, S = obj.LossBound() (S = 1 otherwise, and with Standardise,
// whose losses have unit spread). WithDefaults never calls obj.Losses.
//
//	Iters              20
//	Batch              d+1 when BiasTol is 0 (the paper's setting)
//	MaxBatch           4(d+1)
//	Kernel.Lengthscale l = W/6 (the paper's 1 on its boxes of side 6)
//	Kernel.Variance    1 (with NoiseStd 0 the posterior-mean gradient does not depend on it)
//	LocalRadius        2 l = W/3
//	Clipping           ClipCalibration{} in a private run (finite Mu) with the AdaGrad rule:
//	                   B is chosen privately at the first iteration as the upper quartile of
//	                   the users' gradient norms, for 5% of Mu^2, its grid anchored at
//	                   S/(4 l); FixedClip(S/(4 l)) otherwise: a quarter of S/l, the slope of
//	                   a loss that spans its whole range [0, S] over one length-scale. An
//	                   AdaptiveClip or ClipCalibration left without Start or Anchor gets
//	                   S/(4 l) there, and an AdaptiveClip of a private AdaGrad run without
//	                   Start or Calibration calibrates its B_0
//	Step (AdaGrad)     W/sqrt(Iters): AdaGrad moves a coordinate by at most about
//	                   2 Step sqrt(Iters), so a gradient of constant sign can cross the box
//	                   twice, and a noisy one, whose sign varies, about once
//	Step (gradient     W/(Iters B): Iters steps of a gradient of norm B cross the box
//	descent)           once
//	PriorMean          PriorUserMean
//	DesignStarts       3 with a fixed batch, 1 with an adaptive batch
//	DesignEvals        60
//	DesignRefine       RefineJoint with a fixed batch, RefineNone with an adaptive batch
//	MaxKept            every point with a fixed batch, 8(d+1) with an adaptive batch
//
// The experiments of this repository set Clipping, Step, Kernel and LocalRadius explicitly to
// the paper's values; these defaults are for a box and a loss of any other scale. The
// library study (docs/library.md, reproduction/defaults/) measures them against hand-tuned
// settings.
func (s Settings) WithDefaults(obj Objective) (Settings, error) {
	f, err := publicFactsOf(obj)
	if err != nil {
		return s, err
	}
	return s.resolved(f)
}

// publicFactsOf checks obj's dimension and bounds and reads its public facts, for
// WithDefaults and Forecast.
func publicFactsOf(obj Objective) (publicFacts, error) {
	if obj == nil {
		return publicFacts{}, fmt.Errorf("algo: nil Objective")
	}
	d := obj.Dim()
	if d <= 0 {
		return publicFacts{}, fmt.Errorf("algo: objective dimension %d must be positive", d)
	}
	lo, hi := obj.Bounds()
	if len(lo) != d || len(hi) != d {
		return publicFacts{}, fmt.Errorf("algo: bounds have lengths %d and %d, want %d", len(lo), len(hi), d)
	}
	if err := checkBox(lo, hi); err != nil {
		return publicFacts{}, fmt.Errorf("algo: %w", err)
	}
	return factsOf(obj, lo, hi)
}

// checkBox returns an error naming the first coordinate whose bounds are not a finite
// interval lo <= hi (NaN, an infinite bound, or lo > hi).
func checkBox(lo, hi []float64) error {
	for j := range lo {
		if !(lo[j] <= hi[j]) || math.IsInf(lo[j], 0) || math.IsInf(hi[j], 0) {
			return fmt.Errorf("bounds of coordinate %d, [%v, %v], are not a finite interval lo <= hi", j, lo[j], hi[j])
		}
	}
	return nil
}

// PrivacyForecast is what Forecast tells before a run: how much privacy noise DP-GIBO will
// add and how strong a gradient can at best stand out of it. Every field follows from
// public quantities only (the settings after defaults, n, d and the declared loss bound),
// never from the losses, so computing it costs no privacy.
type PrivacyForecast struct {
	// Settings are the settings the run will use (Settings.WithDefaults).
	Settings Settings
	// Users is n = obj.Users() and Dim is d = obj.Dim().
	Users, Dim int
	// GradientMu is mu_g, the part of Mu spent on the privatised gradients: all of Mu
	// without adaptive clipping or calibration, Mu sqrt(1 - CountShare) with adaptive
	// clipping (splitMu), Mu sqrt(1 - CountShare - Share) with ClipCalibration too.
	GradientMu float64
	// NoiseStd is the standard deviation of the privacy noise added to each coordinate of
	// the clipped mean gradient in each iteration, PrivacyNoiseStd(Clip, Iters, n,
	// GradientMu) = 2 Clip sqrt(T)/(n mu_g): the value Iteration.NoiseStd reports. With
	// AdaptiveClip it is the first iteration's (Clip is B_0); iteration t's is
	// NoiseStd B_t/B_0. It is 0 when Mu is +Inf, and NaN with ClipCalibration (the default
	// of a private run that leaves Clip at zero), whose B is chosen from the data at the
	// first iteration: the noise is then NoisePerClip B.
	NoiseStd float64
	// NoisePerClip is the noise standard deviation per unit of clipping norm,
	// 2 sqrt(T)/(n mu_g): every iteration's Iteration.NoiseStd is NoisePerClip times its
	// Iteration.Clip, whichever way B is chosen. 0 when Mu is +Inf.
	NoisePerClip float64
	// SNRCeiling is the largest privacy signal-to-noise ratio any iteration can reach,
	// n mu_g/(2 sqrt(T d)): the clipped mean gradient has norm at most B and the noise a
	// root-mean-square norm of NoiseStd sqrt(d) = 2 B sqrt(T d)/(n mu_g), so their ratio
	// (NonPrivateDiagnostics.SNR) cannot exceed it, whatever B is, and reaches it only if
	// every user is clipped and all their gradients point the same way. Below 1 the privacy
	// noise outweighs every possible gradient and the steps are mostly noise; no Clip,
	// Step or AdaptiveClip setting helps. To raise it, use more validation users (n), a
	// larger Mu, fewer iterations (T: the ceiling grows as 1/sqrt(T)) or fewer
	// hyperparameters (d). +Inf when Mu is +Inf.
	SNRCeiling float64
	// Warnings are the warnings Minimize will put in Result.Warnings for these settings
	// (nil when there are none).
	Warnings []string
}

// Forecast reports, before a run, the privacy noise DP-GIBO will add per coordinate and
// iteration and the ceiling of the privacy signal-to-noise ratio (see PrivacyForecast),
// with the settings after defaults and the warnings the run will carry. It reads only
// obj.Dim, obj.Bounds, obj.Users and, when obj implements LossBounder, obj.LossBound:
// never obj.Losses. It errors when WithDefaults does or when obj has no users. Minimize
// does not consult it: a run with a ceiling below 1 still runs (and says so in
// Result.Warnings). A ceiling below 1 is raised by more validation users, a larger Mu,
// fewer Iters or fewer hyperparameters, not by any clipping or step setting.
func Forecast(obj Objective, s Settings) (PrivacyForecast, error) {
	f, err := publicFactsOf(obj)
	if err != nil {
		return PrivacyForecast{}, err
	}
	n := obj.Users()
	if n <= 0 {
		return PrivacyForecast{}, fmt.Errorf("algo: objective has %d users, need at least one", n)
	}
	set, err := s.resolved(f)
	if err != nil {
		return PrivacyForecast{}, err
	}
	muGrad, _, _ := set.muParts()
	noiseStd := set.gradientNoiseStd(set.clip, n)
	perClip := set.gradientNoiseStd(1, n)
	if set.calibration != nil {
		noiseStd = math.NaN() // B is chosen from the data at the first iteration
	}
	return PrivacyForecast{
		Settings:     set,
		Users:        n,
		Dim:          f.d,
		GradientMu:   muGrad,
		NoiseStd:     noiseStd,
		NoisePerClip: perClip,
		SNRCeiling:   snrCeiling(n, f.d, set.Iters, muGrad),
		Warnings:     runWarnings(s, set, f, n),
	}, nil
}

// snrCeiling is n mu_g/(2 sqrt(T d)), the bound on the privacy SNR of every iteration (see
// PrivacyForecast.SNRCeiling); +Inf when muGrad is +Inf.
func snrCeiling(users, d, iters int, muGrad float64) float64 {
	return float64(users) * muGrad / (2 * math.Sqrt(float64(iters)*float64(d)))
}

// runWarnings are the warnings of a run with the given settings, resolved to set for a
// problem with facts f and n users; they read public quantities only.
func runWarnings(given, set Settings, f publicFacts, n int) []string {
	var w []string
	given, _ = given.lowerClipping() // its errors are resolved's
	if given.clip == 0 && !f.lossBound && !set.Standardise {
		use := "which may be far from the users' gradients"
		if c := set.calibration; c != nil {
			grid := c.grid(set.clip)
			use = fmt.Sprintf("which anchors ClipCalibration's search: B can only fall between %.4g and %.4g",
				slices.Min(grid), slices.Max(grid))
		}
		w = append(w, fmt.Sprintf("algo: the objective declares no loss bound (it does not implement LossBounder, "+
			"perhaps because a wrapper hides the method), so the default B = S/(4 l) used S = 1 and is %.4g, "+
			"%s; declare the bound (a LossBound method, or WithLossBound) or set Clipping", set.clip, use))
	}
	muGrad, _, muCal := set.muParts()
	if c := set.calibration; c != nil {
		if noise := CalibrationNoiseStd(c.Queries, muCal); noise > float64(n)/4 {
			w = append(w, fmt.Sprintf("algo: ClipCalibration's noisy counts have standard deviation %.3g users, over a quarter of the n = %d users, "+
				"so the clipping norm it chooses is mostly noise; set Clipping to FixedClip(B), or give the calibration more of Mu (ClipCalibration.Share)", noise, n))
		}
	}
	if c := snrCeiling(n, f.d, set.Iters, muGrad); c < 1 {
		w = append(w, fmt.Sprintf("algo: the privacy SNR cannot exceed n mu_g/(2 sqrt(T d)) = %.3g < 1 "+
			"(n = %d, mu_g = %.4g, T = %d, d = %d): the privacy noise outweighs any clipped mean gradient, whatever B is; "+
			"more users, a larger Mu, fewer Iters or fewer hyperparameters raise it", c, n, muGrad, set.Iters, f.d))
	}
	if bw := blasWarning(); bw != "" {
		w = append(w, bw)
	}
	return w
}

// WithLossBound returns obj declaring bound as its loss bound (LossBounder): every method
// of obj's Objective is obj's own, and LossBound returns bound (replacing obj's own loss
// bound if it has one). bound must be positive and finite, like any loss bound; Minimize,
// WithDefaults and Forecast report it otherwise.
//
// A wrapper around an Objective (an evaluation counter, a cache, a logger) that embeds the
// Objective interface hides the wrapped value's LossBound, because Objective does not
// include that method: the defaults then use S = 1 (and Result.Warnings says so). Either
// give the wrapper a forwarding method,
//
//	func (c *counter) LossBound() float64 { return c.Objective.(algo.LossBounder).LossBound() }
//
// or pass algo.WithLossBound(c, bound) to Minimize.
func WithLossBound(obj Objective, bound float64) Objective {
	return boundedObjective{Objective: obj, bound: bound}
}

// boundedObjective is WithLossBound's wrapper.
type boundedObjective struct {
	Objective
	bound float64
}

// LossBound implements LossBounder.
func (b boundedObjective) LossBound() float64 { return b.bound }
