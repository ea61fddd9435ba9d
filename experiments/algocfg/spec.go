package algocfg

import (
	"cmp"
	"fmt"
	"math"

	"dpgibo/algo"
	"dpgibo/tasks"
)

// Spec is the part of a cell's frozen encoding that holds DP-GIBO's and GIBO's settings:
// the runner's cell spec embeds it, so its fields, their order and their JSON keys are part
// of every committed cell's stem and must never change. Every field is zero in the cells of
// other methods. A design option, the prior mean or an adaptive-clipping parameter is
// recorded only where it differs from the pinned value, so that cells computed with the
// pinned values keep their stems and a cell computed with any other value has another.
type Spec struct {
	Iters       int   `json:"iters,omitempty"`
	Batch       int   `json:"batch,omitempty"`
	BiasTol     num   `json:"bias_tol,omitempty"`
	MaxBatch    int   `json:"max_batch,omitempty"`
	Clip        num   `json:"clip,omitempty"`
	NoiseStd    num   `json:"noise_std,omitempty"`
	Step        num   `json:"step,omitempty"`
	Lengthscale num   `json:"lengthscale,omitempty"`
	ThetaCoords []int `json:"theta_coords,omitempty"`
	// AdaptiveClip and Standardise are the adaptive clipping and per-user standardisation
	// (absent: fixed Clip, raw observations).
	AdaptiveClip *AdaptiveClip `json:"adaptive_clip,omitempty"`
	Standardise  bool          `json:"standardise,omitempty"`
	PriorMean    string        `json:"prior_mean,omitempty"`
	Design       *Design       `json:"design,omitempty"`
	// Diagnostics marks cells whose rows carry the non-private diagnostics columns, so that
	// cells written before those columns existed are never resumed into a file that has
	// them.
	Diagnostics bool `json:"diagnostics,omitempty"`
	// Defaults marks cells run with algo's defaults (Config.Defaults). DefaultsRevision is
	// the revision of a "library" cell (absent in the cells of revision 1), Rule its
	// candidate rule (absent when it runs algo's defaults as they are).
	Defaults         string `json:"defaults,omitempty"`
	DefaultsRevision int    `json:"defaults_revision,omitempty"`
	Rule             string `json:"rule,omitempty"`
}

// Spec is the frozen encoding of c for a cell of DP-GIBO or GIBO at dimension d that records
// the theta coordinates coords (negative values count from the end).
func (c Config) Spec(d int, coords []int) Spec {
	s := Spec{
		Iters: c.Iters, Batch: c.Batch, BiasTol: c.BiasTol, MaxBatch: c.MaxBatch,
		Clip: c.Clip, NoiseStd: c.NoiseStd, Step: c.Step, Lengthscale: c.Lengthscale,
		AdaptiveClip: specAdaptiveClip(c.AdaptiveClip), Standardise: c.Standardise, Diagnostics: true,
		PriorMean: specPriorMean(c.PriorMean), Design: specDesign(c.Design),
		Defaults: c.Defaults, Rule: c.Rule,
	}
	if c.Defaults == DefaultsLibrary {
		s.DefaultsRevision = cmp.Or(c.DefaultsRevision, DefaultsRevision)
	}
	if s.Batch == 0 && s.BiasTol == 0 {
		s.Batch = d + 1
	}
	if s.BiasTol > 0 && s.MaxBatch == 0 {
		s.MaxBatch = 4 * (d + 1)
	}
	for _, j := range coords {
		if j < 0 {
			j += d
		}
		if j >= 0 && j < d {
			s.ThetaCoords = append(s.ThetaCoords, j)
		}
	}
	return s
}

// Budget is the cell's evaluations: T batches of b (of the cap, for an adaptive batch).
func (s Spec) Budget() int {
	per := s.Batch
	if s.BiasTol > 0 && s.Batch == 0 {
		per = s.MaxBatch
	}
	return s.Iters * per
}

// Settings are the algo.Settings of the cell's method on task at privacy mu (+Inf: not
// private): the suite's settings with every default they leave pinned, or with
// Defaults algo's defaults for everything but T and mu (as of the cell's revision, with
// its candidate rule). The rows carry the non-private diagnostics, for the harness's
// analysis only.
func (s Spec) Settings(task tasks.Task, mu float64) (algo.Settings, error) {
	if s.Defaults == "" {
		return s.pinned(algo.Settings{
			Iters: s.Iters, Batch: s.Batch, BiasTol: float64(s.BiasTol), MaxBatch: s.MaxBatch,
			Clipping: algo.FixedClip(float64(s.Clip)), NoiseStd: float64(s.NoiseStd),
			Step: float64(s.Step), StepRule: algo.AdaGrad,
			Kernel: algo.RBF{Lengthscale: float64(s.Lengthscale), Variance: 1},
			// Every suite keeps design points within two surrogate length-scales of theta
			// (algo's default before its defaults were derived from the box), set here so
			// that results do not move with algo's defaults.
			LocalRadius: 2 * float64(s.Lengthscale),
			Standardise: s.Standardise,
			// The rows carry the diagnostics; they are for this harness's analysis only.
			NonPrivateDiagnostics: true,
		}, task.Dim()), nil
	}
	// Every revision so far stepped along the released gradient and released the last
	// iterate: pinned, so that a later revision that changes these defaults moves no cell of
	// an earlier one (a method's own config, gibo.Variant, still sets them over the pins).
	set := algo.Settings{Iters: s.Iters, NonPrivateDiagnostics: true, Shrink: algo.NoShrink, Release: algo.ReleaseLast}
	if s.Defaults == DefaultsBefore {
		set = s.defaultsBefore(set, task)
	}
	if s.Defaults == DefaultsLibrary && s.DefaultsRevision == Revision2 && !math.IsInf(mu, 1) {
		// Revision 2 calibrated B to the lower quartile; every other default is the same.
		set.Clipping = algo.ClipCalibration{Quantile: 0.25}
	}
	if s.Rule != "" {
		rule, ok := DefaultsRules[s.Rule]
		if !ok {
			return set, fmt.Errorf("unknown defaults rule %q", s.Rule)
		}
		var err error
		if set, err = rule(set, task); err != nil {
			return set, fmt.Errorf("defaults rule %s: %w", s.Rule, err)
		}
	}
	return set, nil
}
