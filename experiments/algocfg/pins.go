package algocfg

import (
	"math"

	"dpgibo/algo"
	"dpgibo/tasks"
)

// The values of algo's defaults that the suites do not set, as they were when every
// committed result was computed. Spec.Settings passes them to algo.Settings explicitly, so
// that a later change of an algo default moves no suite's CSV and no configuration hash.
// A Spec records a design option, the prior mean or an adaptive-clipping parameter only
// when it differs from these values.
//
// Never change these values: they define what an absent field of a cell spec means. A suite
// that wants another value sets it in Config (PriorMean, Design, AdaptiveClip), which
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

// Prior means by name (Config.PriorMean, Spec.PriorMean).
const (
	priorUserMean = "user-mean"
	priorZero     = "zero"
)

// priorMeans maps the names to algo's values.
var priorMeans = map[string]algo.PriorMean{priorUserMean: algo.PriorUserMean, priorZero: algo.PriorZero}

// specDesign is the design options of a cell spec: nil when every option has its pinned
// value, otherwise the options with the pinned ones left zero.
func specDesign(d *Design) *Design {
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
	if out == (Design{}) {
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
func specAdaptiveClip(c *AdaptiveClip) *AdaptiveClip {
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

// pinned fills the fields of set that the suites leave to algo's defaults from the spec,
// with the pinned values where the spec leaves them zero, for a task of dimension d.
func (s Spec) pinned(set algo.Settings, d int) algo.Settings {
	set.Kernel.Variance = pinnedKernelVariance
	set.StepRule = algo.AdaGrad
	set.Shrink = algo.NoShrink     // every committed run stepped along the gradient as released
	set.Release = algo.ReleaseLast // and released its last iterate
	if set.MaxBatch == 0 {
		set.MaxBatch = 4 * (d + 1)
	}
	set.PriorMean = priorMeans[pinnedPriorMean]
	if s.PriorMean != "" {
		set.PriorMean = priorMeans[s.PriorMean]
	}
	// algo spells "keep every point" MaxKept < 0 and the joint refinement RefineJoint; the
	// spec's zero values mean both.
	set.DesignStarts, set.DesignEvals = PinnedDesignStarts, PinnedDesignEvals
	set.DesignRefine, set.MaxKept = algo.RefineJoint, -1
	if d := s.Design; d != nil {
		if d.Starts != 0 {
			set.DesignStarts = d.Starts
		}
		if d.Evals != 0 {
			set.DesignEvals = d.Evals
		}
		if d.GreedyOnly {
			set.DesignRefine = algo.RefineNone
		}
		if d.MaxKept != 0 {
			set.MaxKept = d.MaxKept
		}
	}
	if a := s.AdaptiveClip; a != nil {
		// B_0 is the cell's Clip.
		rule := algo.AdaptiveClip{Quantile: pinnedClipQuantile, Rate: pinnedClipRate, CountShare: pinnedClipCountShare, Start: float64(s.Clip)}
		if a.Quantile != 0 {
			rule.Quantile = float64(a.Quantile)
		}
		if a.Rate != 0 {
			rule.Rate = float64(a.Rate)
		}
		if a.CountShare != 0 {
			rule.CountShare = float64(a.CountShare)
		}
		set.Clipping = rule
	}
	return set
}

// defaultsBefore is set (Iters set) with the library study's "before" defaults: algo's
// zero-value defaults of revision 1, before the default B was calibrated, pinned from the
// task's public facts as algo computed them then: W the median positive side of the box,
// l = W/6, LocalRadius 2 l, Clip = S/(4 l) with S the task's loss bound,
// Step = W/(2 sqrt T), b = d+1, and the remaining fields pinned as for every suite.
func (s Spec) defaultsBefore(set algo.Settings, task tasks.Task) algo.Settings {
	lo, hi := task.Bounds()
	width := algo.BoxWidth(lo, hi)
	l := width / 6
	set.Kernel = algo.RBF{Lengthscale: l, Variance: pinnedKernelVariance}
	set.LocalRadius = 2 * l
	set.Clipping = algo.FixedClip(0.25 * task.LossBound() / l)
	set.Step = width / (2 * math.Sqrt(float64(set.Iters)))
	set.Batch = task.Dim() + 1
	return s.pinned(set, task.Dim())
}
