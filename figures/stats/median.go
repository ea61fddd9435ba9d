package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Median returns the sample median of x: the middle order statistic for odd n, the mean of
// the two middle order statistics for even n. That is Hyndman and Fan's type 7 quantile at
// p = 0.5, the median of figures/plotting, numpy and R. x is not modified. Median returns NaN
// when x is empty or holds a NaN.
func Median(x []float64) float64 {
	if len(x) == 0 || hasNaN(x) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return sortedMedian(s)
}

// sortedMedian is Median of an already sorted, non-empty, NaN-free slice.
func sortedMedian(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1] + (s[n/2]-s[n/2-1])/2
}

func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// MedianCI returns the distribution-free (order-statistic, binomial) confidence interval of
// the population median from the sample x: with x_(1) <= ... <= x_(n) the order statistics,
// the interval is [x_(l), x_(n+1-l)] for the largest l in 1..floor(n/2) whose coverage
//
//	coverage(l) = P(x_(l) <= median <= x_(n+1-l)) = 1 - 2 P(Bin(n, 1/2) <= l-1)
//
// is at least level, and coverage is coverage(l). The coverage holds for any continuous
// distribution; no resampling, so the result is deterministic.
//
// When n is too small for the level (even [x_(1), x_(n)], coverage 1 - 2^(1-n), covers less
// than level; at level 0.95 that is n <= 5) MedianCI returns [x_(1), x_(n)] with its lower
// coverage, so coverage < level tells the caller the interval does not reach the level. For
// n = 1 that is [x, x] with coverage 0. Empty x or a NaN in x gives NaN for all three.
// MedianCI panics if level is not in (0, 1). x is not modified.
func MedianCI(x []float64, level float64) (lo, hi, coverage float64) {
	if !(level > 0 && level < 1) {
		panic(fmt.Sprintf("stats: MedianCI: confidence level %v is not in (0, 1)", level))
	}
	n := len(x)
	if n == 0 || hasNaN(x) {
		return math.NaN(), math.NaN(), math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	l, coverage := ciOrder(n, func(q int) float64 { return b.CDF(float64(q)) }, level)
	return s[l-1], s[n-l], coverage
}
