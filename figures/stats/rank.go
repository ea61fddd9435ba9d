package stats

import (
	"fmt"
	"math"
	"sort"
)

// Alternative is the alternative hypothesis of a test, in scipy's convention: Greater means
// the location of the sample (of the differences d for WilcoxonSignedRank, of a relative to b
// for MannWhitney, the trend across treatments for PageL) is greater than under the null
// hypothesis; Less means it is smaller; TwoSided means either.
type Alternative int

const (
	// TwoSided: the location differs from the null in either direction.
	TwoSided Alternative = iota
	// Less: the location is smaller than under the null hypothesis.
	Less
	// Greater: the location is greater than under the null hypothesis.
	Greater
)

// String returns scipy's name of the alternative: "two-sided", "less" or "greater".
func (a Alternative) String() string {
	switch a {
	case TwoSided:
		return "two-sided"
	case Less:
		return "less"
	case Greater:
		return "greater"
	}
	return fmt.Sprintf("Alternative(%d)", int(a))
}

func (a Alternative) valid() bool { return a == TwoSided || a == Less || a == Greater }

// TestResult is the outcome of a rank test.
type TestResult struct {
	// N is the sample size the test used: for WilcoxonSignedRank the number of non-zero
	// differences, for MannWhitney n_a + n_b, for PageL the number of blocks.
	N int
	// Statistic is the test statistic: WilcoxonSignedRank T+ (the sum of the ranks of the
	// positive differences among the non-zero |d|), MannWhitney U of a (the number of pairs
	// with a_i > b_j plus half the number of ties), PageL the statistic L of the data in the
	// given treatment order.
	Statistic float64
	// PValue is the p-value for the requested alternative.
	PValue float64
	// Exact reports whether PValue comes from the exact null distribution (else the normal
	// approximation).
	Exact bool
	// Estimate is the Hodges-Lehmann estimate of the location (WilcoxonSignedRank: median of
	// the Walsh averages; MannWhitney: median of the differences a_i - b_j); NaN for PageL.
	Estimate float64
	// CILow and CIHigh bound the distribution-free two-sided confidence interval of Estimate
	// at the requested level; NaN for PageL.
	CILow, CIHigh float64
	// CICoverage is the coverage of [CILow, CIHigh] under the null distribution that chose it
	// (exact for continuous data when that distribution is exact, approximate otherwise); it
	// is below the requested level only when the sample is too small to reach it. NaN for
	// PageL.
	CICoverage float64
}

// checkFinite returns an error naming the first NaN or infinite element of x.
func checkFinite(fn, name string, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("stats: %s: %s[%d] = %v is not a finite number", fn, name, i, v)
		}
	}
	return nil
}

// checkLevel returns an error unless 0 < level < 1.
func checkLevel(fn string, level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("stats: %s: confidence level %v is not in (0, 1)", fn, level)
	}
	return nil
}

// rankAverage returns the ranks 1..n of x, ties receiving the mean of the ranks they span
// (scipy.stats.rankdata's "average" method), and the sizes of the groups of tied values that
// have more than one member.
func rankAverage(x []float64) (ranks []float64, ties []int) {
	n := len(x)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return x[idx[i]] < x[idx[j]] })
	ranks = make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && x[idx[j]] == x[idx[i]] {
			j++
		}
		// positions i..j-1 (0-based) hold ranks i+1..j; their mean is (i+1+j)/2.
		r := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		if j-i > 1 {
			ties = append(ties, j-i)
		}
		i = j
	}
	return ranks, ties
}

// tieTerm returns sum over tie groups of t^3 - t.
func tieTerm(ties []int) float64 {
	var s float64
	for _, t := range ties {
		ft := float64(t)
		s += ft*ft*ft - ft
	}
	return s
}
