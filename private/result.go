package private

import (
	"fmt"
	"math"
	"strconv"

	"dpgibo/accounting"
	"dpgibo/baselines"
)

// Release is what Tune returns: the chosen method's Result (the released theta, its
// ledger in the target's currency, its warnings, and nothing its theorem does not cover
// except in fields named non-private), the facts Tune read and the rule's choice.
//
// From Tune, Ledger is stated in the target's currency and meets the target: Mu at most
// Config.Mu, or Epsilon and Delta at most Config.EpsDelta's (a mu-GDP ledger's Epsilon read
// at the target's Delta). Warnings begin with Forecast's (Plan.Warnings), then the method
// run's. Facts and Choice are public, part of the release.
type Release struct {
	baselines.Result
	Facts  Facts
	Choice Choice
}

// Guarantee states the release's privacy guarantee from its ledger, in the currency of the
// target Tune was given (Facts), with that target: "0.9999999999999998-GDP (asked: 1-GDP)"
// or "(2.9, 1e-06)-DP (asked: (3, 1e-06)-DP)". A method run on its own states its ledger's
// own currency.
func (r Release) Guarantee() string {
	l := r.Ledger
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	t := r.Facts.EpsDelta
	switch {
	case !l.Private:
		return "not private (no privacy noise)"
	case t != (accounting.EpsDelta{}):
		return fmt.Sprintf("(%s, %s)-DP (asked: (%s, %s)-DP)", g(l.Epsilon), g(l.Delta), g(t.Epsilon), g(t.Delta))
	case r.Facts.Mu != 0:
		return fmt.Sprintf("%s-GDP (asked: %s-GDP)", g(l.Mu), g(r.Facts.Mu))
	case math.IsNaN(l.Mu):
		return fmt.Sprintf("(%s, %s)-DP", g(l.Epsilon), g(l.Delta))
	}
	return fmt.Sprintf("%s-GDP", g(l.Mu))
}
