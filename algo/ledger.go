package algo

import (
	"fmt"
	"math"

	"dpgibo/accounting"
)

// The privacy ledger is accounting's (accounting.Ledger): every method of this project
// returns one. algo keeps its names for the callers it always had.

// DefaultDelta is the delta at which ledgers report an (epsilon, delta)-DP epsilon.
const DefaultDelta = accounting.DefaultDelta

// Ledger is the privacy record of one run (accounting.Ledger).
type Ledger = accounting.Ledger

// LedgerPart is one kind of release a ledger composes (accounting.LedgerPart).
type LedgerPart = accounting.LedgerPart

// Accountings of a ledger part (accounting.GDP, accounting.PureDP, accounting.RDP).
const (
	GDP    = accounting.GDP
	PureDP = accounting.PureDP
	RDP    = accounting.RDP
)

// NonPrivateLedger is accounting.NonPrivateLedger.
func NonPrivateLedger() Ledger { return accounting.NonPrivateLedger() }

// NewLedger is accounting.NewLedger.
func NewLedger(mu float64, releases int) Ledger { return accounting.NewLedger(mu, releases) }

// NewPureLedger is accounting.NewPureLedger.
func NewPureLedger(name string, eps float64) (Ledger, error) {
	return accounting.NewPureLedger(name, eps)
}

// NewApproxLedger is accounting.NewApproxLedger.
func NewApproxLedger(name, accountingName string, eps, delta float64) (Ledger, error) {
	return accounting.NewApproxLedger(name, accountingName, eps, delta)
}

// StepMu is accounting.StepMu: mu/sqrt(releases).
func StepMu(mu float64, releases int) float64 { return accounting.StepMu(mu, releases) }

// ComposeGDP is accounting.ComposeGDP: sqrt(sum mu_t^2).
func ComposeGDP(mus ...float64) float64 { return accounting.ComposeGDP(mus...) }

// GDPToEpsDelta returns delta(eps), the exact smallest delta such that a mu-GDP mechanism
// is (eps, delta)-DP (Dong, Roth and Su 2022, Corollary 2.13): accounting.GDPDelta.
func GDPToEpsDelta(mu, eps float64) float64 { return accounting.GDPDelta(mu, eps) }

// EpsilonForDelta is accounting.EpsilonForDelta: the smallest eps >= 0 at which mu-GDP is
// (eps, delta)-DP.
func EpsilonForDelta(mu, delta float64) (float64, error) {
	return accounting.EpsilonForDelta(mu, delta)
}

// composed returns the private ledger of parts: Mu their composition, Releases their sum,
// StepMu the first part's, Epsilon at DefaultDelta.
func composed(parts []LedgerPart) Ledger {
	mus := make([]float64, len(parts))
	releases := 0
	for i, p := range parts {
		mus[i] = p.Mu
		releases += p.Releases
	}
	l := NewLedger(ComposeGDP(mus...), releases)
	l.StepMu, l.Parts = parts[0].StepMu(), parts
	return l
}

// newSplitLedger records releases iterations, each releasing a privatised gradient
// ((muGrad/sqrt(releases))-GDP) and, when muCount > 0, a privatised count
// ((muCount/sqrt(releases))-GDP): together ComposeGDP(muGrad, muCount)-GDP over 2 releases
// per iteration.
func newSplitLedger(muGrad, muCount float64, releases int) Ledger {
	if math.IsInf(muGrad, 1) {
		return NewLedger(muGrad, releases)
	}
	parts := []LedgerPart{{Name: "gradients", Accounting: GDP, Mu: muGrad, Releases: releases}}
	if muCount > 0 {
		parts = append(parts, LedgerPart{Name: "clip counts", Accounting: GDP, Mu: muCount, Releases: releases})
	}
	l := composed(parts)
	l.GradientMu, l.CountMu = muGrad, muCount
	return l
}

// spentSplit returns l, whose parts split total (a run's Settings.Mu) and were all spent,
// with Mu = total and Epsilon read off it. The parts are unchanged; they compose to total to
// rounding, which it checks (a relative 1e-12 covers any order of summation and fused
// multiply-add; a larger gap is a bug in the split, and panics).
func spentSplit(l Ledger, total float64) Ledger {
	if !l.Private || l.Mu == total {
		return l
	}
	if math.Abs(l.Mu-total) > 1e-12*total {
		panic(fmt.Sprintf("algo: ledger parts compose to mu %v, not to the %v they split", l.Mu, total))
	}
	exact := NewLedger(total, l.Releases)
	l.Mu, l.Epsilon = exact.Mu, exact.Epsilon
	return l
}

// withCalibration adds to l the muCal-GDP release of ClipCalibration, its queries noisy
// counts (nothing when muCal is 0 or l is not private): Mu becomes ComposeGDP(GradientMu,
// CountMu, muCal).
func withCalibration(l Ledger, muCal float64, queries int) Ledger {
	if muCal == 0 || !l.Private {
		return l
	}
	out := composed(append(append([]LedgerPart(nil), l.Parts...), LedgerPart{Name: "calibration counts", Accounting: GDP, Mu: muCal, Releases: queries}))
	out.GradientMu, out.CountMu, out.CalibrationMu = l.GradientMu, l.CountMu, muCal
	return out
}
