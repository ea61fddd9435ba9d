package stats

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refShiftCI is shiftCI as it was before the selection: every difference materialised and
// sorted. It is the reference the selection must match bit for bit.
func refShiftCI(a, b []float64, level float64, pmf []float64) (est, lo, hi, coverage float64) {
	diffs := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			diffs = append(diffs, x-y)
		}
	}
	slices.Sort(diffs)
	est = sortedMedian(diffs)
	na, nb := len(a), len(b)
	if pmf == nil && (min(na, nb) <= maxExactMannWhitney || na*nb <= maxExactShiftCIPairs) {
		pmf = mannWhitneyPMF(na, nb)
	}
	var cdf func(q int) float64
	if pmf != nil {
		cdf = pmfCDF(pmf)
	} else {
		fa, fb := float64(na), float64(nb)
		cdf = normalCDF(fa*fb/2, math.Sqrt(fa*fb*(fa+fb+1)/12))
	}
	k, coverage := ciOrder(len(diffs), cdf, level)
	return est, diffs[k-1], diffs[len(diffs)-k], coverage
}

// refWalsh returns every Walsh average by the original formula, in input order, sorted.
func refWalsh(d []float64) []float64 {
	n := len(d)
	walsh := make([]float64, 0, n*(n+1)/2)
	for i := range d {
		for j := i; j < n; j++ {
			walsh = append(walsh, d[i]+(d[j]-d[i])/2)
		}
	}
	slices.Sort(walsh)
	return walsh
}

// refWalshCI is walshCI as it was before the selection.
func refWalshCI(d []float64, level float64) (est, lo, hi, coverage float64) {
	n := len(d)
	walsh := refWalsh(d)
	est = sortedMedian(walsh)
	var cdf func(q int) float64
	if n <= maxExactWalshCI {
		cdf = pmfCDF(signedRankPMF(n))
	} else {
		nf := float64(n)
		cdf = normalCDF(nf*(nf+1)/4, math.Sqrt(nf*(nf+1)*(2*nf+1)/24))
	}
	k, coverage := ciOrder(len(walsh), cdf, level)
	return est, walsh[k-1], walsh[len(walsh)-k], coverage
}

// sameBits reports whether two 4-tuples are equal bit for bit (a NaN equals the same NaN).
func sameBits(got, want [4]float64) bool {
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return false
		}
	}
	return true
}

// checkShift compares shiftCI with the reference, and every order statistic the selection
// gives with the sorted differences when there are few enough of them.
func checkShift(t *testing.T, name string, a, b []float64, level float64) {
	t.Helper()
	e, l, h, c := shiftCI(a, b, level, nil)
	re, rl, rh, rc := refShiftCI(a, b, level, nil)
	if got, want := [4]float64{e, l, h, c}, [4]float64{re, rl, rh, rc}; !sameBits(got, want) {
		t.Errorf("%s: shiftCI %v, sorting every difference %v", name, got, want)
	}
	m := len(a) * len(b)
	if m > 2000 {
		return
	}
	diffs := make([]float64, 0, m)
	for _, x := range a {
		for _, y := range b {
			diffs = append(diffs, x-y)
		}
	}
	slices.Sort(diffs)
	sel := newDiffSelector(a, b)
	for r := 1; r <= m; r++ {
		if v, ok := sel.at(r); ok && math.Float64bits(v) != math.Float64bits(diffs[r-1]) {
			t.Errorf("%s: difference of rank %d is %v, sorted %v", name, r, v, diffs[r-1])
			return
		}
	}
}

// checkWalsh is checkShift for walshCI.
func checkWalsh(t *testing.T, name string, d []float64, level float64) {
	t.Helper()
	e, l, h, c := walshCI(d, level)
	re, rl, rh, rc := refWalshCI(d, level)
	if got, want := [4]float64{e, l, h, c}, [4]float64{re, rl, rh, rc}; !sameBits(got, want) {
		t.Errorf("%s: walshCI %v, sorting every average %v", name, got, want)
	}
	m := len(d) * (len(d) + 1) / 2
	if m > 2000 {
		return
	}
	sel := newWalshSelector(d)
	if sel == nil {
		return
	}
	walsh := refWalsh(d)
	for r := 1; r <= m; r++ {
		if v, ok := sel.at(r); ok && math.Float64bits(v) != math.Float64bits(walsh[r-1]) {
			t.Errorf("%s: Walsh average of rank %d is %v, sorted %v", name, r, v, walsh[r-1])
			return
		}
	}
}

func TestHodgesLehmannSelectionTable(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name string
		a, b []float64
	}{
		{"one each", []float64{1.5}, []float64{-0.25}},
		{"one and two", []float64{3}, []float64{1, 2}},
		{"two and one", []float64{0.1, 0.7}, []float64{0.3}},
		{"two each", []float64{0.1, 0.2}, []float64{0.3, 0.4}},
		{"all equal", []float64{1, 1, 1}, []float64{1, 1}},
		{"all zero", []float64{0, 0, 0, 0}, []float64{0, 0, 0}},
		{"heavy ties", []float64{0, 1, 1, 1, 2, 2, 0, 1}, []float64{1, 1, 0, 2, 1, 1, 1}},
		{"negative", []float64{-3, -1.25, -7, -0.5, -2}, []float64{-1, -4, -0.75}},
		{"magnitudes", []float64{1e-300, -1e300, 3.5e-20, 7e12, -2.5e-310}, []float64{1e300, -1e-300, 0, 5e-324, 4e15}},
		{"overflowing differences", []float64{1.7e308, -1.7e308, 1, 1e308}, []float64{-1.7e308, 1.7e308, 2}},
		{"one ulp apart", []float64{1, math.Nextafter(1, 2), math.Nextafter(1, 0), 1}, []float64{math.Nextafter(1, 2), 1, 1}},
		{"subnormals", []float64{tiny, 3 * tiny, -tiny, 0}, []float64{tiny, -2 * tiny, 0}},
		{"negative zeros", []float64{negZero, negZero, 1}, []float64{negZero, negZero}},
		{"mixed zeros", []float64{negZero, 0, negZero, 1, -1}, []float64{0, negZero, 0}},
		{"minus zero less zeros", []float64{negZero, negZero, negZero}, []float64{0, 0, 0, 1}},
	}
	for _, c := range cases {
		for _, level := range []float64{0.5, 0.8, 0.95, 0.99} {
			name := fmt.Sprintf("%s level %v", c.name, level)
			checkShift(t, name, c.a, c.b, level)
			checkShift(t, name+" swapped", c.b, c.a, level)
			checkWalsh(t, name+" walsh a", c.a, level)
			checkWalsh(t, name+" walsh b", c.b, level)
			checkWalsh(t, name+" walsh both", slices.Concat(c.a, c.b), level)
		}
	}
}

// sample draws n values of the given kind.
func sample(rng *rand.Rand, kind string, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch kind {
		case "normal":
			x[i] = rng.NormFloat64()*2 + 0.3
		case "negative":
			x[i] = -math.Abs(rng.NormFloat64()) - 0.5
		case "ties":
			x[i] = float64(rng.IntN(5)-2) * 0.5
		case "zeros":
			x[i] = float64(rng.IntN(3) - 1)
			if x[i] == 0 && rng.IntN(2) == 0 {
				x[i] = math.Copysign(0, -1)
			}
		case "ulps":
			// A few values a few ulps apart, where the order of evaluation shows.
			x[i] = 0.1 + float64(rng.IntN(7)-3)*0x1p-56
			if rng.IntN(2) == 0 {
				x[i] = -x[i]
			}
		case "magnitudes":
			x[i] = math.Pow(10, rng.Float64()*600-300)
			if rng.IntN(2) == 0 {
				x[i] = -x[i]
			}
		case "huge":
			x[i] = (rng.Float64()*2 - 1) * math.MaxFloat64
		case "subnormal":
			x[i] = float64(rng.IntN(9)-4) * math.SmallestNonzeroFloat64
		default:
			panic(kind)
		}
	}
	return x
}

var sampleKinds = []string{"normal", "negative", "ties", "zeros", "ulps", "magnitudes", "huge", "subnormal"}

func TestHodgesLehmannSelectionRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	sizes := []int{1, 2, 3, 5, 8, 9, 17, 40, 63}
	if !testing.Short() {
		sizes = append(sizes, 150, 301)
	}
	for _, kind := range sampleKinds {
		for _, n := range sizes {
			for _, level := range []float64{0.8, 0.95} {
				d := sample(rng, kind, n)
				checkWalsh(t, fmt.Sprintf("%s n=%d level %v", kind, n, level), d, level)
				b := sample(rng, sampleKinds[rng.IntN(len(sampleKinds))], max(1, n*2/3+rng.IntN(5)-2))
				checkShift(t, fmt.Sprintf("%s %dx%d level %v", kind, n, len(b), level), d, b, level)
			}
		}
	}
}

// A mixture: many ties at one value with continuous values around, so that the band of
// the Walsh selection holds many pairs, and shifted samples where many differences are zero.
func TestHodgesLehmannSelectionHeavyTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{10, 60, 250} {
		d := make([]float64, n)
		for i := range d {
			if rng.IntN(3) > 0 {
				d[i] = 0.25
			} else {
				d[i] = rng.NormFloat64()
			}
		}
		checkWalsh(t, fmt.Sprintf("tied n=%d", n), d, 0.95)
		b := slices.Clone(d)
		rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		checkShift(t, fmt.Sprintf("tied %dx%d", n, n), d, b[:n-3], 0.95)
	}
}

// The selection and its fallback: the huge values and the mixed zeros above reach the
// fallback, and the ordinary samples do not.
func TestHodgesLehmannSelectionFallback(t *testing.T) {
	if newWalshSelector([]float64{1, 2, -0x1p1022}) != nil {
		t.Error("a value of 2^1022 should leave the Walsh averages to the full sort")
	}
	if newWalshSelector([]float64{1, 2, -0x1p1021}) == nil {
		t.Error("values below 2^1022 should be selected")
	}
	negZero := math.Copysign(0, -1)
	if _, ok := newDiffSelector([]float64{negZero, 1}, []float64{0, 1}).at(2); ok {
		t.Error("a zero difference beside differences of -0 and +0 should be left to the full sort")
	}
	if v, ok := newDiffSelector([]float64{negZero, 1}, []float64{negZero, 1}).at(2); !ok || v != 0 || math.Signbit(v) {
		t.Errorf("differences 0, 1, -1, 0 (no -0): rank 2 gives %v (exact %v), want +0", v, ok)
	}
	if _, ok := newWalshSelector([]float64{negZero, -math.SmallestNonzeroFloat64, 0}).at(3); ok {
		t.Error("a zero average beside averages of -0 and +0 should be left to the full sort")
	}
}

// FuzzHodgesLehmannSelection reads finite float64 values from the input bytes, splits them
// in two samples and compares both intervals with sorting every pair.
func FuzzHodgesLehmannSelection(f *testing.F) {
	enc := func(split byte, level byte, x ...float64) []byte {
		b := []byte{split, level}
		for _, v := range x {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	f.Add(enc(2, 200, 1, 2, 3, 4, 5))
	f.Add(enc(1, 128, 0, math.Copysign(0, -1), 0, 1, -1))
	f.Add(enc(3, 250, 0.1, 0.1+0x1p-55, -0.1, 1e300, -1e-300, 5e-324))
	f.Add(enc(2, 10, 1.7e308, -1.7e308, 1, 2))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		split, level := int(data[0]), 0.01+0.98*float64(data[1])/255
		var x []float64
		for b := data[2:]; len(b) >= 8 && len(x) < 200; b = b[8:] {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b))
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				x = append(x, v)
			}
		}
		if len(x) == 0 {
			return
		}
		checkWalsh(t, "fuzz", x, level)
		if s := split % len(x); s > 0 {
			checkShift(t, "fuzz", x[:s], x[s:], level)
		}
	})
}
