package audit

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// clopperPearsonUpper is the one-sided Clopper-Pearson upper confidence bound, at level
// confidence, on the success probability p of a binomial from k successes in trials trials:
// the confidence quantile of Beta(k+1, trials-k), and 1 when k == trials. With probability at
// least confidence over the draw of k, p is at most the bound.
func clopperPearsonUpper(k, trials int, confidence float64) (float64, error) {
	if err := checkBinomial(k, trials, confidence); err != nil {
		return 0, err
	}
	if k == trials {
		return 1, nil
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(trials - k)}.Quantile(confidence), nil
}

// clopperPearsonLower is the one-sided Clopper-Pearson lower confidence bound, at level
// confidence: the (1-confidence) quantile of Beta(k, trials-k+1), and 0 when k == 0.
func clopperPearsonLower(k, trials int, confidence float64) (float64, error) {
	if err := checkBinomial(k, trials, confidence); err != nil {
		return 0, err
	}
	if k == 0 {
		return 0, nil
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(trials - k + 1)}.Quantile(1 - confidence), nil
}

func checkBinomial(k, trials int, confidence float64) error {
	if trials <= 0 || k < 0 || k > trials {
		return fmt.Errorf("audit: Clopper-Pearson needs 0 <= k <= trials and trials > 0, got k=%d trials=%d", k, trials)
	}
	if !(confidence > 0 && confidence < 1) {
		return fmt.Errorf("audit: Clopper-Pearson confidence must lie in (0, 1), got %v", confidence)
	}
	return nil
}

// gdpSeparation is the smallest mu for which a test with false-positive rate alpha and
// false-negative rate beta is allowed under mu-GDP. A mu-GDP mechanism satisfies
// beta >= Phi(Phi^{-1}(1-alpha) - mu) for every test (Dong, Roth and Su 2022), that is
//
//	mu >= Phi^{-1}(1-alpha) - Phi^{-1}(beta).
//
// It is decreasing in alpha and in beta, so upper bounds on the two rates give a lower bound
// on mu, and point rates give a point estimate. The result may be negative (a test worse
// than guessing) and is -Inf when alpha or beta is 1.
func gdpSeparation(alpha, beta float64) float64 {
	return distuv.UnitNormal.Quantile(1-alpha) - distuv.UnitNormal.Quantile(beta)
}

// estimate is the outcome of a threshold audit of one mechanism on one pair of neighbouring
// datasets X and X'. The test says "X'" when the statistic lies above Threshold (Above true)
// or below it (Above false). The runs of each dataset are split in two halves by run index:
// the first half picks the test, the second half (Evaluation runs per dataset) measures it,
// so the confidence statement needs no correction for the choice among thresholds.
type estimate struct {
	Threshold  float64 // the chosen threshold c
	Above      bool    // the test says X' when out > c (true) or out < c (false)
	Selection  int     // runs per dataset used to choose the test
	Evaluation int     // held-out runs per dataset used to measure it
	FPR        float64 // held-out false-positive rate alpha = P(test says X' | X)
	FNR        float64 // held-out false-negative rate beta = P(test says X | X')
	FPRUpper   float64 // Clopper-Pearson upper bound on alpha
	FNRUpper   float64 // Clopper-Pearson upper bound on beta
	MuHat      float64 // gdpSeparation(FPR, FNR), rates clamped to [1/(2N), 1-1/(2N)], floored at 0
	MuLB       float64 // gdpSeparation(FPRUpper, FNRUpper) floored at 0: mu >= MuLB with the stated confidence
	// EpsHat and EpsLB are epsSeparation's point estimate and lower bound, set by
	// estimateEps only (an (epsilon, delta) claim).
	EpsHat, EpsLB float64
}

// maxThresholds is the number of candidate thresholds (pooled quantiles of the selection
// half) tried in each direction.
const maxThresholds = 200

// EstimateMu runs the threshold audit on the statistics outX (runs on dataset X) and outXp
// (runs on X'). Candidate thresholds are up to maxThresholds quantiles of the pooled selection
// half, in both directions; the one with the largest lower bound on the selection half is
// evaluated on the held-out half. The two one-sided Clopper-Pearson bounds are each taken at
// level 1 - (1-confidence)/2, so that with probability at least confidence both hold and the
// true mu is at least MuLB (union bound).
func EstimateMu(outX, outXp []float64, confidence float64) (estimate, error) {
	return estimateWith(outX, outXp, confidence, gdpSeparation)
}

// epsSeparation is the smallest epsilon for which a test with false-positive rate alpha
// and false-negative rate beta is allowed under (epsilon, delta)-DP: the event "says X'"
// gives 1 - beta <= e^eps alpha + delta, the event "says X" gives 1 - alpha <= e^eps beta
// + delta, so eps >= log((1 - delta - beta)/alpha) and eps >= log((1 - delta - alpha)/beta).
// It is decreasing in alpha and beta (upper bounds on the rates give a lower bound) and
// -Inf when neither event separates the datasets by more than delta.
func epsSeparation(alpha, beta, delta float64) float64 {
	sep := func(a, b float64) float64 {
		if 1-delta-b <= 0 {
			return math.Inf(-1)
		}
		return math.Log((1 - delta - b) / a)
	}
	return math.Max(sep(alpha, beta), sep(beta, alpha))
}

// estimateEps is EstimateMu for an (epsilon, delta)-DP claim: the test is chosen, and
// measured, by epsSeparation at delta; EpsHat and EpsLB are set (floored at 0), and MuHat
// and MuLB are the same test's GDP separation, for information.
func estimateEps(outX, outXp []float64, delta, confidence float64) (estimate, error) {
	if !(delta >= 0 && delta < 1) {
		return estimate{}, fmt.Errorf("audit: EstimateEps: delta must lie in [0, 1), got %v", delta)
	}
	sep := func(a, b float64) float64 { return epsSeparation(a, b, delta) }
	est, err := estimateWith(outX, outXp, confidence, sep)
	if err != nil {
		return estimate{}, err
	}
	nX, nXp := est.Evaluation, est.Evaluation
	est.EpsLB = math.Max(0, sep(est.FPRUpper, est.FNRUpper))
	est.EpsHat = math.Max(0, sep(clampRate(est.FPR, nX), clampRate(est.FNR, nXp)))
	return est, nil
}

// estimateWith is the threshold audit with the separation sep(alpha, beta) that the claim
// bounds: the test is chosen on the selection half by the largest sep of the rates' upper
// bounds and measured on the held-out half; MuHat and MuLB are its GDP separation.
func estimateWith(outX, outXp []float64, confidence float64, sep func(alpha, beta float64) float64) (estimate, error) {
	if len(outX) < 4 || len(outXp) < 4 {
		return estimate{}, fmt.Errorf("audit: EstimateMu needs at least 4 runs per dataset, got %d and %d", len(outX), len(outXp))
	}
	if !(confidence > 0 && confidence < 1) {
		return estimate{}, fmt.Errorf("audit: confidence must lie in (0, 1), got %v", confidence)
	}
	for _, s := range [][]float64{outX, outXp} {
		for i, v := range s {
			if math.IsNaN(v) {
				return estimate{}, fmt.Errorf("audit: statistic of run %d is NaN", i)
			}
		}
	}
	each := 1 - (1-confidence)/2
	selX, evalX := halves(outX)
	selXp, evalXp := halves(outXp)

	pooled := append(append([]float64(nil), selX...), selXp...)
	sort.Float64s(pooled)
	candidates := quantiles(pooled, maxThresholds)

	best := estimate{MuLB: math.Inf(-1)}
	found := false
	for _, c := range candidates {
		for _, above := range []bool{true, false} {
			lb, err := lowerBoundAt(selX, selXp, c, above, each, sep)
			if err != nil {
				return estimate{}, err
			}
			if !found || lb > best.MuLB {
				best = estimate{Threshold: c, Above: above, MuLB: lb}
				found = true
			}
		}
	}
	if !found {
		return estimate{}, errors.New("audit: no candidate threshold")
	}

	est := estimate{Threshold: best.Threshold, Above: best.Above, Selection: len(selX), Evaluation: len(evalX)}
	fp := countSays(evalX, est.Threshold, est.Above)
	fn := len(evalXp) - countSays(evalXp, est.Threshold, est.Above)
	est.FPR = float64(fp) / float64(len(evalX))
	est.FNR = float64(fn) / float64(len(evalXp))
	var err error
	if est.FPRUpper, err = clopperPearsonUpper(fp, len(evalX), each); err != nil {
		return estimate{}, err
	}
	if est.FNRUpper, err = clopperPearsonUpper(fn, len(evalXp), each); err != nil {
		return estimate{}, err
	}
	est.MuLB = math.Max(0, gdpSeparation(est.FPRUpper, est.FNRUpper))
	est.MuHat = math.Max(0, gdpSeparation(clampRate(est.FPR, len(evalX)), clampRate(est.FNR, len(evalXp))))
	return est, nil
}

// halves splits runs by index: the first half selects, the second evaluates.
func halves(s []float64) (sel, eval []float64) {
	h := len(s) / 2
	sel = append([]float64(nil), s[:h]...)
	eval = append([]float64(nil), s[h:]...)
	sort.Float64s(sel)
	sort.Float64s(eval)
	return sel, eval
}

// quantiles returns up to k distinct values of sorted, evenly spaced by rank.
func quantiles(sorted []float64, k int) []float64 {
	out := make([]float64, 0, k)
	for j := 0; j < k; j++ {
		v := sorted[(j*(len(sorted)-1))/max(k-1, 1)]
		if len(out) == 0 || v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// countSays counts the runs of sorted on which the test says X'.
func countSays(sorted []float64, c float64, above bool) int {
	// idx = number of values <= c.
	idx := sort.Search(len(sorted), func(i int) bool { return sorted[i] > c })
	if above {
		return len(sorted) - idx
	}
	// values < c.
	return sort.SearchFloat64s(sorted, c)
}

func lowerBoundAt(sortedX, sortedXp []float64, c float64, above bool, each float64, sep func(alpha, beta float64) float64) (float64, error) {
	fp := countSays(sortedX, c, above)
	fn := len(sortedXp) - countSays(sortedXp, c, above)
	au, err := clopperPearsonUpper(fp, len(sortedX), each)
	if err != nil {
		return 0, err
	}
	bu, err := clopperPearsonUpper(fn, len(sortedXp), each)
	if err != nil {
		return 0, err
	}
	return sep(au, bu), nil
}

// clampRate keeps an empirical rate away from 0 and 1 by half a count so that the point
// estimate stays finite.
func clampRate(r float64, trials int) float64 {
	h := 0.5 / float64(trials)
	return math.Min(math.Max(r, h), 1-h)
}
