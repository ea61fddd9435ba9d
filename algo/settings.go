package algo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"

	"dpgibo/accounting"
)

// StepRule says how the privatised gradient moves theta (Algorithm 1, line 9). Both rules
// use only the privatised gradient, so they are post-processing and cost no privacy.
type StepRule int

const (
	// AdaGrad scales each coordinate by the root of the running sum of squared privatised
	// gradients; the paper's experiments use it. It is the zero value.
	AdaGrad StepRule = iota
	// GradientDescent is the plain step theta - Step*g of Algorithm 1, line 9.
	GradientDescent
)

func (r StepRule) String() string {
	switch r {
	case AdaGrad:
		return "adagrad"
	case GradientDescent:
		return "gd"
	}
	return fmt.Sprintf("StepRule(%d)", int(r))
}

// Shrink says whether an iteration's step is shortened by the share of its privatised
// gradient that is signal (Algorithm 1, line 9). It reads only the privatised gradient and
// its public noise level, so it is post-processing and costs no privacy.
type Shrink int

const (
	// ShrinkDefault is the zero value: the default rule (NoShrink; see WithDefaults).
	ShrinkDefault Shrink = iota
	// NoShrink steps along the privatised gradient as released, as Algorithm 1 does.
	NoShrink
	// SignalShrink multiplies the step of iteration t by max(0, 1 - d s^2/|g~|^2), g~ its
	// privatised gradient and s the noise's standard deviation per coordinate: d s^2 is the
	// expected squared norm of the noise, so the factor estimates the share of |g~|^2 that
	// is signal (a positive-part James-Stein factor with d in place of d - 2). AdaGrad's
	// running sum still takes g~ as released. An iteration whose released gradient is no
	// longer than the noise alone would be does not move theta. Without privacy noise
	// (s = 0) the factor is 1.
	SignalShrink
)

func (s Shrink) String() string {
	switch s {
	case ShrinkDefault:
		return "default"
	case NoShrink:
		return "none"
	case SignalShrink:
		return "signal"
	}
	return fmt.Sprintf("Shrink(%d)", int(s))
}

// MarshalText encodes s by its name (String), so that a config records what it means.
func (s Shrink) MarshalText() ([]byte, error) { return marshalEnum(s, SignalShrink) }

// UnmarshalText decodes a name that MarshalText gives.
func (s *Shrink) UnmarshalText(b []byte) error { return unmarshalEnum(s, b, SignalShrink) }

// Release says which theta a run releases (Algorithm 1's output). Every rule reads only
// released values (theta0, the iterates, the privatised gradients and their public noise
// level s_t), never a loss, so it is post-processing and costs no privacy.
type Release int

const (
	// ReleaseDefault is the zero value: the default rule (ReleaseLast; see WithDefaults).
	ReleaseDefault Release = iota
	// ReleaseLast releases the last iterate, as Algorithm 1 does.
	ReleaseLast
	// ReleaseAverage releases the mean of the iterates theta_1, ..., theta_T (iterate
	// averaging), which lies in the box since the box is convex.
	ReleaseAverage
	// ReleaseFallback releases theta0 when the run's public SNR estimate is below
	// Settings.FallbackSNR, and the last iterate otherwise. The estimate is the mean over
	// the iterations of (|g~_t|^2 - d s_t^2)/(d s_t^2): d s_t^2 is the expected squared
	// norm of the noise, so each term estimates |g_t|^2/(d s_t^2), the squared SNR of the
	// clipped mean gradient. Below the threshold the steps are mostly noise, the iterates a
	// random walk, and the start is the better guess. Without privacy noise (s_t = 0) it
	// releases the last iterate.
	ReleaseFallback
)

func (r Release) String() string {
	switch r {
	case ReleaseDefault:
		return "default"
	case ReleaseLast:
		return "last"
	case ReleaseAverage:
		return "average"
	case ReleaseFallback:
		return "fallback"
	}
	return fmt.Sprintf("Release(%d)", int(r))
}

// MarshalText encodes r by its name (String), so that a config records what it means.
func (r Release) MarshalText() ([]byte, error) { return marshalEnum(r, ReleaseFallback) }

// UnmarshalText decodes a name that MarshalText gives.
func (r *Release) UnmarshalText(b []byte) error { return unmarshalEnum(r, b, ReleaseFallback) }

// marshalEnum is the name of v, an enumeration whose values run from 0 to last.
func marshalEnum[E ~int](v, last E) ([]byte, error) {
	if v < 0 || v > last {
		return nil, fmt.Errorf("algo: %v has no name", v)
	}
	return []byte(fmt.Sprint(v)), nil
}

// unmarshalEnum sets *v to the value from 0 to last whose name is b.
func unmarshalEnum[E interface {
	~int
	fmt.Stringer
}](v *E, b []byte, last E) error {
	var names []string
	for e := E(0); e <= last; e++ {
		if e.String() == string(b) {
			*v = e
			return nil
		}
		names = append(names, e.String())
	}
	return fmt.Errorf("algo: unknown %T %q (known: %s)", *v, b, strings.Join(names, ", "))
}

// defaultFallbackSNR is what FallbackSNR 0 means: the threshold the re-analysis of the
// committed library-private runs suggested (docs/library.md, "Low SNR").
const defaultFallbackSNR = 0.2

// PriorMean selects the prior mean of each user's GP surrogate.
type PriorMean int

const (
	// PriorDefault resolves to PriorUserMean.
	PriorDefault PriorMean = iota
	// PriorZero is the paper's formula: zero prior mean.
	PriorZero
	// PriorUserMean uses a per-user constant, the mean of that user's observations,
	// subtracted before the solve. A constant has zero gradient, so only the fit changes.
	PriorUserMean
)

// defaultPriorMean is what PriorDefault means. It was chosen by measurement on the group
// LASSO task (see docs/library.md, "Prior mean").
const defaultPriorMean = PriorUserMean

func (p PriorMean) String() string {
	switch p {
	case PriorDefault:
		return "default(" + defaultPriorMean.String() + ")"
	case PriorZero:
		return "zero"
	case PriorUserMean:
		return "user-mean"
	}
	return fmt.Sprintf("PriorMean(%d)", int(p))
}

// Settings configure DP-GIBO. The zero value of every field except Mu is usable and means
// the default given in its comment; Mu must be set on purpose (a positive value for
// DP-GIBO, math.Inf(1) for non-private GIBO), so that no run is non-private by accident.
// Defaults that depend on the problem's scale (Kernel, LocalRadius, Clip, Step) are derived
// from public facts only: the box's median side W and the objective's loss bound S when it
// implements LossBounder. WithDefaults lists the formulas and returns the settings a run
// would use.
type Settings struct {
	// Iters is T, the number of iterations (default 20). The privacy noise
	// scales with sqrt(Iters), so it is fixed before the run.
	Iters int
	// Batch is a fixed batch size b per iteration. When Batch and BiasTol are both zero,
	// Batch is d+1, the setting of the paper's experiments.
	Batch int
	// BiasTol is epsilon of Algorithm 1, line 4: when Batch is zero and BiasTol > 0, each
	// iteration evaluates the smallest batch whose acquisition value is <= BiasTol.
	BiasTol float64
	// MaxBatch caps the adaptive batch (default 4(d+1)); the trace reports when it binds.
	MaxBatch int
	// Clipping is the rule that chooses B, the per-user gradient clipping norm of line 8:
	// FixedClip(B), a norm fixed by hand; ClipCalibration, B chosen privately from the
	// users' gradient norms at the first iteration, for a part of Mu; or AdaptiveClip, B
	// adapted every iteration from a privatised count, for a part of Mu. nil is the
	// default: ClipCalibration{} in a private run (finite Mu) with the AdaGrad rule, and
	// FixedClip(S/(4 l)) otherwise, with l the kernel's length-scale and S the objective's
	// LossBound() (1 without one; see WithDefaults). A rule given as a pointer is read as
	// its value.
	Clipping ClipRule
	// clip, adaptive and calibration are Clipping lowered (lowerClipping): B (or the anchor
	// of the calibration's grid, or B_0), the adaptive rule and the calibration (nil when
	// off).
	clip        float64
	adaptive    *AdaptiveClip
	calibration *ClipCalibration
	// Standardise, when true, standardises each user's kept observations before the
	// surrogate gradient is computed (line 7): the user's mean over the kept design is
	// subtracted (as with PriorUserMean) and the result divided by the user's standard
	// deviation over it, so that every user's surrogate gradient is that of a loss with
	// unit spread on D. A user whose observations are all equal contributes a zero
	// gradient. It changes the scale of the gradients that Clip bounds: B then applies to
	// gradients of standardised losses. It is a per-user transformation applied before
	// clipping, so the sensitivity 2*Clip/n is unchanged. Requires PriorUserMean (or the
	// default prior mean).
	Standardise bool
	// NonPrivateDiagnostics, when true, fills Iteration.Diagnostics with quantities
	// computed from the validation data that are NOT part of the private release: the norm
	// of the clipped mean gradient, the norm of the privacy noise drawn and the share of
	// users clipped. Together with the released thetas they leak the data (the noise norm
	// places the true gradient on a sphere around the released one), so they are for the
	// analyst's own experiments and must never be published with a private result.
	// Turning them on changes no released value and draws no extra random numbers.
	NonPrivateDiagnostics bool
	// Mu is the total mu of mu-GDP over all Iters. +Inf disables the privacy noise (GIBO);
	// clipping is still applied. Zero, negative or NaN is an error.
	Mu float64
	// NoiseStd is sigma, the standard deviation of the evaluation noise the surrogate
	// assumes (default 0: noiseless; a numerical floor of 1e-6 Variance is used).
	NoiseStd float64
	// Step is eta (default W/sqrt(Iters) with AdaGrad, W/(Iters Clip) with
	// GradientDescent, W the box's median side; see WithDefaults).
	Step float64
	// StepRule is AdaGrad (zero value) or GradientDescent.
	StepRule StepRule
	// Shrink shortens steps by the signal share of their privatised gradient (default
	// NoShrink).
	Shrink Shrink
	// Release says which theta the run releases (default ReleaseLast); FallbackSNR is
	// ReleaseFallback's threshold of the public SNR estimate (default 0.2).
	Release     Release
	FallbackSNR float64
	// Kernel is the surrogate's RBF kernel. A zero Lengthscale defaults to W/6 (W the box's
	// median side; the paper's 1 on its boxes of side 6), a zero Variance to 1.
	Kernel RBF
	// PriorMean selects zero or per-user-constant prior mean (default PriorUserMean).
	PriorMean PriorMean
	// LocalRadius bounds design points to theta +- LocalRadius per coordinate, intersected
	// with the box (default 2*Kernel.Lengthscale; an invalid kernel is reported alone, not
	// again through the default radius derived from it).
	LocalRadius float64
	// MaxKept caps the number of design points kept in D (oldest dropped first). Zero keeps
	// every point with a fixed batch, as Algorithm 1 does (line 6, D_t = D_{t-1} u z), and
	// the last 8(d+1) with an adaptive batch, a deviation from line 6 shown loss-equivalent
	// before it became the default (docs/library.md, "Batch design"); a negative value keeps
	// every point in both modes.
	MaxKept int
	// MaxEvals stops the run before an iteration whose batch would exceed this many
	// evaluations (0: no cap). A cap below the first iteration's batch is an error (before
	// the run when Batch is fixed, at the first iteration when it is adaptive), never an
	// empty run.
	MaxEvals int
	// DesignStarts is the number of L-BFGS starts per greedily added point (default 3 with a
	// fixed batch, 1 with an adaptive batch; one is the warm start when a previous design
	// exists).
	DesignStarts int
	// DesignEvals caps objective evaluations of the acquisition per L-BFGS run
	// (default 60).
	DesignEvals int
	// DesignRefine says whether the batch is refined jointly by L-BFGS over all its points
	// after it is grown (Algorithm 1, line 5 asks for the joint arg-min). The zero value
	// RefineDefault refines fixed batches and keeps adaptive batches as grown greedily.
	DesignRefine Refinement
}

// Refinement is the joint refinement of a batch (Settings.DesignRefine).
type Refinement int

const (
	// RefineDefault refines fixed batches jointly and keeps adaptive batches greedy.
	RefineDefault Refinement = iota
	// RefineJoint grows the batch greedily, then refines all its points jointly by L-BFGS; a
	// fixed batch starts from the previous design shifted to the new theta.
	RefineJoint
	// RefineNone keeps the greedily grown batch; a fixed batch is grown greedily every
	// iteration, warm-started from the previous design.
	RefineNone
)

// minNoiseVar is the floor on the surrogate noise variance, relative to Kernel.Variance,
// that keeps Cholesky factorisations well conditioned when NoiseStd is zero or tiny.
const minNoiseVar = 1e-6

// defaultIters is the default T.
const defaultIters = 20

// resolved is Settings with defaults applied for a problem with the public facts f (see
// WithDefaults), validated.
func (s Settings) resolved(f publicFacts) (Settings, error) {
	if math.IsNaN(s.Mu) || s.Mu <= 0 {
		return s, fmt.Errorf("algo: Settings.Mu must be positive (math.Inf(1) for non-private GIBO), got %v", s.Mu)
	}
	d := f.d
	s, err := s.lowerClipping()
	if err != nil {
		return s, err
	}
	s = s.applyPublicDefaults(f)
	if s.Batch == 0 && s.BiasTol == 0 {
		s.Batch = d + 1
	}
	if s.MaxBatch == 0 {
		s.MaxBatch = 4 * (d + 1)
	}
	adaptive := s.Batch == 0
	if s.DesignStarts == 0 {
		s.DesignStarts = 3
		if adaptive {
			s.DesignStarts = 1
		}
	}
	if s.MaxKept == 0 && adaptive {
		s.MaxKept = 8 * (d + 1)
	}
	if s.DesignRefine == RefineDefault {
		s.DesignRefine = RefineJoint
		if adaptive {
			s.DesignRefine = RefineNone
		}
	}
	s.DesignEvals = cmp.Or(s.DesignEvals, 60)
	if s.PriorMean == PriorDefault {
		s.PriorMean = defaultPriorMean
	}
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(s.Iters > 0, "Iters must be positive, got %d", s.Iters)
	check(s.Batch >= 0, "Batch must be >= 0, got %d", s.Batch)
	check(s.BiasTol >= 0 && !math.IsNaN(s.BiasTol), "BiasTol must be >= 0, got %v", s.BiasTol)
	check(s.MaxBatch > 0, "MaxBatch must be positive, got %d", s.MaxBatch)
	// Clip, Step and LocalRadius still zero here are defaults that could not be derived
	// because a field they depend on (Kernel, Iters, Clip) is invalid, which is reported
	// alone.
	if s.clip != 0 {
		check(positiveFinite(s.clip), "the clipping rule's B must be positive and finite, got %v", s.clip)
	}
	check(s.NoiseStd >= 0 && !math.IsInf(s.NoiseStd, 0), "NoiseStd must be >= 0 and finite, got %v", s.NoiseStd)
	if s.Step != 0 {
		check(positiveFinite(s.Step), "Step must be positive and finite, got %v", s.Step)
	}
	check(s.StepRule == AdaGrad || s.StepRule == GradientDescent, "unknown StepRule %d", int(s.StepRule))
	check(s.Shrink >= ShrinkDefault && s.Shrink <= SignalShrink, "unknown Shrink %d", int(s.Shrink))
	check(s.Release >= ReleaseDefault && s.Release <= ReleaseFallback, "unknown Release %d", int(s.Release))
	check(s.FallbackSNR >= 0 && !math.IsInf(s.FallbackSNR, 0), "FallbackSNR must be >= 0 and finite, got %v", s.FallbackSNR)
	check(s.PriorMean == PriorZero || s.PriorMean == PriorUserMean, "unknown PriorMean %d", int(s.PriorMean))
	check(positiveFinite(s.Kernel.Lengthscale) && positiveFinite(s.Kernel.Variance), "Kernel needs positive finite Lengthscale and Variance, got %+v", s.Kernel)
	if s.LocalRadius != 0 {
		check(positiveFinite(s.LocalRadius), "LocalRadius must be positive and finite, got %v", s.LocalRadius)
	}
	check(s.DesignRefine == RefineJoint || s.DesignRefine == RefineNone, "unknown DesignRefine %d", int(s.DesignRefine))
	check(s.MaxEvals >= 0, "MaxEvals must be >= 0, got %d", s.MaxEvals)
	check(s.MaxEvals == 0 || s.Batch == 0 || s.MaxEvals >= s.Batch,
		"MaxEvals = %d is below the batch of %d evaluations per iteration: no iteration could run", s.MaxEvals, s.Batch)
	check(s.DesignStarts > 0 && s.DesignEvals > 0, "DesignStarts and DesignEvals must be positive")
	check(!s.Standardise || s.PriorMean == PriorUserMean, "Standardise needs PriorUserMean, got PriorMean %v", s.PriorMean)
	if s.adaptive != nil {
		a, err := s.adaptive.resolved()
		if err != nil {
			errs = append(errs, err)
		}
		s.adaptive = &a
	}
	if s.calibration != nil {
		c, err := s.calibration.resolved()
		if err != nil {
			errs = append(errs, err)
		}
		s.calibration = &c
		if s.adaptive != nil && !(c.Share+s.adaptive.CountShare < 1) {
			errs = append(errs, fmt.Errorf("ClipCalibration.Share + AdaptiveClip.CountShare must stay below 1, got %v + %v", c.Share, s.adaptive.CountShare))
		}
	}
	if len(errs) > 0 {
		return s, fmt.Errorf("algo: invalid Settings: %w", errors.Join(errs...))
	}
	s.Clipping = s.raisedClipping()
	return s, nil
}

// positiveFinite reports whether v is a positive finite number (false for NaN).
func positiveFinite(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// NoiseVar is the surrogate's observation noise variance: NoiseStd^2, floored at
// minNoiseVar*Kernel.Variance.
func (s Settings) noiseVar() float64 {
	return math.Max(s.NoiseStd*s.NoiseStd, minNoiseVar*s.Kernel.Variance)
}

// PrivacyNoiseStd is the standard deviation of the Gaussian noise added to each coordinate
// of the aggregated gradient at line 9 of Algorithm 1, for clipping norm clip (B), T = iters,
// n = users and mu = mu_g, the part of Settings.Mu spent on the gradients:
// 2*B*sqrt(T)/(n*mu_g). The sensitivity of the clipped mean under replacement of one user is
// 2*B/n; the factor sqrt(T)/mu_g makes each of the T releases (mu_g/sqrt(T))-GDP.
func PrivacyNoiseStd(clip float64, iters, users int, mu float64) float64 {
	if math.IsInf(mu, 1) {
		return 0
	}
	return 2 * clip * math.Sqrt(float64(iters)) / (float64(users) * mu)
}

// gradientNoiseStd is the per-coordinate standard deviation of the privacy noise of an
// iteration whose clipping norm is clip: PrivacyNoiseStd(clip, T, n, mu_g) with mu_g the
// part of Mu spent on gradients (all of it without adaptive clipping or calibration, see
// muParts).
func (s Settings) gradientNoiseStd(clip float64, users int) float64 {
	muGrad, _, _ := s.muParts()
	return PrivacyNoiseStd(clip, s.Iters, users, muGrad)
}

// muParts splits Mu into the parts spent on the gradients, on adaptive clipping's counts and
// on the clip calibration: mu_c^2 = CountShare Mu^2, mu_cal^2 = Share Mu^2 and mu_g^2 the
// rest, so that the three compose to Mu. Without calibration it is splitMu's split; a part
// whose mechanism is off is 0, and Mu = +Inf gives +Inf for every part in use.
func (s Settings) muParts() (muGrad, muCount, muCal float64) {
	if s.calibration == nil {
		muGrad, muCount = splitMu(s.Mu, s.adaptive)
		return muGrad, muCount, 0
	}
	countShare := 0.0
	if s.adaptive != nil {
		countShare = s.adaptive.CountShare
	}
	if math.IsInf(s.Mu, 1) {
		if s.adaptive != nil {
			muCount = s.Mu
		}
		return s.Mu, muCount, s.Mu
	}
	share := s.calibration.Share
	return s.Mu * math.Sqrt(1-countShare-share), s.Mu * math.Sqrt(countShare), s.Mu * math.Sqrt(share)
}

// Status is how a run ended (Result.Status), in the manner of gonum/optimize's Status.
type Status int

// The values of Status. The zero value, StatusUnknown, is that of a Result a method other
// than DP-GIBO and GIBO made without setting it.
const (
	StatusUnknown Status = iota
	Completed            // every one of the Iters iterations ran
	BudgetSpent          // Settings.MaxEvals left too few evaluations for the next batch
	CallbackStop         // the Callback returned an error
	Cancelled            // the context was cancelled or its deadline passed
	Failed               // an error stopped the run (Minimize returns it)
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Completed:
		return "completed"
	case BudgetSpent:
		return "budget spent"
	case CallbackStop:
		return "stopped by the callback"
	case Cancelled:
		return "cancelled"
	case Failed:
		return "failed"
	}
	return "unknown"
}

// Result is what an optimiser returns.
type Result struct {
	Theta  []float64         // the released theta^(T)
	Evals  int               // evaluations of Objective.Losses charged
	Iters  int               // iterations completed
	Ledger accounting.Ledger // privacy accounting of the release
	// NonPrivateTrials is the number of trials K of a private selection with a random
	// number of trials (the harness's dp-select-geometric, dp-select-negbin,
	// dp-select-poisson and dp-hypo, and dp-auto when it runs one), whose Evals and Iters
	// give the budget, the mean of K. It is NOT part of the release: the selections'
	// theorems cover the winner only. 0 for every other method.
	NonPrivateTrials int
	// Status says how the run ended: Completed (its T iterations), BudgetSpent
	// (Settings.MaxEvals left too few evaluations for the next batch), CallbackStop,
	// Cancelled (ctx) or Failed (with the error Minimize returns).
	Status Status
	// Warnings are facts about the run's settings that a caller would not want to
	// miss, one sentence each, from public quantities only (Forecast returns the same list
	// before a run): the default B used S = 1 because the objective declares no loss
	// bound; the ceiling of the privacy SNR is below 1. Nil when there are none; only
	// Minimize (and methods built on it) fills it.
	Warnings []string
	// Clip is the clipping norm B of the last iteration run: FixedClip's B, the
	// norm ClipCalibration chose from its noisy counts, or the last adapted norm under
	// AdaptiveClip (each a function of released values only, so it is public). 0 when no
	// iteration ran.
	Clip float64
	// Clips is the B of every iteration run, in order (Clip is the last): fixed, the
	// calibrated B throughout, or the adapted schedule. Public, as Clip.
	Clips []float64
	// Calibration is ClipCalibration's outcome (nil when B was not calibrated or no
	// iteration ran): B, whether it is an end of the grid, the counts.
	Calibration *CalibrationOutcome
	// BLAS names the linear algebra the run used: "gonum" (pure Go), or in a program built
	// with the build tag openblas "openblas VERSION core=CORE", CORE being the kernel set
	// OpenBLAS picked for this CPU (results agree across backends and kernel sets to
	// rounding only). Kernels whose results depend on memory alignment add a warning.
	BLAS string
}
