package private

import (
	"fmt"
	"math"

	"dpgibo/accounting"
)

// Facts are the public facts a Rule reads: never a loss. Their values are part of the
// release.
type Facts struct {
	// Users is n, the number of validation users; Dim is d.
	Users, Dim int
	// Lo and Hi are the box.
	Lo, Hi []float64
	// LossBound is Lmax (0: none declared).
	LossBound float64
	// Mu is the total mu of mu-GDP that DP-GIBO, its variants and dp-random run at: the
	// target (Config.Mu), or at an (epsilon, delta) target the largest mu that meets it
	// (accounting.GDPWithin).
	Mu float64
	// EpsDelta is the (epsilon, delta)-DP target (Config.EpsDelta), zero at a mu-GDP
	// target: the currency of the guarantee, a public fact a rule may read.
	EpsDelta accounting.EpsDelta
	// Evals is the evaluation budget.
	Evals int
	// LogLoss says that each user's loss is a classifier's log loss (cross-entropy) with the
	// predicted probabilities clamped, so that LossBound is -log of the clamp: a fact of how
	// the loss is defined, which the user declares (Config.LogLoss), never read from data.
	LogLoss bool
}

// SNRCeiling is n mu / (2 sqrt(T d)) with T = Evals/(d+1), the number of DP-GIBO iterations
// the budget allows at its default batch: the ceiling of DP-GIBO's privacy signal-to-noise
// ratio with all of mu on the gradients (algo.PrivacyForecast), a clipped mean gradient of
// norm B against its noise. It is +Inf for mu = +Inf.
func (f Facts) SNRCeiling() float64 {
	if math.IsInf(f.Mu, 1) {
		return f.Mu
	}
	iters := f.Evals / (f.Dim + 1)
	return float64(f.Users) * f.Mu / (2 * math.Sqrt(float64(iters*f.Dim)))
}

// Choice is a Rule's decision: the method and why, in one sentence.
type Choice struct {
	Method Candidate
	Reason string
}

// A Rule chooses the private method from public facts only, so that the choice costs no
// privacy.
type Rule interface {
	Choose(Facts) Choice
}

// Always chooses Method whatever the facts.
type Always struct{ Method Candidate }

// Choose implements Rule.
func (r Always) Choose(Facts) Choice {
	return Choice{Method: r.Method, Reason: fmt.Sprintf("the rule runs %v on every problem", r.Method)}
}

// ByCeiling chooses Below when the facts' SNRCeiling is below Cut, and Above otherwise.
type ByCeiling struct {
	Cut          float64
	Below, Above Candidate
}

// Choose implements Rule.
func (r ByCeiling) Choose(f Facts) Choice {
	c := f.SNRCeiling()
	if c < r.Cut {
		return Choice{Method: r.Below, Reason: fmt.Sprintf("DP-GIBO's SNR ceiling n mu/(2 sqrt(T d)) = %.3g is below %g: %v", c, r.Cut, r.Below)}
	}
	return Choice{Method: r.Above, Reason: fmt.Sprintf("DP-GIBO's SNR ceiling n mu/(2 sqrt(T d)) = %.3g is at least %g: %v", c, r.Cut, r.Above)}
}

// ByLoss chooses LogLoss when the facts say the loss is a classifier's log loss, and asks
// Other otherwise: the second round's statistic (docs/library.md, "The library's private
// tuner, second round").
type ByLoss struct {
	LogLoss Candidate
	Other   Rule
}

// Choose implements Rule.
func (r ByLoss) Choose(f Facts) Choice {
	if f.LogLoss {
		return Choice{Method: r.LogLoss, Reason: fmt.Sprintf("the loss is a classifier's log loss: %v", r.LogLoss)}
	}
	c := r.Other.Choose(f)
	c.Reason = "the loss is not a log loss; " + c.Reason
	return c
}

// ByCurrency chooses by the currency of the target, a public fact: EpsDelta's rule at an
// (epsilon, delta)-DP target (Facts.EpsDelta set), GDP's at a mu-GDP one.
type ByCurrency struct {
	EpsDelta, GDP Rule
}

// Choose implements Rule.
func (r ByCurrency) Choose(f Facts) Choice {
	if f.EpsDelta != (accounting.EpsDelta{}) {
		c := r.EpsDelta.Choose(f)
		c.Reason = "the target is (epsilon, delta)-DP; " + c.Reason
		return c
	}
	c := r.GDP.Choose(f)
	c.Reason = "the target is mu-GDP; " + c.Reason
	return c
}

// CandidateRules are the rules the study chooses the default among (docs/library.md, "The
// library's private tuner"), declared before its runs, simplest first: Always for each
// method, then ByCeiling for every cut in {2, 4, 8, 16, 32, 64}, Below in {ReportNoisyMin,
// GeometricSelection, HybridDPGIBO} and Above in {DPGIBO, SafeDPGIBO, HybridDPGIBO},
// Below != Above.
func CandidateRules() []Rule {
	var out []Rule
	for _, m := range []Candidate{SafeDPGIBO, DPGIBO, HybridDPGIBO, ReportNoisyMin, GeometricSelection, NegBinSelection} {
		out = append(out, Always{m})
	}
	for _, cut := range []float64{2, 4, 8, 16, 32, 64} {
		for _, below := range []Candidate{ReportNoisyMin, GeometricSelection, HybridDPGIBO} {
			for _, above := range []Candidate{DPGIBO, SafeDPGIBO, HybridDPGIBO} {
				if below != above {
					out = append(out, ByCeiling{Cut: cut, Below: below, Above: above})
				}
			}
		}
	}
	return out
}
