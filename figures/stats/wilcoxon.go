package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// maxExactSignedRank is the largest number of non-zero differences for which
// WilcoxonSignedRank computes its p-value from the exact null distribution of T+ (when |d|
// has no ties), scipy's limit.
const maxExactSignedRank = 50

// maxExactWalshCI is the largest number of differences for which the Hodges-Lehmann
// interval of WilcoxonSignedRank is chosen with the exact null distribution of T+ (about
// n^3/2 operations, 6e7 at the limit); beyond it the normal approximation is close.
const maxExactWalshCI = 500

// WilcoxonSignedRank tests whether the differences d (paired a - b) are located at 0, with
// the conventions of scipy.stats.wilcoxon(d, zero_method="wilcox", correction=False,
// alternative=alt):
//
//   - zero differences are dropped; N is the number of the remaining ones, and n = 0 is an
//     error;
//   - the non-zero |d| are ranked 1..N (average ranks for ties); Statistic is T+, the sum of
//     the ranks of the positive differences (scipy reports min(T+, T-) for the two-sided test
//     and T+ for the one-sided ones; the p-values are the same);
//   - when N <= maxExactSignedRank and the |d| have no ties, the p-value comes from the exact
//     null distribution of T+ (each rank positive or negative with probability 1/2): Greater
//     P(T+ >= t), Less P(T+ <= t), TwoSided 2 min of the two, capped at 1 (1 when t is the
//     centre N(N+1)/4). This equals scipy.stats.wilcoxon(d[d != 0], method="exact"); note
//     that scipy's method="auto" of version 1.10 instead falls back to the normal
//     approximation whenever d holds a zero, and uses its exact table even when |d| has ties;
//   - otherwise the normal approximation without continuity correction: z = (T+ - N(N+1)/4) /
//     sigma with sigma^2 = (N(N+1)(2N+1) - sum_g (t_g^3 - t_g)/2) / 24 over the groups g of t_g
//     tied |d| (scipy's tie correction); Greater P(Z >= z), Less P(Z <= z), TwoSided 2 P(Z >=
//     |z|). This equals scipy.stats.wilcoxon(d, method="approx").
//
// Estimate is the Hodges-Lehmann estimate of the location of d: the median (Median) of the
// M = n(n+1)/2 Walsh averages (d_i + d_j)/2, i <= j, over all n = len(d) differences,
// zero differences included (they are observed pairs in which a and b agree). [CILow,
// CIHigh] = [W_(k), W_(M+1-k)] over the sorted Walsh averages W, the inversion of the
// signed-rank test (Tukey; Hollander and Wolfe), with k the largest integer in 1..floor(M/2)
// whose coverage 1 - 2 P(T+ <= k-1) is at least level, T+ the signed-rank statistic of n
// untied observations. P(T+ <= q) is exact when n <= 500, else
// Phi((q + 1/2 - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24)). When no k reaches the level (n small)
// k = 1: [min W, max W] with its lower coverage. The interval is two-sided whatever alt is.
//
// NaN or infinite differences, an invalid alt, or level outside (0, 1) are errors.
func WilcoxonSignedRank(d []float64, alt Alternative, level float64) (TestResult, error) {
	const fn = "WilcoxonSignedRank"
	if !alt.valid() {
		return TestResult{}, fmt.Errorf("stats: %s: unknown alternative %v", fn, alt)
	}
	if err := checkLevel(fn, level); err != nil {
		return TestResult{}, err
	}
	if len(d) == 0 {
		return TestResult{}, errors.New("stats: WilcoxonSignedRank: no differences")
	}
	if err := checkFinite(fn, "d", d); err != nil {
		return TestResult{}, err
	}
	var nonzero, abs []float64
	for _, v := range d {
		if v != 0 {
			nonzero = append(nonzero, v)
			abs = append(abs, math.Abs(v))
		}
	}
	n := len(nonzero)
	if n == 0 {
		return TestResult{}, fmt.Errorf("stats: %s: all %d differences are zero", fn, len(d))
	}
	ranks, ties := rankAverage(abs)
	var tPlus float64
	for i, v := range nonzero {
		if v > 0 {
			tPlus += ranks[i]
		}
	}
	res := TestResult{N: n, Statistic: tPlus}
	if n <= maxExactSignedRank && len(ties) == 0 {
		res.Exact = true
		res.PValue = signedRankExactP(n, int(tPlus), alt)
	} else {
		nf := float64(n)
		mean := nf * (nf + 1) / 4
		variance := (nf*(nf+1)*(2*nf+1) - tieTerm(ties)/2) / 24
		res.PValue = normalP((tPlus-mean)/math.Sqrt(variance), alt)
	}
	res.Estimate, res.CILow, res.CIHigh, res.CICoverage = walshCI(d, level)
	return res, nil
}

// signedRankPMF returns the null distribution of T+ for n untied non-zero differences:
// pmf[s] = P(T+ = s), s = 0..n(n+1)/2, each rank 1..n entering the sum with probability 1/2.
// Adding rank i halves the mass and shifts a copy by i, p'(s) = (p(s) + p(s-i))/2, a convex
// combination: no cancellation, and for n <= 53 every value and every tail sum is a multiple
// of 2^-n below 1, so they are exact in float64 (the counts of rank subsets by sum, over 2^n).
func signedRankPMF(n int) []float64 {
	return rememberedPMF(pmfKey{n: n}, func() []float64 { return computeSignedRankPMF(n) })
}

// computeSignedRankPMF is signedRankPMF, computed.
func computeSignedRankPMF(n int) []float64 {
	m := n * (n + 1) / 2
	p := make([]float64, m+1)
	p[0] = 1
	top := 0
	for i := 1; i <= n; i++ {
		top += i
		for s := top; s >= 0; s-- {
			v := p[s] / 2
			if s >= i {
				v += p[s-i] / 2
			}
			p[s] = v
		}
	}
	return p
}

// signedRankExactP is the exact p-value of T+ = t among n untied non-zero differences.
func signedRankExactP(n, t int, alt Alternative) float64 {
	pmf := signedRankPMF(n)
	var pLess, pGreater float64
	for s, v := range pmf {
		if s <= t {
			pLess += v
		}
		if s >= t {
			pGreater += v
		}
	}
	switch alt {
	case Less:
		return pLess
	case Greater:
		return pGreater
	}
	if 2*t == len(pmf)-1 {
		return 1
	}
	return math.Min(1, 2*math.Min(pLess, pGreater))
}

// normalP is the p-value of a standard normal statistic z for alt.
func normalP(z float64, alt Alternative) float64 {
	// Tail probabilities through erfc, not 1 - CDF (gonum's distuv.Normal.Survival is
	// 1 - erf, which rounds every tail below about 1e-16 to 0).
	upper := func(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }
	switch alt {
	case Less:
		return upper(-z)
	case Greater:
		return upper(z)
	}
	return math.Min(1, 2*upper(math.Abs(z)))
}

// walshCI returns the Hodges-Lehmann estimate of d's location and its signed-rank
// interval, as documented on WilcoxonSignedRank. The order statistics of the Walsh averages
// are selected (newWalshSelector), not sorted; the values are those of sorting all n(n+1)/2
// averages d[i] + (d[j]-d[i])/2, i <= j, bit for bit. Only when max |d| reaches
// maxWalshSelect, or a zero order statistic has zeros of both signs beside it, are all the
// averages sorted.
func walshCI(d []float64, level float64) (est, lo, hi, coverage float64) {
	n := len(d)
	m := n * (n + 1) / 2
	var cdf func(q int) float64
	if n <= maxExactWalshCI {
		cdf = pmfCDF(signedRankPMF(n))
	} else {
		nf := float64(n)
		cdf = normalCDF(nf*(nf+1)/4, math.Sqrt(nf*(nf+1)*(2*nf+1)/24))
	}
	k, coverage := ciOrder(m, cdf, level)
	ok := false
	if w := newWalshSelector(d); w != nil {
		est, lo, hi, ok = orderStats(m, k, w.at)
	}
	if !ok {
		walsh := make([]float64, 0, m)
		for i := range d {
			for j := i; j < n; j++ {
				walsh = append(walsh, d[i]+(d[j]-d[i])/2)
			}
		}
		slices.Sort(walsh)
		est, lo, hi = sortedMedian(walsh), walsh[k-1], walsh[m-k]
	}
	return est, lo, hi, coverage
}

// pmfCDF returns q -> sum_{s <= q} pmf[s].
func pmfCDF(pmf []float64) func(q int) float64 {
	cum := make([]float64, len(pmf))
	var acc float64
	for s, v := range pmf {
		acc += v
		cum[s] = acc
	}
	return func(q int) float64 {
		if q < 0 {
			return 0
		}
		return cum[min(q, len(cum)-1)]
	}
}

// normalCDF returns q -> Phi((q + 1/2 - mean) / sd), the continuity-corrected normal
// approximation of the CDF of an integer statistic.
func normalCDF(mean, sd float64) func(q int) float64 {
	return func(q int) float64 {
		return distuv.UnitNormal.CDF((float64(q) + 0.5 - mean) / sd)
	}
}

// ciOrder returns the largest k in 1..max(1, floor(m/2)) whose coverage 1 - 2 cdf(k-1) is at
// least level, and that coverage; k = 1 with its lower coverage when none reaches the level.
// The interval between the k-th smallest and the k-th largest of m ordered values whose
// count below the parameter has null CDF cdf has that coverage. cdf is non-decreasing, so
// the coverage decreases in k and a binary search finds k.
func ciOrder(m int, cdf func(q int) float64, level float64) (k int, coverage float64) {
	cov := func(k int) float64 { return 1 - 2*cdf(k-1) }
	lo, hi := 1, max(1, m/2) // cov(lo) >= level is the invariant once lo > 1
	if cov(1) < level {
		return 1, cov(1)
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if cov(mid) >= level {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, cov(lo)
}
