package algo

import (
	"fmt"
	"math"

	"dpgibo/accounting"
)

// The privacy ledger is accounting's (accounting.Ledger). These helpers build DP-GIBO's.

// composed returns the private ledger of parts: Mu their composition, Releases their sum,
// StepMu the first part's, Epsilon at DefaultDelta.
func composed(parts []accounting.LedgerPart) accounting.Ledger {
	mus := make([]float64, len(parts))
	releases := 0
	for i, p := range parts {
		mus[i] = p.Mu
		releases += p.Releases
	}
	l := accounting.NewLedger(accounting.ComposeGDP(mus...), releases)
	l.StepMu, l.Parts = parts[0].StepMu(), parts
	return l
}

// newSplitLedger records releases iterations, each releasing a privatised gradient
// ((muGrad/sqrt(releases))-GDP) and, when muCount > 0, a privatised count
// ((muCount/sqrt(releases))-GDP): together ComposeGDP(muGrad, muCount)-GDP over 2 releases
// per iteration.
func newSplitLedger(muGrad, muCount float64, releases int) accounting.Ledger {
	if math.IsInf(muGrad, 1) {
		return accounting.NewLedger(muGrad, releases)
	}
	parts := []accounting.LedgerPart{{Name: "gradients", Accounting: accounting.GDP, Mu: muGrad, Releases: releases}}
	if muCount > 0 {
		parts = append(parts, accounting.LedgerPart{Name: "clip counts", Accounting: accounting.GDP, Mu: muCount, Releases: releases})
	}
	l := composed(parts)
	l.GradientMu, l.CountMu = muGrad, muCount
	return l
}

// spentSplit returns l, whose parts split total (a run's Settings.Mu) and were all spent,
// with Mu = total and Epsilon read off it. The parts are unchanged; they compose to total to
// rounding, which it checks (a relative 1e-12 covers any order of summation and fused
// multiply-add; a larger gap is a bug in the split, and panics).
func spentSplit(l accounting.Ledger, total float64) accounting.Ledger {
	if !l.Private || l.Mu == total {
		return l
	}
	if math.Abs(l.Mu-total) > 1e-12*total {
		panic(fmt.Sprintf("algo: ledger parts compose to mu %v, not to the %v they split", l.Mu, total))
	}
	exact := accounting.NewLedger(total, l.Releases)
	l.Mu, l.Epsilon = exact.Mu, exact.Epsilon
	return l
}

// withCalibration adds to l the muCal-GDP release of ClipCalibration, its queries noisy
// counts (nothing when muCal is 0 or l is not private): Mu becomes ComposeGDP(GradientMu,
// CountMu, muCal).
func withCalibration(l accounting.Ledger, muCal float64, queries int) accounting.Ledger {
	if muCal == 0 || !l.Private {
		return l
	}
	out := composed(append(append([]accounting.LedgerPart(nil), l.Parts...), accounting.LedgerPart{Name: "calibration counts", Accounting: accounting.GDP, Mu: muCal, Releases: queries}))
	out.GradientMu, out.CountMu, out.CalibrationMu = l.GradientMu, l.CountMu, muCal
	return out
}
