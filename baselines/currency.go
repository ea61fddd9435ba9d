package baselines

import (
	"fmt"
	"math"

	"dpgibo/accounting"
	"dpgibo/algo"
)

// Currency says at which privacy level a private comparator runs when it is given
// DP-GIBO's Options.Mu: private methods accounted otherwise than by mu-GDP (pure DP, Renyi
// DP) are compared with DP-GIBO at one declared level (docs/library.md, "Private
// comparators").
type Currency int

const (
	// CurrencyEpsDelta (the zero value, the primary currency) runs the method at the
	// (epsilon, delta) that mu-GDP gives at delta = algo.DefaultDelta, epsilon from the exact
	// conversion (algo.EpsilonForDelta: 4.38 at mu = 1). It is the currency most favourable
	// to the comparators.
	CurrencyEpsDelta Currency = iota
	// CurrencyGDP (the secondary currency) runs the method at the same mu-GDP, where its
	// guarantee implies one: a pure epsilon-DP method at the largest epsilon that is mu-GDP
	// (accounting.PureWithinGDP: 0.807 at mu = 1).
	CurrencyGDP
)

func (c Currency) String() string {
	switch c {
	case CurrencyEpsDelta:
		return "eps-delta"
	case CurrencyGDP:
		return "gdp"
	}
	return fmt.Sprintf("Currency(%d)", int(c))
}

// PureEpsilon is the epsilon at which a pure epsilon-DP method runs for DP-GIBO's mu in
// currency c; +Inf for mu = +Inf (no privacy).
func PureEpsilon(mu float64, c Currency) (float64, error) {
	if math.IsInf(mu, 1) {
		return mu, nil
	}
	switch c {
	case CurrencyEpsDelta:
		return algo.EpsilonForDelta(mu, algo.DefaultDelta)
	case CurrencyGDP:
		return accounting.PureWithinGDP(mu)
	}
	return 0, fmt.Errorf("unknown currency %v", c)
}
