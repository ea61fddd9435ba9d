package algo

import (
	"cmp"
	"fmt"
	"math"
)

// AdaptiveClip configures adaptive clipping (Andrew, Thakkar, McMahan and Ramaswamy 2021,
// "Differentially private learning with adaptive clipping"): instead of a fixed B, the
// clipping norm B_t of iteration t tracks a target quantile of the users' surrogate
// gradient norms. Every iteration releases, besides the privatised gradient, a privatised
// count of the users whose gradient norm is at most B_t, and moves B geometrically towards
// the quantile:
//
//	B_{t+1} = B_t exp(-Rate (count~_t / n - Quantile)).
//
// B_0 is Start, fixed without looking at the data, or chosen by Calibration. The total mu of
// Settings.Mu is split between the two kinds of release: mu^2 = mu_g^2 + mu_c^2 with
// mu_c^2 = CountShare mu^2 (Dong, Roth and Su 2022, Corollary 3.3: T Gaussian releases of
// per-release GDP parameters a_t compose to sqrt(sum a_t^2)-GDP). The gradient noise of
// iteration t has standard deviation 2 B_t sqrt(T)/(n mu_g) per coordinate and the count
// noise sqrt(T)/mu_c. B_t is a function of the released counts only, so calibrating the
// gradient noise to it is adaptive composition and costs nothing extra.
type AdaptiveClip struct {
	// Quantile is the target share gamma of users whose gradient norm is at most B_t
	// (default 0.5, the median: Andrew et al. found it a good default).
	Quantile float64
	// Rate is eta_C of the geometric update (default 0.2, Andrew et al.'s value). With
	// the tens of iterations of DP-GIBO (rather than thousands of rounds) a larger rate
	// lets B travel further: B can change by at most a factor exp(Rate*max(Quantile,
	// 1-Quantile)) per iteration, up to the count noise.
	Rate float64
	// CountShare is the share of mu^2 spent on the counts, mu_c^2 = CountShare*Mu^2, in
	// (0, 1) (default 0.1).
	CountShare float64
	// Start is B_0 when set (positive, chosen without looking at the data). Left at zero,
	// B_0 is the default B of Settings.Clipping: calibrated in a private run with the
	// AdaGrad rule, S/(4 l) otherwise.
	Start float64
	// Calibration, when set, chooses B_0 privately (ClipCalibration, Start then only anchors
	// its grid); its Share and CountShare must stay below 1 together.
	Calibration *ClipCalibration
}

// ClipRule chooses the clipping norm B of Algorithm 1, line 8 (Settings.Clipping):
// FixedClip, ClipCalibration or AdaptiveClip, as values or pointers.
type ClipRule interface{ clipRule() }

// FixedClip is B fixed by hand, without looking at the data: positive and finite.
type FixedClip float64

func (FixedClip) clipRule()       {}
func (ClipCalibration) clipRule() {}
func (AdaptiveClip) clipRule()    {}

// lowerClipping sets s's internal clipping fields from s.Clipping: B (FixedClip), the
// anchor of the calibration's grid (ClipCalibration.Anchor) or B_0 (AdaptiveClip.Start),
// and the calibration and adaptive rules (nil when off). An unknown rule is an error.
func (s Settings) lowerClipping() (Settings, error) {
	s.clip, s.adaptive, s.calibration = 0, nil, nil
	rule := s.Clipping
	// A rule given by pointer is read as its value.
	switch r := rule.(type) {
	case *FixedClip:
		rule = derefRule(r)
	case *ClipCalibration:
		rule = derefRule(r)
	case *AdaptiveClip:
		rule = derefRule(r)
	}
	switch r := rule.(type) {
	case nil:
	case FixedClip:
		s.clip = float64(r)
		if !positiveFinite(s.clip) {
			return s, fmt.Errorf("algo: FixedClip must be positive and finite, got %v", s.clip)
		}
	case ClipCalibration:
		s.clip, s.calibration = r.Anchor, lowerCalibration(&r)
	case AdaptiveClip:
		s.clip, s.adaptive, s.calibration = r.Start, lowerAdaptive(r), lowerCalibration(r.Calibration)
	default:
		return s, fmt.Errorf("algo: unknown clipping rule %T", r)
	}
	if s.clip != 0 && !positiveFinite(s.clip) {
		return s, fmt.Errorf("algo: the clipping rule's B (Anchor, Start) must be positive and finite when set, got %v", s.clip)
	}
	return s, nil
}

// derefRule is *r as a ClipRule, or nil (the default rule) for a nil pointer.
func derefRule[T ClipRule](r *T) ClipRule {
	if r == nil {
		return nil
	}
	return *r
}

// lowerCalibration is a copy of c without its Anchor (which lowerClipping keeps in clip),
// nil for nil.
func lowerCalibration(c *ClipCalibration) *ClipCalibration {
	if c == nil {
		return nil
	}
	out := *c
	out.Anchor = 0
	return &out
}

// lowerAdaptive is a copy of a without its Start and Calibration (which lowerClipping keeps
// in clip and calibration).
func lowerAdaptive(a AdaptiveClip) *AdaptiveClip {
	a.Start, a.Calibration = 0, nil
	return &a
}

// raisedClipping is the explicit rule of s's resolved clipping fields, for the settings
// WithDefaults returns: AdaptiveClip (with Start B_0 and its calibration), ClipCalibration
// (with Anchor), or FixedClip.
func (s Settings) raisedClipping() ClipRule {
	switch {
	case s.adaptive != nil:
		a := *s.adaptive
		a.Start = s.clip
		if s.calibration != nil {
			c := *s.calibration
			a.Calibration = &c
		}
		return a
	case s.calibration != nil:
		c := *s.calibration
		c.Anchor = s.clip
		return c
	}
	return FixedClip(s.clip)
}

// Defaults of AdaptiveClip.
const (
	defaultClipQuantile   = 0.5
	defaultClipRate       = 0.2
	defaultClipCountShare = 0.1
)

// resolved fills zero fields with the defaults and validates.
func (a AdaptiveClip) resolved() (AdaptiveClip, error) {
	a.Quantile = cmp.Or(a.Quantile, defaultClipQuantile)
	a.Rate = cmp.Or(a.Rate, defaultClipRate)
	a.CountShare = cmp.Or(a.CountShare, defaultClipCountShare)
	switch {
	case !(a.Quantile > 0 && a.Quantile < 1):
		return a, fmt.Errorf("AdaptiveClip.Quantile must lie in (0, 1), got %v", a.Quantile)
	case !(a.Rate > 0) || math.IsInf(a.Rate, 0):
		return a, fmt.Errorf("AdaptiveClip.Rate must be positive and finite, got %v", a.Rate)
	case !(a.CountShare > 0 && a.CountShare < 1):
		return a, fmt.Errorf("AdaptiveClip.CountShare must lie in (0, 1), got %v", a.CountShare)
	}
	return a, nil
}

// CountMu is the part of a total mu that adaptive clipping spends on its T noisy counts,
// mu_c = mu sqrt(CountShare) (default CountShare 0.1), under every clip rule: with
// ClipCalibration too, the calibration's part comes out of the gradients' share, never out
// of the counts' (Settings.Mu). mu = +Inf gives +Inf.
func (a AdaptiveClip) CountMu(mu float64) float64 {
	if math.IsInf(mu, 1) {
		return mu
	}
	return mu * math.Sqrt(cmp.Or(a.CountShare, defaultClipCountShare))
}

// splitMu returns the parts of a total mu spent on the gradients and on the counts under
// adaptive clipping without ClipCalibration: mu_g = mu sqrt(1-CountShare), mu_c = mu
// sqrt(CountShare), so that mu_g^2 + mu_c^2 = mu^2. Without adaptive clipping (a == nil)
// all of mu goes to the gradients. mu = +Inf gives +Inf for both parts that are used.
// (Settings.muParts splits Mu under every clip rule.)
func splitMu(mu float64, a *AdaptiveClip) (muGrad, muCount float64) {
	if a == nil {
		return mu, 0
	}
	if math.IsInf(mu, 1) {
		return mu, mu
	}
	return mu * math.Sqrt(1-a.CountShare), mu * math.Sqrt(a.CountShare)
}

// countNoiseStd is the standard deviation sqrt(T)/muCount of the Gaussian noise added to
// the count of users under the clipping norm: the count has sensitivity 1 under
// replacement of one user, so each of the T counts is (muCount/sqrt(T))-GDP and together
// muCount-GDP (Andrew et al. 2021, Algorithm 1, the noised indicator sum). +Inf gives 0.
func countNoiseStd(iters int, muCount float64) float64 {
	if math.IsInf(muCount, 1) {
		return 0
	}
	return math.Sqrt(float64(iters)) / muCount
}

// releaseCount privatises the count of users whose surrogate gradient norm is at most the
// current clipping norm: count~ = count + N(0, countNoiseStd^2) (Andrew et al. 2021,
// Algorithm 1, "b~ = (sum_i b_i + N(0, sigma_b^2)) / m", here kept as a count). It draws one
// normal from rng whenever the count noise is positive.
func (r *run) releaseCount(under int) float64 {
	c := float64(under)
	if r.countStd > 0 {
		c += r.countStd * r.rng.NormFloat64()
	}
	return c
}

// nextClip is the geometric clipping-norm update of Andrew et al. 2021 (Algorithm 1,
// "C <- C exp(-eta_C (b~ - gamma))"), with b~ = count~/n the released share of users at or
// under the current norm. It reads only the released count, so it is post-processing.
func nextClip(clip, count float64, n int, a AdaptiveClip) float64 {
	return clip * math.Exp(-a.Rate*(count/float64(n)-a.Quantile))
}

// noiseFloorFactor is the constant c of NoiseFloorClip.
const noiseFloorFactor = 2

// NoiseFloorClip is a clipping norm fixed without the validation data: B = c sigma / l with
// c = 2, sigma the evaluation noise standard deviation the surrogate assumes (floored as the
// surrogate floors it, sqrt(1e-6 Variance)) and l the kernel's length-scale: about the size
// of the surrogate gradient that evaluation noise alone produces, so users with a resolvable
// gradient get the full weight B. Nothing in it reads the data. docs/library.md, "The
// noise-floor clip", derives it.
func NoiseFloorClip(k RBF, noiseStd float64) float64 {
	sigma := noiseStd
	if floor := minNoiseVar * k.Variance; sigma*sigma < floor {
		sigma = math.Sqrt(floor)
	}
	return noiseFloorFactor * sigma / k.Lengthscale
}
