package baselines

import "dpgibo/private"

// Currency says at which privacy level a private comparator runs when it is given
// DP-GIBO's Options.Mu (private.Currency).
type Currency = private.Currency

// The privacy currencies (private.CurrencyEpsDelta, the primary, and private.CurrencyGDP).
const (
	CurrencyEpsDelta = private.CurrencyEpsDelta
	CurrencyGDP      = private.CurrencyGDP
)
