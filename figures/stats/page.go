package stats

import (
	"fmt"
	"math"
)

// PageL is Page's L test for a monotone trend across k treatments observed in n blocks:
// data[block][treatment], the treatments in the hypothesised order of increasing location.
// Each block is ranked 1..k (average ranks for ties); with R_j the sum over blocks of the
// ranks of treatment j, L = sum_j j R_j, reported as Statistic, and N = n.
//
// The p-value follows scipy.stats.page_trend_test(data, method="auto") (scipy 1.10), whose
// only alternative is Greater (increasing trend): P(L' >= L) under the null hypothesis that
// each block's ranks are a uniformly random permutation. It is exact when k <= 8, n <= 20 and
// not (n > 12 and k > 3), scipy's rule; otherwise the normal approximation z = (L - E) / sqrt(V)
// with E = n k (k+1)^2 / 4 and V = n k^2 (k+1) (k^2-1) / 144, P(Z >= z), no continuity
// correction. The exact distribution is the n-fold convolution of one block's distribution
// of sum_j j pi(j) over the k! permutations pi. As in scipy, ties are not corrected for: the
// exact path evaluates P(L' >= floor(L)) under the untied null, and the normal path uses the
// untied variance.
//
// Less (decreasing trend) is the Greater test of the blocks with their treatments in reverse
// order, whose statistic is n k (k+1)^2 / 2 - L; TwoSided is 2 min(p_Greater, p_Less),
// capped at 1 (the null distribution of L is symmetric about E). Estimate, CILow, CIHigh
// and CICoverage are NaN: the test has no location estimate.
//
// Fewer than 2 blocks or 3 treatments (scipy's limits), blocks of different lengths, NaN or
// infinite values, or an invalid alt are errors.
func PageL(data [][]float64, alt Alternative) (TestResult, error) {
	const fn = "PageL"
	if !alt.valid() {
		return TestResult{}, fmt.Errorf("stats: %s: unknown alternative %v", fn, alt)
	}
	n := len(data)
	if n < 2 {
		return TestResult{}, fmt.Errorf("stats: %s: %d blocks; the test needs at least 2", fn, n)
	}
	k := len(data[0])
	if k < 3 {
		return TestResult{}, fmt.Errorf("stats: %s: %d treatments; the test needs at least 3", fn, k)
	}
	var l float64
	for b, row := range data {
		if len(row) != k {
			return TestResult{}, fmt.Errorf("stats: %s: block %d has %d treatments, block 0 has %d", fn, b, len(row), k)
		}
		if err := checkFinite(fn, fmt.Sprintf("data[%d]", b), row); err != nil {
			return TestResult{}, err
		}
		ranks, _ := rankAverage(row)
		for j, r := range ranks {
			l += float64(j+1) * r
		}
	}
	fn64, fk := float64(n), float64(k)
	lRev := fn64*fk*(fk+1)*(fk+1)/2 - l
	res := TestResult{N: n, Statistic: l, Estimate: math.NaN(), CILow: math.NaN(), CIHigh: math.NaN(), CICoverage: math.NaN()}
	var sf func(l float64) float64
	if k <= 8 && n <= 20 && !(n > 12 && k > 3) {
		res.Exact = true
		pmf, lMin := pagePMF(n, k)
		sf = func(l float64) float64 {
			var p float64
			for s := max(int(math.Floor(l))-lMin, 0); s < len(pmf); s++ {
				p += pmf[s]
			}
			return p
		}
	} else {
		e := fn64 * fk * (fk + 1) * (fk + 1) / 4
		sd := math.Sqrt(fn64 * fk * fk * (fk + 1) * (fk*fk - 1) / 144)
		sf = func(l float64) float64 { return normalP((l-e)/sd, Greater) }
	}
	switch alt {
	case Greater:
		res.PValue = sf(l)
	case Less:
		res.PValue = sf(lRev)
	default:
		res.PValue = math.Min(1, 2*math.Min(sf(l), sf(lRev)))
	}
	res.PValue = math.Min(1, res.PValue)
	return res, nil
}

// pagePMF returns the null distribution of L for n blocks of k treatments: pmf[s] = P(L =
// lMin + s), with lMin = n k(k+1)(k+2)/6.
func pagePMF(n, k int) (pmf []float64, lMin int) {
	// One block: counts of sum_j j pi(j) over the permutations pi of 1..k, by enumeration.
	a, b := k*(k+1)*(k+2)/6, k*(k+1)*(2*k+1)/6
	row := make([]float64, b-a+1)
	perm := make([]int, k)
	for i := range perm {
		perm[i] = i + 1
	}
	var total float64
	permute(perm, 0, func(p []int) {
		s := 0
		for j, v := range p {
			s += (j + 1) * v
		}
		row[s-a]++
		total++
	})
	for i := range row {
		row[i] /= total
	}
	pmf = []float64{1}
	for range n {
		next := make([]float64, len(pmf)+len(row)-1)
		for i, p := range pmf {
			if p == 0 {
				continue
			}
			for j, q := range row {
				next[i+j] += p * q
			}
		}
		pmf = next
	}
	return pmf, n * a
}

// permute calls visit with every permutation of p[i:] (p[:i] fixed), in place.
func permute(p []int, i int, visit func([]int)) {
	if i == len(p) {
		visit(p)
		return
	}
	for j := i; j < len(p); j++ {
		p[i], p[j] = p[j], p[i]
		permute(p, i+1, visit)
		p[i], p[j] = p[j], p[i]
	}
}
