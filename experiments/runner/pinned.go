package runner

import (
	"cmp"
	"fmt"
	"math"

	"dpgibo/algo"
	"dpgibo/baselines/registry"
	"dpgibo/tasks"
	"dpgibo/tasks/catalog"
)

// The values of algo's defaults that the suites do not set, as they were when every
// committed result was computed. runCell passes them to algo.Settings explicitly, so that a
// later change of an algo default moves no suite's CSV and no configuration hash. A cell
// spec records a design option, the prior mean or an adaptive-clipping parameter only when
// it differs from these values, so cells computed with them keep their stems and a cell
// computed with any other value has another stem (-resume never mixes the two).
//
// Never change these values: they define what an absent field of a cell spec means. A suite
// that wants another value sets it in AlgoConfig (PriorMean, Design, AdaptiveClip), which
// changes the stems of exactly the cells it affects.
const (
	PinnedDesignStarts   = 3
	PinnedDesignEvals    = 60
	pinnedPriorMean      = priorUserMean
	pinnedClipQuantile   = 0.5
	pinnedClipRate       = 0.2
	pinnedClipCountShare = 0.1
	pinnedKernelVariance = 1
)

// pinnedAutoRevision is the revision of a method that runs earlier revisions (dp-auto,
// private.Auto: a revisioner) in every cell of a block whose AlgoConfig has no
// AutoRevision: revision 2, the private tuner's first-round rule (private.FirstRoundRule),
// with which every committed dp-auto run before the second round was made.
const pinnedAutoRevision = 2

// A revisioner is a method that runs earlier revisions of itself (dp-auto): a block pins the
// revision its cells run (AlgoConfig.AutoRevision, else pinnedAutoRevision).
type revisioner interface {
	KnownRevision(r int) bool
}

// revisionerOf returns method's prototype as a revisioner, and false for a method that runs
// only its current revision.
func revisionerOf(method string) (revisioner, bool) {
	m, ok := registry.Lookup(method)
	if !ok {
		return nil, false
	}
	r, ok := m.(revisioner)
	return r, ok
}

// Prior means by name (AlgoConfig.PriorMean, cellSpec.PriorMean).
const (
	priorUserMean = "user-mean"
	priorZero     = "zero"
)

// priorMeans maps the names to algo's values.
var priorMeans = map[string]algo.PriorMean{priorUserMean: algo.PriorUserMean, priorZero: algo.PriorZero}

// checkPinnable rejects values of a block's prior mean and design options that algo would
// reject or that the spec encoding cannot tell from the pinned values.
func checkPinnable(a AlgoConfig) error {
	if _, ok := priorMeans[a.PriorMean]; a.PriorMean != "" && !ok {
		return fmt.Errorf("unknown prior mean %q (known: %s, %s)", a.PriorMean, priorUserMean, priorZero)
	}
	if a.PriorMean == priorZero && a.Standardise {
		return fmt.Errorf("standardising needs the prior mean %s (Standardise with PriorMean %s)", priorUserMean, priorZero)
	}
	if d := a.Design; d != nil && (d.Starts < 0 || d.Evals < 0 || d.MaxKept < 0) {
		return fmt.Errorf("design options must be >= 0 (0: the pinned value), got %+v", *d)
	}
	if c := a.AdaptiveClip; c != nil && (c.Quantile < 0 || c.Rate < 0 || c.CountShare < 0) {
		return fmt.Errorf("adaptive clipping parameters must be >= 0 (0: the pinned value), got %+v", *c)
	}
	return nil
}

// specPrecision is the precision a cell spec records for a block's setting p ("" : the
// task's default) of a task described by info: "" when the task has no choice or p resolves
// to the task's first precision (which every cell of the task computed with before it had
// a choice), else the precision.
func specPrecision(info catalog.Info, p string) string {
	if len(info.Precisions) == 0 {
		return ""
	}
	if p = cmp.Or(p, info.DefaultPrecision); p == info.Precisions[0] {
		return ""
	}
	return p
}

// cellPrecision is the precision a cell computes with (its spec's, else its task's first),
// "" for a task that has no choice.
func cellPrecision(c cellSpec) string {
	info, _ := catalog.Lookup(c.Task)
	if len(info.Precisions) == 0 {
		return ""
	}
	return cmp.Or(c.Precision, info.Precisions[0])
}

// specDesign is the design options of a cell spec: nil when every option has its pinned
// value, otherwise the options with the pinned ones left zero.
func specDesign(d *DesignConfig) *DesignConfig {
	if d == nil {
		return nil
	}
	out := *d
	if out.Starts == PinnedDesignStarts {
		out.Starts = 0
	}
	if out.Evals == PinnedDesignEvals {
		out.Evals = 0
	}
	// GreedyOnly and MaxKept are pinned at their zero values: the joint refinement and every
	// design point kept (Algorithm 1, line 6).
	if out == (DesignConfig{}) {
		return nil
	}
	return &out
}

// specPriorMean is the prior mean of a cell spec: "" for the pinned one.
func specPriorMean(name string) string {
	if name == pinnedPriorMean {
		return ""
	}
	return name
}

// specAdaptiveClip is the adaptive clipping of a cell spec (nil: fixed Clip), with the
// parameters at their pinned values left zero, as suites written before the pinning left
// them.
func specAdaptiveClip(c *AdaptiveClipConfig) *AdaptiveClipConfig {
	if c == nil {
		return nil
	}
	out := *c
	if out.Quantile == pinnedClipQuantile {
		out.Quantile = 0
	}
	if out.Rate == pinnedClipRate {
		out.Rate = 0
	}
	if out.CountShare == pinnedClipCountShare {
		out.CountShare = 0
	}
	return &out
}

// pinnedSettings fills the fields of s that the suites leave to algo's defaults from the
// cell spec, with the pinned values where the spec leaves them zero.
func pinnedSettings(s algo.Settings, spec cellSpec) algo.Settings {
	s.Kernel.Variance = pinnedKernelVariance
	s.StepRule = algo.AdaGrad
	s.Shrink = algo.NoShrink     // every committed run stepped along the gradient as released
	s.Release = algo.ReleaseLast // and released its last iterate
	if s.MaxBatch == 0 {
		s.MaxBatch = 4 * (spec.D + 1)
	}
	s.PriorMean = priorMeans[pinnedPriorMean]
	if spec.PriorMean != "" {
		s.PriorMean = priorMeans[spec.PriorMean]
	}
	// algo spells "keep every point" MaxKept < 0 and the joint refinement RefineJoint; the
	// spec's zero values mean both.
	s.DesignStarts, s.DesignEvals = PinnedDesignStarts, PinnedDesignEvals
	s.DesignRefine, s.MaxKept = algo.RefineJoint, -1
	if d := spec.Design; d != nil {
		if d.Starts != 0 {
			s.DesignStarts = d.Starts
		}
		if d.Evals != 0 {
			s.DesignEvals = d.Evals
		}
		if d.GreedyOnly {
			s.DesignRefine = algo.RefineNone
		}
		if d.MaxKept != 0 {
			s.MaxKept = d.MaxKept
		}
	}
	if a := spec.AdaptiveClip; a != nil {
		// B_0 is the cell's Clip.
		rule := algo.AdaptiveClip{Quantile: pinnedClipQuantile, Rate: pinnedClipRate, CountShare: pinnedClipCountShare, Start: float64(spec.Clip)}
		if a.Quantile != 0 {
			rule.Quantile = float64(a.Quantile)
		}
		if a.Rate != 0 {
			rule.Rate = float64(a.Rate)
		}
		if a.CountShare != 0 {
			rule.CountShare = float64(a.CountShare)
		}
		s.Clipping = rule
	}
	return s
}

// defaultsBeforeSettings is s (Iters set) with the library study's "before"
// defaults: algo's zero-value defaults of revision 1, before the default B was calibrated,
// pinned from the task's public facts as algo computed them then: W the median positive
// side of the box, l = W/6, LocalRadius 2 l, Clip = S/(4 l) with S the task's loss bound,
// Step = W/(2 sqrt T), b = d+1, and the remaining fields pinned as for every suite.
func defaultsBeforeSettings(s algo.Settings, spec cellSpec, task tasks.Task) algo.Settings {
	lo, hi := task.Bounds()
	width := algo.BoxWidth(lo, hi)
	l := width / 6
	s.Kernel = algo.RBF{Lengthscale: l, Variance: pinnedKernelVariance}
	s.LocalRadius = 2 * l
	s.Clipping = algo.FixedClip(0.25 * task.LossBound() / l)
	s.Step = width / (2 * math.Sqrt(float64(s.Iters)))
	s.Batch = spec.D + 1
	return pinnedSettings(s, spec)
}
