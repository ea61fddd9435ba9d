// Package claims declares what the project tests of the paper: its statements, each with
// the claims that test it (two sides of a figure compared by a kind, a metric and a margin),
// frozen in code before the runs whose results judge them (package figures/verdict judges
// them), and Hash, the digest of a figure's claims every run's manifest records.
package claims

import (
	"fmt"
	"math"
	"strings"
)

// Kind is the form of a claim. Every kind but Trend compares the values of two sides, A and
// B, by their difference a - b; Margin (when set) is the declared margin delta.
type Kind int

const (
	// Lower: a - b < -delta (A lower than B; by more than delta when Margin > 0).
	Lower Kind = iota
	// Higher: a - b > delta.
	Higher
	// NotWorse: a - b < delta (A is not worse than B by more than delta): "tracks",
	// "competitive", "no better than" with the sides swapped.
	NotWorse
	// Equivalent: |a - b| < delta, two one-sided tests ("roughly the same").
	Equivalent
	// Trend: along Configs (in order, one d), Along's metric increases (Increasing) or
	// decreases: Page's L test over the seeds as blocks.
	Trend
)

func (k Kind) String() string {
	switch k {
	case Lower:
		return "lower"
	case Higher:
		return "higher"
	case NotWorse:
		return "not-worse"
	case Equivalent:
		return "equivalent"
	case Trend:
		return "trend"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Where a side's value is read on each run.
const (
	// AtFinal (the zero value): the final loss, the last reported row.
	AtFinal = ""
	// AtStart: the loss at theta0 (the run's iteration-0 row; for a method without one, the
	// theta0 of the figure's DP-GIBO runs, else GIBO's, at the same setting and seed).
	AtStart = "start"
	// AtHalf: the loss at the checkpoint e_h = ceil(K/2)(d+1), where K = floor(E/(d+1)) and E
	// the fewest final evaluations of the side's runs: the loss of the theta the run had
	// released at its last report with at most e_h evaluations.
	AtHalf = "half"
	// AtEnd is the final loss where "" means "as the other side" (Side.MinusAt).
	AtEnd = "final"
	// AtOracle is f* of the side's setting for every seed: a method that sits at the best
	// known optimum. Only the attainability control reads it.
	AtOracle = "oracle"
)

// Metrics of a claim.
const (
	// MetricLoss (the zero value) is the loss f of the released theta; a margin is
	// Margin x G0 of the setting.
	MetricLoss = ""
	// MetricEvals is the number of evaluations used (final row).
	MetricEvals = "evals"
	// MetricRegret is the normalised regret (f - f*)/G0(setting); a margin is Margin itself.
	// It compares settings of different d on one scale.
	MetricRegret = "regret"
	// MetricLogGap is the log of the normalised regret, log(max((f - f*)/G0, GapFloor)); a
	// margin is Margin itself, so "A below B by log 2" says A's gap to f* is less than half
	// B's. It is the scale of "substantially": relative to the worse side's own gap, where a
	// margin of 0.1 G0 could exceed that gap. Chosen after the results were seen (post hoc).
	MetricLogGap = "log-gap"
)

// LogGapPostHoc reports whether MetricLogGap was chosen for the figure's claims after its
// results were seen: it was for every figure that ran before fig-private-select, whose
// log-gap claims were declared before it ran, as were the field suite's (figures named
// field-NAME; docs/peers.md).
func LogGapPostHoc(figure string) bool {
	return figure != "fig-private-select" && !strings.HasPrefix(figure, "field-")
}

// GapFloor is the normalised regret below which MetricLogGap does not distinguish gaps: a
// method at f* (gap 0) has log gap log(GapFloor), not minus infinity.
const GapFloor = 1e-3

// SubstantialMargin is the margin of a "substantially" claim on MetricLogGap: one side's gap
// to f* at least twice the other's.
var SubstantialMargin = math.Log(2)

// Side selects the values of one curve of a claim's figure, one value per seed. Task and Data
// may be empty when the figure has only one.
type Side struct {
	Task, Data, Method, Config string
	D                          int
	// At is where each run's value is read: AtFinal, AtStart or AtHalf.
	At string
	// Minus names a method whose value (same task, data, d, config "" and seed) is
	// subtracted: the privacy cost DP-GIBO - GIBO, paired within a setting. MinusAt is where
	// the subtracted value is read ("" : where At reads, AtEnd: the final loss).
	Minus, MinusAt string
	// FromD, when set, subtracts the side's value at d = FromD from its value at D, seed by
	// seed index: the change across d of independent runs (any fixed pairing of independent
	// runs gives independent differences), e.g. how much random search degrades from d = 2
	// to d = 20.
	FromD int
}

func (s Side) String() string {
	out := s.Method
	if s.Minus != "" {
		out += " - " + s.Minus
	}
	if s.Config != "" {
		out += " " + s.Config
	}
	out += fmt.Sprintf(" d=%d", s.D)
	if s.FromD != 0 {
		out += fmt.Sprintf(" minus d=%d", s.FromD)
	}
	if s.At != AtFinal {
		out += " at " + s.At
	}
	return out
}

// Claim is one test of a statement: two sides (or a trend), a kind, a metric and a margin,
// judged on one figure. Claims are declared in code (Statements) before the runs whose
// results judge them; Hash pins their judged content (the claims_hash of claims.csv).
type Claim struct {
	// ID is unique, e.g. fig1-dp-tracks-gibo-d20.
	ID string
	// Figure is the figure whose CSV the claim is judged on.
	Figure string
	Kind   Kind
	// A and B are the sides compared (all kinds but Trend).
	A, B Side
	// Margin is delta in units of G0 (loss) or absolute (regret); 0 for a plain direction.
	Margin float64
	// Metric is MetricLoss, MetricEvals or MetricRegret.
	Metric string
	// Along is the curve whose Config is swept (Trend; its Config is ignored); Configs are
	// the configs in the claimed order and Increasing the claimed direction.
	Along      Side
	Configs    []string
	Increasing bool
	// Throughout judges the claim at every checkpoint e_k = k(d+1), k = 1..K, after the
	// start (intersection-union test: its p is the largest of the K p-values; one Holm
	// member); K from the fewest final evaluations of either side.
	Throughout bool
	// Contrast lists the methods the statement sets A's method against: the specificity
	// control re-judges the claim with A's method (and B's, when it is the same method)
	// replaced by each of them. A claim that a substitute also reproduces is "not specific"
	// and does not count towards its statement.
	Contrast []string
	// ContrastB makes the specificity control replace B's method rather than A's: the
	// statement's subject is side B ("UCB-BO performs no better than random search" is
	// declared as random not worse than UCB, and re-judged with GIBO in UCB's place).
	ContrastB bool
	// ContrastConfigs lists configs of A's method that the statement sets A's config
	// against: the claim is re-judged with A's config replaced by each (eps = 0.3 "like" eps
	// = 0.5 should not hold for eps = 2 too).
	ContrastConfigs []string
	// Aside, when set, says why the claim is shown but does not count towards its
	// statement's verdict (a choice made after an outcome, substitute data of another size).
	Aside string
}

// IsMargin reports whether the claim is a "within delta" claim: the kinds a do-nothing
// control must refute.
func (c Claim) IsMargin() bool { return c.Kind == NotWorse || c.Kind == Equivalent }

// IsDirectionalMargin reports whether the claim says one side is better than the other by
// at least its margin: the kinds an oracle must be able to satisfy.
func (c Claim) IsDirectionalMargin() bool {
	return (c.Kind == Lower || c.Kind == Higher) && c.Margin > 0
}
