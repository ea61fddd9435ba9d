package algo

import (
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
	f := publicFacts{d: len(lo), width: boxWidth(lo, hi), lossScale: 1}
	if lb, ok := obj.(LossBounder); ok {
		v := lb.LossBound()
		if !positiveFinite(v) {
			return f, fmt.Errorf("algo: the objective's LossBound() = %v; a loss bound must be positive and finite", v)
		}
		f.lossScale, f.lossBound = v, true
	}
	return f, nil
}

// boxWidth is W: the median of the positive sides hi_j - lo_j, or 1 when no side is
// positive.
func boxWidth(lo, hi []float64) float64 {
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
	// DefaultLengthscalesPerWidth is W / Kernel.Lengthscale: the box side spans six
	// length-scales, which is the paper's length-scale 1 on its boxes of side 6.
	DefaultLengthscalesPerWidth = 6
	// DefaultClipFraction is Clip * Kernel.Lengthscale / S: the default Clip is a quarter
	// of S/l, the slope of a loss that spans its whole range [0, S] over one length-scale.
	DefaultClipFraction = 0.25
)

// applyPublicDefaults fills the zero Kernel, LocalRadius, Clip and Step of s from f (and
// Iters, which Step depends on). Fields already set are kept; validation is resolved's.
func (s Settings) applyPublicDefaults(f publicFacts) Settings {
	if s.Iters == 0 {
		s.Iters = DefaultIters
	}
	if s.Kernel.Lengthscale == 0 {
		s.Kernel.Lengthscale = f.width / DefaultLengthscalesPerWidth
	}
	if s.Kernel.Variance == 0 {
		s.Kernel.Variance = 1
	}
	if s.LocalRadius == 0 && positiveFinite(s.Kernel.Lengthscale) {
		s.LocalRadius = 2 * s.Kernel.Lengthscale
	}
	if s.Clip == 0 && positiveFinite(s.Kernel.Lengthscale) {
		scale := f.lossScale
		if s.Standardise {
			scale = 1
		}
		s.Clip = DefaultClipFraction * scale / s.Kernel.Lengthscale
	}
	if s.Step == 0 && s.Iters > 0 {
		switch s.StepRule {
		case GradientDescent:
			if positiveFinite(s.Clip) {
				s.Step = f.width / (float64(s.Iters) * s.Clip)
			}
		default:
			s.Step = f.width / (2 * math.Sqrt(float64(s.Iters)))
		}
	}
	return s
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
//	Clip               S/(4 l): a quarter of S/l, the slope of a loss that spans its whole
//	                   range [0, S] over one length-scale
//	Step (AdaGrad)     W/(2 sqrt(Iters)): AdaGrad moves a coordinate by at most about
//	                   2 Step sqrt(Iters), so a gradient of constant sign can cross the box
//	                   once
//	Step (gradient     W/(Iters Clip): Iters steps of a gradient of norm Clip cross the box
//	descent)           once
//	PriorMean          DefaultPriorMean
//	DesignStarts       3
//	DesignEvals        60
//
// The experiments of this repository set Clip, Step, Kernel and LocalRadius explicitly to
// the paper's values; these defaults are for a box and a loss of any other scale.
func (s Settings) WithDefaults(obj Objective) (Settings, error) {
	if obj == nil {
		return s, fmt.Errorf("algo: nil Objective")
	}
	d := obj.Dim()
	if d <= 0 {
		return s, fmt.Errorf("algo: objective dimension %d must be positive", d)
	}
	lo, hi := obj.Bounds()
	if len(lo) != d || len(hi) != d {
		return s, fmt.Errorf("algo: bounds have lengths %d and %d, want %d", len(lo), len(hi), d)
	}
	f, err := factsOf(obj, lo, hi)
	if err != nil {
		return s, err
	}
	return s.resolved(f)
}
