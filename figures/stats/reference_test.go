package stats

import (
	"math"
	"testing"
)

// The reference values in this file were produced with /usr/bin/python3 and scipy 1.10.1
// (Debian's python3-scipy); each table names the call. Exact p-values are asserted to a
// relative error of 1e-9 and normal approximations to 1e-8 (stricter than the 1e-6 and 1e-3
// the verdicts need: both sides evaluate the same formula).

const (
	exactTol  = 1e-9
	approxTol = 1e-8
)

// closeRel reports whether got is within relative error tol of want.
func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// sinSeq returns sin(1.3 i) + 0.2 for i = 1..n (no ties among the absolute values for n <= 60;
// the smallest gap is 4.75e-5).
func sinSeq(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Sin(1.3*float64(i+1)) + 0.2
	}
	return d
}

type pRef struct {
	alt  Alternative
	stat float64 // T+, U of a, or L
	p    float64
}

func TestWilcoxonSignedRankScipy(t *testing.T) {
	allPos20 := make([]float64, 20)
	for i := range allPos20 {
		allPos20[i] = 0.1*float64(i+1) + 0.05
	}
	cases := []struct {
		name  string
		d     []float64
		n     int
		exact bool
		// Reference: scipy.stats.wilcoxon(D, zero_method="wilcox", correction=False,
		// alternative=ALT, method=METHOD) with D = d[d != 0] and METHOD = "exact" when exact,
		// D = d and METHOD = "approx" otherwise. scipy reports min(T+, T-) as the two-sided
		// statistic; stat below is T+ (scipy's one-sided statistic).
		refs []pRef
	}{
		{"exact n=10", []float64{0.8, -0.3, 1.2, 2.5, -0.7, 0.4, 1.9, -1.1, 0.6, 3.0}, 10, true,
			[]pRef{{TwoSided, 44, 0.10546875}, {Less, 44, 0.9580078125}, {Greater, 44, 0.052734375}}},
		{"zeros dropped, exact", []float64{0, 1.5, -0.2, 0, 2.2, 0.9, -0.6, 1.4, 3.1}, 7, true,
			[]pRef{{TwoSided, 25, 0.078125}, {Less, 25, 0.9765625}, {Greater, 25, 0.0390625}}},
		{"ties, normal", []float64{1, -1, 2, 2, 3, -0.5, 4, 5, 1.5, -2}, 10, false,
			[]pRef{{TwoSided, 45.5, 0.06566319190946493}, {Less, 45.5, 0.9671684040452675}, {Greater, 45.5, 0.032831595954732465}}},
		{"ties and zeros, normal", []float64{1, -1, 2, 0, 2, 3, -0.5, 0, 4, 5, 1.5, -2}, 10, false,
			[]pRef{{TwoSided, 45.5, 0.06566319190946493}, {Less, 45.5, 0.9671684040452675}, {Greater, 45.5, 0.032831595954732465}}},
		{"n=1", []float64{2}, 1, true,
			[]pRef{{TwoSided, 1, 1}, {Less, 1, 1}, {Greater, 1, 0.5}}},
		{"n=2", []float64{2, -1}, 2, true,
			[]pRef{{TwoSided, 2, 1}, {Less, 2, 0.75}, {Greater, 2, 0.5}}},
		{"n=3", []float64{-0.5, 2, 1}, 3, true,
			[]pRef{{TwoSided, 5, 0.5}, {Less, 5, 0.875}, {Greater, 5, 0.25}}},
		{"centre, two-sided p = 1", []float64{1, -2, -3, 4}, 4, true,
			[]pRef{{TwoSided, 5, 1}, {Less, 5, 0.5625}, {Greater, 5, 0.5625}}},
		{"all positive n=20", allPos20, 20, true,
			[]pRef{{TwoSided, 210, 1.9073486328125e-06}, {Less, 210, 1}, {Greater, 210, 9.5367431640625e-07}}},
		{"n=50 exact", sinSeq(50), 50, true,
			[]pRef{{TwoSided, 867, 0.02616696817119646}, {Less, 867, 0.9872499584101826}, {Greater, 867, 0.01308348408559823}}},
		{"n=51 normal", sinSeq(51), 51, false,
			[]pRef{{TwoSided, 894, 0.03036694960820756}, {Less, 894, 0.9848165251958962}, {Greater, 894, 0.01518347480410378}}},
		{"n=60 normal", sinSeq(60), 60, false,
			[]pRef{{TwoSided, 1239, 0.017071723791291522}, {Less, 1239, 0.9914641381043542}, {Greater, 1239, 0.008535861895645761}}},
	}
	for _, c := range cases {
		for _, r := range c.refs {
			res, err := WilcoxonSignedRank(c.d, r.alt, 0.95)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, r.alt, err)
			}
			tol := approxTol
			if c.exact {
				tol = exactTol
			}
			if res.N != c.n || res.Exact != c.exact || res.Statistic != r.stat || !closeRel(res.PValue, r.p, tol) {
				t.Errorf("%s %v: got N=%d exact=%v T+=%v p=%.17g, want N=%d exact=%v T+=%v p=%.17g",
					c.name, r.alt, res.N, res.Exact, res.Statistic, res.PValue, c.n, c.exact, r.stat, r.p)
			}
		}
	}
}

func TestMannWhitneyScipy(t *testing.T) {
	b3x15 := make([]float64, 15)
	for i := range b3x15 {
		b3x15[i] = 0.1*float64(i) + 0.03
	}
	a12, b10 := make([]float64, 12), make([]float64, 10)
	for i := range a12 {
		a12[i] = math.Cos(1.1 * float64(i))
	}
	for i := range b10 {
		b10[i] = math.Cos(1.7*float64(i)+0.3) - 0.4
	}
	cases := []struct {
		name  string
		a, b  []float64
		exact bool
		// Reference: scipy.stats.mannwhitneyu(a, b, use_continuity=False, alternative=ALT,
		// method="auto"), U is its statistic (U of a).
		refs []pRef
	}{
		{"exact 5x7", []float64{1.1, 2.3, 0.4, 3.8, 2.9}, []float64{0.2, 1.7, 0.9, 1.3, 0.5, 2.0, 0.1}, true,
			[]pRef{{TwoSided, 27, 0.148989898989899}, {Less, 27, 0.9469696969696968}, {Greater, 27, 0.0744949494949495}}},
		{"exact 3x15", []float64{0.35, 1.7, 2.45}, b3x15, true,
			[]pRef{{TwoSided, 34, 0.20343137254901963}, {Less, 34, 0.917892156862745}, {Greater, 34, 0.10171568627450982}}},
		{"ties, normal", []float64{1, 2, 2, 3, 3, 3}, []float64{2, 3, 4, 4, 5, 1, 6}, false,
			[]pRef{{TwoSided, 11, 0.14400361170115486}, {Less, 11, 0.07200180585057743}, {Greater, 11, 0.9279981941494225}}},
		{"normal 12x10", a12, b10, false,
			[]pRef{{TwoSided, 81, 0.1661445267950824}, {Less, 81, 0.9169277366024589}, {Greater, 81, 0.0830722633975412}}},
		{"centre 2x2", []float64{1, 4}, []float64{2, 3}, true,
			[]pRef{{TwoSided, 2, 1}, {Less, 2, 0.6666666666666666}, {Greater, 2, 0.6666666666666666}}},
		{"n=1+1", []float64{2}, []float64{1}, true,
			[]pRef{{TwoSided, 1, 1}, {Less, 1, 1}, {Greater, 1, 0.5}}},
		// R's ?wilcox.test example (Hollander and Wolfe): W = 35, p = 0.1272 for "greater".
		{"R example 10x5", []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46},
			[]float64{1.15, 0.88, 0.90, 0.74, 1.21}, true,
			[]pRef{{TwoSided, 35, 0.2544122544122544}, {Less, 35, 0.8967698967698966}, {Greater, 35, 0.1272061272061272}}},
	}
	for _, c := range cases {
		for _, r := range c.refs {
			res, err := MannWhitney(c.a, c.b, r.alt, 0.95)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, r.alt, err)
			}
			tol := approxTol
			if c.exact {
				tol = exactTol
			}
			if res.N != len(c.a)+len(c.b) || res.Exact != c.exact || res.Statistic != r.stat || !closeRel(res.PValue, r.p, tol) {
				t.Errorf("%s %v: got N=%d exact=%v U=%v p=%.17g, want exact=%v U=%v p=%.17g",
					c.name, r.alt, res.N, res.Exact, res.Statistic, res.PValue, c.exact, r.stat, r.p)
			}
		}
	}
}

func TestPageLScipy(t *testing.T) {
	grid := func(n, k int, f func(i, j float64) float64) [][]float64 {
		data := make([][]float64, n)
		for i := range data {
			data[i] = make([]float64, k)
			for j := range data[i] {
				data[i][j] = f(float64(i), float64(j))
			}
		}
		return data
	}
	cases := []struct {
		name  string
		data  [][]float64
		exact bool
		// Reference: scipy.stats.page_trend_test(data, method="auto") gives L and pG;
		// page_trend_test(data[:, ::-1]) gives pL (the Less p-value).
		l, pG, pL float64
	}{
		{"exact 4x3", [][]float64{{1.0, 2.1, 2.0}, {0.5, 0.9, 1.7}, {2.2, 2.4, 3.1}, {0.3, 0.2, 0.9}}, true,
			54, 0.02546296296296296, 0.9930555555555555},
		{"exact 10x5", grid(10, 5, func(i, j float64) float64 { return math.Sin(3.1*i+j) + 0.3*j }), true,
			496, 0.001612231967411155, 0.9987171296431242},
		{"exact with ties", [][]float64{{1, 1, 2}, {2, 1, 3}, {1, 2, 2}, {3, 3, 3}, {0, 1, 1}}, true,
			65.5, 0.0794753086419753, 0.9818672839506171},
		{"exact 20x3", grid(20, 3, func(i, j float64) float64 { return math.Sin(1.9*i+2.9*j) + 0.15*j }), true,
			250, 0.06680378917558198, 0.9516030806169133},
		{"exact 12x8 (largest k)", grid(12, 8, func(i, j float64) float64 { return math.Sin(1.3*i+0.9*j) + 0.12*j }), true,
			2064, 0.014592156393580696, 0.9860826694732742},
		{"exact 12x4", grid(12, 4, func(i, j float64) float64 { return math.Sin(1.9*i+2.9*j) + 0.15*j }), true,
			313, 0.10691758353237094, 0.9105191464615169},
		{"normal 21x3", grid(21, 3, func(i, j float64) float64 { return math.Sin(1.9*i+2.9*j) + 0.15*j }), false,
			261, 0.08245741127665074, 0.9175425887233493},
		{"normal 13x4", grid(13, 4, func(i, j float64) float64 { return math.Sin(1.9*i+2.9*j) + 0.15*j }), false,
			340, 0.07477067729230753, 0.9252293227076924},
		{"normal 25x4", grid(25, 4, func(i, j float64) float64 { return math.Cos(2.3*i+1.7*j) + 0.2*j }), false,
			648, 0.055525520002023994, 0.944474479997976},
		{"normal 3x9", grid(3, 9, func(i, j float64) float64 { return math.Sin(0.7*i*j+i) + 0.1*j }), false,
			740, 0.038440602454352636, 0.9615593975456473},
	}
	for _, c := range cases {
		tol := approxTol
		if c.exact {
			tol = exactTol
		}
		for _, r := range []pRef{{Greater, c.l, c.pG}, {Less, c.l, c.pL}, {TwoSided, c.l, math.Min(1, 2*math.Min(c.pG, c.pL))}} {
			res, err := PageL(c.data, r.alt)
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, r.alt, err)
			}
			if res.N != len(c.data) || res.Exact != c.exact || res.Statistic != r.stat || !closeRel(res.PValue, r.p, tol) {
				t.Errorf("%s %v: got N=%d exact=%v L=%v p=%.17g, want exact=%v L=%v p=%.17g",
					c.name, r.alt, res.N, res.Exact, res.Statistic, res.PValue, c.exact, r.stat, r.p)
			}
			if !math.IsNaN(res.Estimate) || !math.IsNaN(res.CILow) || !math.IsNaN(res.CIHigh) || !math.IsNaN(res.CICoverage) {
				t.Errorf("%s: PageL reports an estimate %v [%v, %v] %v; want NaN", c.name, res.Estimate, res.CILow, res.CIHigh, res.CICoverage)
			}
		}
	}
}

func TestMedianCIBinomial(t *testing.T) {
	// Reference: for each n, the largest l <= n/2 with 1 - 2*scipy.stats.binom.cdf(l-1, n, 0.5)
	// >= level (l = 1 when none), and that coverage, scipy 1.10.1.
	cases := []struct {
		level float64
		n, l  int
		cov   float64
	}{
		{0.95, 1, 1, 0.0}, {0.95, 2, 1, 0.5}, {0.95, 3, 1, 0.75}, {0.95, 5, 1, 0.9375},
		{0.95, 6, 1, 0.96875}, {0.95, 7, 1, 0.984375}, {0.95, 8, 1, 0.9921875},
		{0.95, 9, 2, 0.9609375}, {0.95, 10, 2, 0.978515625}, {0.95, 11, 2, 0.98828125},
		{0.95, 12, 3, 0.96142578125}, {0.95, 20, 6, 0.9586105346679688},
		{0.95, 40, 14, 0.9615226917157997}, {0.95, 41, 14, 0.9724668441704125},
		{0.95, 100, 40, 0.9647997997822951},
		{0.9, 1, 1, 0.0}, {0.9, 2, 1, 0.5}, {0.9, 3, 1, 0.75}, {0.9, 5, 1, 0.9375},
		{0.9, 6, 1, 0.96875}, {0.9, 7, 1, 0.984375}, {0.9, 8, 2, 0.9296875},
		{0.9, 9, 2, 0.9609375}, {0.9, 10, 2, 0.978515625}, {0.9, 11, 3, 0.9345703125},
		{0.9, 12, 3, 0.96142578125}, {0.9, 20, 6, 0.9586105346679688},
		{0.9, 40, 15, 0.9193095322480076}, {0.9, 41, 15, 0.9404161119819037},
		{0.9, 100, 42, 0.9113739198859323},
	}
	for _, c := range cases {
		// x = n, n-1, ..., 1 scaled by 10: the order statistic x_(i) is 10 i.
		x := make([]float64, c.n)
		for i := range x {
			x[i] = 10 * float64(c.n-i)
		}
		lo, hi, cov := MedianCI(x, c.level)
		wantLo, wantHi := 10*float64(c.l), 10*float64(c.n+1-c.l)
		if lo != wantLo || hi != wantHi || math.Abs(cov-c.cov) > 1e-12 {
			t.Errorf("MedianCI(n=%d, %v) = [%v, %v] coverage %.17g, want [%v, %v] coverage %.17g",
				c.n, c.level, lo, hi, cov, wantLo, wantHi, c.cov)
		}
	}
}
