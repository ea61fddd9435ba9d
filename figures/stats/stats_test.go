package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		x    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1}, 3},
		{[]float64{2, 9, 1}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{-1, math.Inf(1), 7, 0, 2}, 2},
	}
	for _, c := range cases {
		in := slices.Clone(c.x)
		if got := Median(c.x); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", in, got, c.want)
		}
		if !slices.Equal(in, c.x) {
			t.Errorf("Median modified its input: %v became %v", in, c.x)
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Median([]float64{1, math.NaN()})) {
		t.Error("Median of an empty sample or one with a NaN is not NaN")
	}
}

func TestMedianCIEdges(t *testing.T) {
	lo, hi, cov := MedianCI(nil, 0.95)
	if !math.IsNaN(lo) || !math.IsNaN(hi) || !math.IsNaN(cov) {
		t.Errorf("MedianCI(empty) = %v %v %v, want NaN", lo, hi, cov)
	}
	x := []float64{3, 1, 2, 5, 4}
	lo, hi, cov = MedianCI(x, 0.95)
	if lo != 1 || hi != 5 || cov != 0.9375 || cov >= 0.95 {
		t.Errorf("MedianCI(n=5, 0.95) = [%v, %v] %v, want [1, 5] with coverage 0.9375 < level", lo, hi, cov)
	}
	if !slices.Equal(x, []float64{3, 1, 2, 5, 4}) {
		t.Errorf("MedianCI modified its input: %v", x)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "level") {
			t.Errorf("MedianCI(level 1.5) did not panic naming the level: %v", r)
		}
	}()
	MedianCI(x, 1.5)
}

// signedRankCDFBrute returns P(T+ <= q), q = 0..n(n+1)/2, by enumerating the 2^n sign
// patterns of the ranks 1..n.
func signedRankCDFBrute(n int) []float64 {
	m := n * (n + 1) / 2
	counts := make([]float64, m+1)
	for mask := 0; mask < 1<<n; mask++ {
		s := 0
		for r := 1; r <= n; r++ {
			if mask&(1<<(r-1)) != 0 {
				s += r
			}
		}
		counts[s]++
	}
	cdf := make([]float64, m+1)
	acc := 0.0
	for s, c := range counts {
		acc += c
		cdf[s] = acc / float64(int(1)<<n)
	}
	return cdf
}

// orderRule picks k by a linear scan of the documented rule: the largest k in
// 1..max(1, floor(m/2)) with 1 - 2 cdf[k-1] >= level, else 1.
func orderRule(m int, cdf []float64, level float64) (int, float64) {
	k := 1
	for j := 2; j <= m/2; j++ {
		if 1-2*cdf[j-1] >= level {
			k = j
		}
	}
	return k, 1 - 2*cdf[k-1]
}

func TestSignedRankPMFBrute(t *testing.T) {
	for n := 1; n <= 14; n++ {
		brute := signedRankCDFBrute(n)
		cdf := pmfCDF(signedRankPMF(n))
		for q := range brute {
			if cdf(q) != brute[q] {
				t.Fatalf("n=%d: P(T+ <= %d) = %v, enumeration gives %v", n, q, cdf(q), brute[q])
			}
		}
	}
	// The largest exact table: every probability is a count over 2^50, symmetric, summing to
	// exactly 1.
	pmf := signedRankPMF(maxExactSignedRank)
	var sum float64
	for s, p := range pmf {
		sum += p
		c := math.Ldexp(p, maxExactSignedRank)
		if p != pmf[len(pmf)-1-s] || p <= 0 || c != math.Trunc(c) {
			t.Fatalf("n=50: P(T+ = %d) = %v (times 2^50: %v), mirrored %v", s, p, c, pmf[len(pmf)-1-s])
		}
	}
	if sum != 1 {
		t.Fatalf("n=50: probabilities sum to %v", sum)
	}
}

func TestWilcoxonHodgesLehmannBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 14; n++ {
		for _, level := range []float64{0.8, 0.9, 0.95, 0.99} {
			d := make([]float64, n)
			for i := range d {
				d[i] = rng.NormFloat64() + 0.3
			}
			if n > 3 {
				d[1] = 0 // zero differences stay in the estimate
			}
			var walsh []float64
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					walsh = append(walsh, d[i]+(d[j]-d[i])/2)
				}
			}
			slices.Sort(walsh)
			k, cov := orderRule(len(walsh), signedRankCDFBrute(n), level)
			res, err := WilcoxonSignedRank(d, TwoSided, level)
			if n == 1 && d[0] == 0 {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			m := len(walsh)
			wantEst := walsh[m/2]
			if m%2 == 0 {
				wantEst = (walsh[m/2-1] + walsh[m/2]) / 2
			}
			if math.Abs(res.Estimate-wantEst) > 1e-15 || res.CILow != walsh[k-1] || res.CIHigh != walsh[m-k] || math.Abs(res.CICoverage-cov) > 1e-15 {
				t.Errorf("n=%d level=%v: HL %v [%v, %v] coverage %v, brute force %v [%v, %v] coverage %v",
					n, level, res.Estimate, res.CILow, res.CIHigh, res.CICoverage, wantEst, walsh[k-1], walsh[m-k], cov)
			}
			if n >= 6 && level <= 0.95 && cov < level {
				t.Errorf("n=%d level=%v: coverage %v below the level", n, level, cov)
			}
		}
	}
}

// Hollander and Wolfe's Hamilton depression scale data (Table 3.1; also R's ?wilcox.test):
// d = y - x over 9 patients. The Hodges-Lehmann estimate is -0.46, and at 95% the signed-rank
// interval is [W_(6), W_(40)] = [-0.786, -0.010] with coverage 1 - 2 P(T+ <= 5) = 1 - 20/512.
// One-sided, "x greater than y" (d less than 0): T+ = 5, p = P(T+ <= 5) = 10/512 = 0.01953
// (R: V = 40 for x - y, p-value = 0.01953).
func TestWilcoxonHollanderWolfe(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = y[i] - x[i]
	}
	res, err := WilcoxonSignedRank(d, Less, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if res.Statistic != 5 || !res.Exact || !closeRel(res.PValue, 10.0/512, exactTol) {
		t.Errorf("T+ = %v exact=%v p = %v, want 5, exact, 10/512", res.Statistic, res.Exact, res.PValue)
	}
	if math.Abs(res.Estimate+0.46) > 1e-12 || math.Abs(res.CILow+0.786) > 1e-12 || math.Abs(res.CIHigh+0.010) > 1e-12 ||
		!closeRel(res.CICoverage, 1-20.0/512, 1e-12) {
		t.Errorf("HL %v [%v, %v] coverage %v, want -0.46 [-0.786, -0.010] coverage %v",
			res.Estimate, res.CILow, res.CIHigh, res.CICoverage, 1-20.0/512)
	}
}

// mannWhitneyCDFBrute returns P(U <= q) for untied samples of sizes m and n by enumerating
// the C(m+n, m) sets of ranks of the first sample.
func mannWhitneyCDFBrute(m, n int) []float64 {
	counts := make([]float64, m*n+1)
	total := 0.0
	for mask := 0; mask < 1<<(m+n); mask++ {
		if popcount(mask) != m {
			continue
		}
		rankSum := 0
		for r := 1; r <= m+n; r++ {
			if mask&(1<<(r-1)) != 0 {
				rankSum += r
			}
		}
		counts[rankSum-m*(m+1)/2]++
		total++
	}
	cdf := make([]float64, len(counts))
	acc := 0.0
	for q, c := range counts {
		acc += c
		cdf[q] = acc / total
	}
	return cdf
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

func TestMannWhitneyPMFBrute(t *testing.T) {
	for m := 1; m <= 7; m++ {
		for n := 1; n <= 7; n++ {
			brute := mannWhitneyCDFBrute(m, n)
			pmf := mannWhitneyPMF(m, n)
			acc := 0.0
			for q, p := range pmf {
				acc += p
				if math.Abs(acc-brute[q]) > 1e-14 {
					t.Fatalf("m=%d n=%d: P(U <= %d) = %v, enumeration gives %v", m, n, q, acc, brute[q])
				}
			}
		}
	}
	// A size only the recurrence reaches: sums to 1, symmetric, mean mn/2, variance
	// mn(m+n+1)/12.
	m, n := 40, 50
	pmf := mannWhitneyPMF(m, n)
	var sum, mean, second float64
	for k, p := range pmf {
		sum += p
		mean += float64(k) * p
		second += float64(k) * float64(k) * p
		if math.Abs(p-pmf[len(pmf)-1-k]) > 1e-15 {
			t.Fatalf("m=40 n=50: P(U=%d) = %v, mirrored %v", k, p, pmf[len(pmf)-1-k])
		}
	}
	variance := second - mean*mean
	if math.Abs(sum-1) > 1e-12 || math.Abs(mean-1000) > 1e-9 || math.Abs(variance-40*50*91.0/12)/variance > 1e-12 {
		t.Errorf("m=40 n=50: sum %v mean %v variance %v, want 1, 1000, %v", sum, mean, variance, 40*50*91.0/12)
	}
}

// The exact U distribution of larger samples against scipy.stats.mannwhitneyu(a, b,
// alternative=ALT, method="exact") (scipy 1.10.1), a = cos(1.1 i) + 0.05 i (i < 20),
// b = sin(1.3 i) - 0.2 (i < 25): U = 373, two-sided 0.004376393040421956, less
// 0.9979761759602213, greater 0.002188196520210978.
func TestMannWhitneyPMFScipy(t *testing.T) {
	var ua float64
	a, b := make([]float64, 20), make([]float64, 25)
	for i := range a {
		a[i] = math.Cos(1.1*float64(i)) + 0.05*float64(i)
	}
	for i := range b {
		b[i] = math.Sin(1.3*float64(i)) - 0.2
	}
	for _, x := range a {
		for _, y := range b {
			if x > y {
				ua++
			}
		}
	}
	if ua != 373 {
		t.Fatalf("U of a = %v, want 373", ua)
	}
	pmf := mannWhitneyPMF(20, 25)
	var le, ge float64
	for k, p := range pmf {
		if k <= 373 {
			le += p
		}
		if k >= 373 {
			ge += p
		}
	}
	// Two-sided: U_b = 500 - 373 = 127, 2 P(U >= 373).
	if !closeRel(le, 0.9979761759602213, exactTol) || !closeRel(ge, 0.002188196520210978, exactTol) || !closeRel(2*ge, 0.004376393040421956, exactTol) {
		t.Errorf("P(U <= 373) = %.17g, P(U >= 373) = %.17g", le, ge)
	}
}

func TestMannWhitneyHodgesLehmannBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for m := 1; m <= 7; m++ {
		for n := 1; n <= 7; n++ {
			level := []float64{0.8, 0.9, 0.95}[(m+n)%3]
			a, b := make([]float64, m), make([]float64, n)
			for i := range a {
				a[i] = rng.NormFloat64() + 0.5
			}
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			var diffs []float64
			for _, x := range a {
				for _, y := range b {
					diffs = append(diffs, x-y)
				}
			}
			slices.Sort(diffs)
			k, cov := orderRule(len(diffs), mannWhitneyCDFBrute(m, n), level)
			res, err := MannWhitney(a, b, TwoSided, level)
			if err != nil {
				t.Fatal(err)
			}
			md := len(diffs)
			wantEst := diffs[md/2]
			if md%2 == 0 {
				wantEst = (diffs[md/2-1] + diffs[md/2]) / 2
			}
			if math.Abs(res.Estimate-wantEst) > 1e-15 || res.CILow != diffs[k-1] || res.CIHigh != diffs[md-k] || math.Abs(res.CICoverage-cov) > 1e-14 {
				t.Errorf("m=%d n=%d level=%v: HL %v [%v, %v] coverage %v, brute force %v [%v, %v] coverage %v",
					m, n, level, res.Estimate, res.CILow, res.CIHigh, res.CICoverage, wantEst, diffs[k-1], diffs[md-k], cov)
			}
		}
	}
}

func TestMannWhitneyAllTied(t *testing.T) {
	res, err := MannWhitney([]float64{1, 1}, []float64{1, 1, 1}, TwoSided, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.PValue != 1 || res.Statistic != 3 || res.Estimate != 0 {
		t.Errorf("all tied: exact=%v p=%v U=%v HL=%v, want normal, p = 1, U = 3, HL = 0", res.Exact, res.PValue, res.Statistic, res.Estimate)
	}
}

func TestHolm(t *testing.T) {
	cases := []struct{ p, want []float64 }{
		// sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, 2*0.03, max(1*0.04, 0.06)
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		// capped at 1 and monotone: 3*0.3 = 0.9, 2*0.5 = 1, max(0.9, 1)
		{[]float64{0.5, 0.3, 0.9}, []float64{1, 0.9, 1}},
		// ties share the value: 3*0.02, max(2*0.02, 0.06), 0.5
		{[]float64{0.02, 0.02, 0.5}, []float64{0.06, 0.06, 0.5}},
		{[]float64{0.04}, []float64{0.04}},
		{[]float64{0, 1}, []float64{0, 1}},
		{nil, []float64{}},
	}
	for _, c := range cases {
		in := slices.Clone(c.p)
		got := Holm(c.p)
		if len(got) != len(c.want) {
			t.Fatalf("Holm(%v) = %v, want %v", in, got, c.want)
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-15 {
				t.Errorf("Holm(%v) = %v, want %v", in, got, c.want)
				break
			}
		}
		if !slices.Equal(in, c.p) {
			t.Errorf("Holm modified its input")
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "p[1]") {
			t.Errorf("Holm with a NaN did not panic naming it: %v", r)
		}
	}()
	Holm([]float64{0.1, math.NaN()})
}

func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	check := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", name, err, want)
		}
	}
	_, err := WilcoxonSignedRank(nil, TwoSided, 0.95)
	check("Wilcoxon empty", err, "no differences")
	_, err = WilcoxonSignedRank([]float64{0, 0, 0}, TwoSided, 0.95)
	check("Wilcoxon all zero", err, "all 3 differences are zero")
	_, err = WilcoxonSignedRank([]float64{1, nan}, TwoSided, 0.95)
	check("Wilcoxon NaN", err, "d[1] = NaN")
	_, err = WilcoxonSignedRank([]float64{inf, 1}, TwoSided, 0.95)
	check("Wilcoxon Inf", err, "d[0] = +Inf")
	_, err = WilcoxonSignedRank([]float64{1, 2}, Alternative(7), 0.95)
	check("Wilcoxon alt", err, "alternative")
	_, err = WilcoxonSignedRank([]float64{1, 2}, TwoSided, 0)
	check("Wilcoxon level", err, "level")
	_, err = MannWhitney(nil, []float64{1}, TwoSided, 0.95)
	check("MW empty", err, "both samples")
	_, err = MannWhitney([]float64{1}, []float64{2, nan}, TwoSided, 0.95)
	check("MW NaN", err, "b[1] = NaN")
	_, err = MannWhitney([]float64{1}, []float64{2}, TwoSided, 1)
	check("MW level", err, "level")
	_, err = PageL([][]float64{{1, 2, 3}}, Greater)
	check("Page blocks", err, "1 blocks")
	_, err = PageL([][]float64{{1, 2}, {2, 1}}, Greater)
	check("Page treatments", err, "2 treatments")
	_, err = PageL([][]float64{{1, 2, 3}, {2, 1}}, Greater)
	check("Page ragged", err, "block 1 has 2 treatments")
	_, err = PageL([][]float64{{1, 2, 3}, {2, 1, inf}}, Greater)
	check("Page Inf", err, "data[1][2] = +Inf")
}

// Beyond the exact sizes the normal approximation of the null CDF chooses the
// Hodges-Lehmann interval: the exact coverage of its choice is within 1e-3 of the coverage it
// reports, and at least level - 1e-3. (It is a few order statistics out of 10^4 or more away
// from the exact choice at 99%, where the normal tails are heavier than the true ones.)
func TestNormalCIOrderAgainstExact(t *testing.T) {
	type sized struct {
		name           string
		m              int
		exact          func(q int) float64
		mean, variance float64
	}
	var cases []sized
	for _, n := range []int{maxExactWalshCI + 1, 2 * maxExactWalshCI / 3} {
		fn := float64(n)
		cases = append(cases, sized{fmt.Sprintf("signed rank n=%d", n), n * (n + 1) / 2, pmfCDF(signedRankPMF(n)),
			fn * (fn + 1) / 4, fn * (fn + 1) * (2*fn + 1) / 24})
	}
	for _, sz := range [][2]int{{101, 100}, {60, 170}} {
		fa, fb := float64(sz[0]), float64(sz[1])
		cases = append(cases, sized{fmt.Sprintf("Mann-Whitney %dx%d", sz[0], sz[1]), sz[0] * sz[1],
			pmfCDF(mannWhitneyPMF(sz[0], sz[1])), fa * fb / 2, fa * fb * (fa + fb + 1) / 12})
	}
	for _, c := range cases {
		approx := normalCDF(c.mean, math.Sqrt(c.variance))
		for _, level := range []float64{0.9, 0.95, 0.99} {
			kExact, covExact := ciOrder(c.m, c.exact, level)
			kApprox, covApprox := ciOrder(c.m, approx, level)
			covTrue := 1 - 2*c.exact(kApprox-1)
			if math.Abs(covApprox-covTrue) > 1e-3 || covTrue < level-1e-3 {
				t.Errorf("%s level=%v: normal k=%d (coverage %v, exactly %v), exact k=%d (%v)",
					c.name, level, kApprox, covApprox, covTrue, kExact, covExact)
			}
		}
	}
}

// Beyond the exact sizes the interval still brackets the estimate and is chosen by the
// normal approximation (its coverage is not a ratio of counts).
func TestLargeSampleIntervals(t *testing.T) {
	d := sinSeq(60)
	res, err := WilcoxonSignedRank(d, TwoSided, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || !(res.CILow < res.Estimate && res.Estimate < res.CIHigh) || res.CICoverage < 0.95 || res.CICoverage > 0.96 {
		t.Errorf("n=60: exact=%v HL %v [%v, %v] coverage %v", res.Exact, res.Estimate, res.CILow, res.CIHigh, res.CICoverage)
	}
	a, b := sinSeq(55), make([]float64, 60)
	for i := range b {
		b[i] = math.Cos(0.7*float64(i)) - 0.1
	}
	mw, err := MannWhitney(a, b, Greater, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if mw.Exact || !(mw.CILow < mw.Estimate && mw.Estimate < mw.CIHigh) || mw.CICoverage < 0.95 || mw.CICoverage > 0.96 {
		t.Errorf("55x60: exact=%v HL %v [%v, %v] coverage %v", mw.Exact, mw.Estimate, mw.CILow, mw.CIHigh, mw.CICoverage)
	}
}

// The tests read their inputs only.
func TestInputsUnchanged(t *testing.T) {
	d := []float64{0.3, -1.2, 0, 2.5, 0.7, -0.1, 1.1}
	a, b := []float64{3, 1, 2}, []float64{0.5, 2.5, 1.5, -1}
	data := [][]float64{{3, 1, 2}, {1, 3, 2}, {2, 1, 3}}
	dIn, aIn, bIn := slices.Clone(d), slices.Clone(a), slices.Clone(b)
	var dataIn [][]float64
	for _, row := range data {
		dataIn = append(dataIn, slices.Clone(row))
	}
	if _, err := WilcoxonSignedRank(d, TwoSided, 0.95); err != nil {
		t.Fatal(err)
	}
	if _, err := MannWhitney(a, b, Less, 0.9); err != nil {
		t.Fatal(err)
	}
	if _, err := PageL(data, Greater); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d, dIn) || !slices.Equal(a, aIn) || !slices.Equal(b, bIn) {
		t.Errorf("inputs modified: d %v a %v b %v", d, a, b)
	}
	for i := range data {
		if !slices.Equal(data[i], dataIn[i]) {
			t.Errorf("PageL modified block %d: %v", i, data[i])
		}
	}
}

// The Hodges-Lehmann interval is the inversion of the test: a shift delta just inside it is
// not rejected by the two-sided test of the shifted sample at 1 - coverage (p > 1 -
// coverage), one just outside is (p <= 1 - coverage). The midpoints between consecutive
// Walsh averages (or differences) are neither zeros nor ties of the shifted sample.
func TestHodgesLehmannIsTestInversion(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shifted := func(x []float64, delta float64) []float64 {
		y := make([]float64, len(x))
		for i, v := range x {
			y[i] = v - delta
		}
		return y
	}
	check := func(name string, sorted []float64, res TestResult, pAt func(delta float64) float64) {
		t.Helper()
		k := 1 + sort.SearchFloat64s(sorted, res.CILow) // CILow = sorted[k-1]
		m := len(sorted)
		if sorted[k-1] != res.CILow || sorted[m-k] != res.CIHigh {
			t.Fatalf("%s: interval [%v, %v] is not symmetric in the order statistics", name, res.CILow, res.CIHigh)
		}
		alpha := 1 - res.CICoverage
		inside := []float64{(sorted[k-1] + sorted[k]) / 2, (sorted[m-k-1] + sorted[m-k]) / 2}
		for _, delta := range inside {
			if p := pAt(delta); !(p > alpha) {
				t.Errorf("%s: delta %v inside [%v, %v] has p = %v <= 1 - coverage = %v", name, delta, res.CILow, res.CIHigh, p, alpha)
			}
		}
		if k > 1 {
			for _, delta := range []float64{(sorted[k-2] + sorted[k-1]) / 2, (sorted[m-k] + sorted[m-k+1]) / 2} {
				if p := pAt(delta); p > alpha*(1+1e-12) {
					t.Errorf("%s: delta %v outside [%v, %v] has p = %v > 1 - coverage = %v", name, delta, res.CILow, res.CIHigh, p, alpha)
				}
			}
		}
	}
	for n := 5; n <= 20; n++ {
		d := make([]float64, n)
		for i := range d {
			d[i] = rng.NormFloat64()*2 + 0.5
		}
		res, err := WilcoxonSignedRank(d, TwoSided, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		var walsh []float64
		for i := range d {
			for j := i; j < n; j++ {
				walsh = append(walsh, d[i]+(d[j]-d[i])/2)
			}
		}
		slices.Sort(walsh)
		check(fmt.Sprintf("Wilcoxon n=%d", n), walsh, res, func(delta float64) float64 {
			r, err := WilcoxonSignedRank(shifted(d, delta), TwoSided, 0.9)
			if err != nil || !r.Exact {
				t.Fatalf("Wilcoxon n=%d shifted by %v: exact=%v %v", n, delta, r.Exact, err)
			}
			return r.PValue
		})
	}
	for na := 3; na <= 8; na++ {
		for nb := 3; nb <= 10; nb += 3 {
			a, b := make([]float64, na), make([]float64, nb)
			for i := range a {
				a[i] = rng.NormFloat64() + 1
			}
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			res, err := MannWhitney(a, b, TwoSided, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			var diffs []float64
			for _, x := range a {
				for _, y := range b {
					diffs = append(diffs, x-y)
				}
			}
			slices.Sort(diffs)
			check(fmt.Sprintf("Mann-Whitney %dx%d", na, nb), diffs, res, func(delta float64) float64 {
				r, err := MannWhitney(shifted(a, delta), b, TwoSided, 0.9)
				if err != nil || !r.Exact {
					t.Fatalf("Mann-Whitney %dx%d shifted by %v: exact=%v %v", na, nb, delta, r.Exact, err)
				}
				return r.PValue
			})
		}
	}
}
