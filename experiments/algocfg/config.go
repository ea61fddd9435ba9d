// Package algocfg is DP-GIBO's and GIBO's settings as the suites give them (Config, a
// block's Algo) and their frozen encoding in a cell (Spec): the values of algo's defaults
// that every committed run used are pinned here, so that a change of an algo default moves
// no committed CSV and no cell's stem. The runner reads a block's Config, asks it for the
// cell's Spec, and asks the Spec for the algo.Settings a cell of DP-GIBO or GIBO runs with.
package algocfg

import (
	"fmt"

	"dpgibo/baselines/registry"
	"dpgibo/internal/jsonnum"
)

// num is a float64 that JSON-encodes +Inf as "+Inf" (jsonnum.Float).
type num = jsonnum.Float

// Config holds the DP-GIBO settings of a block (passed to dpgibo and gibo through
// algo.Settings). Iters and Mu are also every other method's: the matched budget
// Iters (d+1) and the private methods' mu. No field falls through to a default of algo:
// Batch 0 (with BiasTol 0) is d+1 and MaxBatch 0 is 4(d+1), the design options, prior mean
// and adaptive clipping take the pinned values of pins.go, and Clip, Step and Lengthscale
// must be set for DP-GIBO and GIBO (Check), so that a change of an algo default moves no
// result. The field names and their order are the manifests' JSON: never rename them.
type Config struct {
	Iters       int // T
	Batch       int // fixed b; 0 with BiasTol 0 means d+1
	BiasTol     num // adaptive batch tolerance (0: fixed batch)
	MaxBatch    int // cap of the adaptive batch; 0 means 4(d+1)
	Clip        num // B
	Mu          num // mu of DP-GIBO and of the private baselines
	NoiseStd    num // sigma told to the surrogate
	Step        num // eta (AdaGrad)
	Lengthscale num // RBF length-scale of the surrogate (variance 1)
	// AdaptiveClip, when non-nil, makes dpgibo and gibo clip adaptively from B_0 = Clip
	// (algo.AdaptiveClip); their rows are labelled "adaptive".
	AdaptiveClip *AdaptiveClip
	// Standardise standardises each user's kept observations (algo.Settings.Standardise).
	Standardise bool
	// PriorMean is the surrogate's prior mean, "zero" or "user-mean" ("": user-mean, the
	// value every committed run used).
	PriorMean string `json:",omitempty"`
	// Design are the batch design options (nil: the values every committed run used). The
	// tags keep the configuration hash of suites that do not set them.
	Design *Design `json:",omitempty"`
	// Defaults, when set, runs dpgibo and gibo with algo's defaults instead of the suite's
	// settings, every field of algo.Settings left to them but Iters and Mu: algo's own
	// (DefaultsLibrary, revision DefaultsRevision) or those before revision 2, pinned
	// (DefaultsBefore). Their rows are labelled "defaults=NAME".
	Defaults string `json:",omitempty"`
	// Rule, with Defaults "library", replaces some of algo's defaults by a candidate of
	// the defaults study (a key of DefaultsRules); its rows are labelled "rule=NAME".
	Rule string `json:",omitempty"`
	// DefaultsRevision, with Defaults "library", pins the block to an earlier revision of
	// algo's defaults (0: the current, DefaultsRevision; Revision2: B calibrated to the
	// lower quartile), so that the library study's cells keep what they computed and their
	// stems.
	DefaultsRevision int `json:",omitempty"`
	// AutoRevision pins dp-auto to a revision: 0 is the first round's rule (revision 2, as
	// every committed run before the second round), 3 the second round's committed runs.
	AutoRevision int `json:",omitempty"`
	// Currency is the privacy currency of the methods that read one (the private
	// selections): "" the primary, (epsilon, 1e-5) of mu-GDP at Mu; CurrencyGDP the
	// secondary, the same mu-GDP (docs/library.md, "Private comparators").
	Currency string `json:",omitempty"`
}

// CurrencyGDP is Config.Currency's secondary currency (selection.CurrencyGDP), and
// GDPBlockLabel the label of the blocks that run at it (Block.Label), so that their rows
// stay apart from the primary currency's.
const (
	CurrencyGDP   = "gdp"
	GDPBlockLabel = "currency=gdp"
)

// Values of Config.Defaults.
const (
	DefaultsLibrary = "library"
	DefaultsBefore  = "before"
)

// DefaultsRevision numbers algo's zero-value defaults; a "library" cell records it
// (Spec.DefaultsRevision), so that a change of algo's defaults changes the stems of the
// cells that ran with them and -resume never mixes the two. Revision 1: B = S/(4 l) fixed,
// Step = W/(2 sqrt T). Revision 2: B calibrated privately (the lower quartile of the users'
// gradient norms, 5% of mu^2), Step = W/sqrt(T). Revision 3: the upper quartile (the
// leave-one-problem-out study's choice, DefaultsRules["q75"]). The suites' test
// TestAlgoDefaultsRevision pins the values of the current revision: a change of algo's
// defaults fails it until the revision is raised.
const DefaultsRevision = 3

// Revision2 is the revision the library study's candidates were measured against.
const Revision2 = 2

// Design are algo's batch design options in the suite's numbers. A zero field is the
// pinned value (the value of every committed run), never algo's current default.
type Design struct {
	// Starts is algo.Settings.DesignStarts (0: 3).
	Starts int `json:"starts,omitempty"`
	// Evals is algo.Settings.DesignEvals (0: 60).
	Evals int `json:"evals,omitempty"`
	// GreedyOnly is algo.Settings.DesignRefine = algo.RefineNone (false: the joint L-BFGS
	// refinement).
	GreedyOnly bool `json:"greedy_only,omitempty"`
	// MaxKept is algo.Settings.MaxKept (0: keep every design point, as Algorithm 1 does).
	MaxKept int `json:"max_kept,omitempty"`
}

// AdaptiveClip is algo.AdaptiveClip in the suite's numbers. A zero field is the pinned
// value (quantile 0.5, rate 0.2, count share 0.1: algo's defaults when every committed run
// was made), never algo's current default.
type AdaptiveClip struct {
	Quantile   num `json:"quantile,omitempty"`
	Rate       num `json:"rate,omitempty"`
	CountShare num `json:"count_share,omitempty"`
}

// Check rejects settings that the block's methods cannot run with: unknown names, values
// the pinned encoding cannot tell from the pinned ones, and a DP-GIBO or GIBO without its
// scale settings (sweep is the block's swept parameter, which may supply Clip).
func (c Config) Check(methods []string, sweep string) error {
	if _, ok := priorMeans[c.PriorMean]; c.PriorMean != "" && !ok {
		return fmt.Errorf("unknown prior mean %q (known: %s, %s)", c.PriorMean, priorUserMean, priorZero)
	}
	if c.PriorMean == priorZero && c.Standardise {
		return fmt.Errorf("standardising needs the prior mean %s (Standardise with PriorMean %s)", priorUserMean, priorZero)
	}
	if d := c.Design; d != nil && (d.Starts < 0 || d.Evals < 0 || d.MaxKept < 0) {
		return fmt.Errorf("design options must be >= 0 (0: the pinned value), got %+v", *d)
	}
	if a := c.AdaptiveClip; a != nil && (a.Quantile < 0 || a.Rate < 0 || a.CountShare < 0) {
		return fmt.Errorf("adaptive clipping parameters must be >= 0 (0: the pinned value), got %+v", *a)
	}
	switch c.Defaults {
	case "", DefaultsLibrary, DefaultsBefore:
	default:
		return fmt.Errorf("unknown defaults %q (known: %s, %s)", c.Defaults, DefaultsLibrary, DefaultsBefore)
	}
	if err := c.checkRule(); err != nil {
		return err
	}
	switch r := c.DefaultsRevision; {
	case r == 0:
	case c.Defaults != DefaultsLibrary:
		return fmt.Errorf("defaults revision %d needs Defaults %q, got %q", r, DefaultsLibrary, c.Defaults)
	case r != Revision2 && r != DefaultsRevision:
		return fmt.Errorf("unknown defaults revision %d (known: %d, %d)", r, Revision2, DefaultsRevision)
	}
	// DP-GIBO's and GIBO's scale settings must be the suite's own: algo derives their
	// defaults from the box and the loss bound, and a change of that rule would move the
	// results.
	for _, m := range methods {
		if !Local(m) || c.Defaults != "" {
			continue
		}
		switch {
		case !(c.Step > 0) || !(c.Lengthscale > 0):
			return fmt.Errorf("method %s needs Step and Lengthscale set (got %v, %v)", m, c.Step, c.Lengthscale)
		case !(c.Clip > 0) && sweep != "clip":
			return fmt.Errorf("method %s needs Clip set or swept (got %v)", m, c.Clip)
		}
	}
	return nil
}

// Local reports whether method starts from theta0 and takes Algorithm 1's settings
// (baselines.Info.Local): the methods whose cells hold a Spec.
func Local(method string) bool {
	m, ok := registry.Lookup(method)
	return ok && m.Info().Local
}
