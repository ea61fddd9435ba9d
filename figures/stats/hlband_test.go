package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// walshBandSample draws n values a few ulps around some of a few centres of both signs and
// of different binades: the original Walsh averages d[i] + (d[j]-d[i])/2 round d[j]-d[i]
// and then differ from the symmetric (s[p]+s[q])/2 of the selection in the last bit, and
// many averages lie within an ulp of each other, so the k-th original average is often not
// the original value of the pair whose symmetric average is the k-th.
func walshBandSample(rng *rand.Rand, n int, scale float64) []float64 {
	centres := []float64{0.3, -0.7, 1.1 / 3, -2.9, 0.05}
	d := make([]float64, n)
	for i := range d {
		c := centres[rng.IntN(len(centres))] * scale
		for range rng.IntN(9) {
			c = math.Nextafter(c, math.Inf(2*rng.IntN(2)-1))
		}
		d[i] = c
	}
	return d
}

// The selection of the Walsh averages needs the band: every order statistic is the one of
// sorting the averages of the original formula, on samples where the symmetric averages
// order the pairs differently.
func TestWalshSelectionNeedsTheBand(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	moved := 0
	for trial := range 40 {
		scale := math.Ldexp(1, rng.IntN(40)-20)
		n := 10 + rng.IntN(60)
		if trial == 0 {
			scale = 0x1p1019 // near maxWalshSelect
		}
		if trial == 1 {
			scale = 0x1p-1040 // subnormal averages
		}
		d := walshBandSample(rng, n, scale)
		want := refWalsh(d)
		sel := newWalshSelector(d)
		if sel == nil {
			t.Fatalf("trial %d: no selector for max |d| below maxWalshSelect", trial)
		}
		// The symmetric averages, sorted, to count where they disagree with the original.
		sym := make([]float64, 0, len(want))
		s := slices.Clone(d)
		slices.Sort(s)
		for p := range s {
			for q := p; q < len(s); q++ {
				sym = append(sym, s[p]*0.5+s[q]*0.5)
			}
		}
		slices.Sort(sym)
		for r := 1; r <= len(want); r++ {
			if sym[r-1] != want[r-1] {
				moved++
			}
			got, ok := sel.at(r)
			if !ok {
				t.Fatalf("trial %d: rank %d left to the full sort without zeros", trial, r)
			}
			if math.Float64bits(got) != math.Float64bits(want[r-1]) {
				t.Fatalf("trial %d (n %d, scale %g): Walsh average of rank %d is %v, sorted %v", trial, n, scale, r, got, want[r-1])
			}
		}
	}
	if moved == 0 {
		t.Fatal("the samples never order the symmetric averages differently: the test does not reach the band")
	}
}

// The bound behind the band: for every pair, |original - symmetric| is at most half of the
// e walshSelector uses (the other half is the margin for rounding the band's ends), checked
// exactly with big.Float over values of every magnitude below maxWalshSelect.
func TestWalshBandBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	draw := func() float64 {
		var x float64
		switch rng.IntN(4) {
		case 0: // any magnitude below 2^1022
			x = math.Ldexp(1+rng.Float64(), rng.IntN(2096)-1074)
		case 1: // subnormal
			x = float64(rng.IntN(1<<20)) * math.SmallestNonzeroFloat64
		case 2: // a few binades around 1
			x = math.Ldexp(1+rng.Float64(), rng.IntN(8)-4)
		default: // near the limit
			x = math.Ldexp(1+rng.Float64(), 1021)
		}
		if rng.IntN(2) == 0 {
			x = -x
		}
		return x
	}
	exact := func(x float64) *big.Float { return new(big.Float).SetPrec(2200).SetFloat64(x) }
	worst := 0.0
	for trial := range 200000 {
		di, dj := draw(), draw()
		if trial%3 == 0 { // close values, whose difference is small
			dj = math.Nextafter(di, math.Inf(1))
		}
		maxAbs := max(math.Abs(di), math.Abs(dj))
		if maxAbs >= maxWalshSelect {
			continue
		}
		orig := di + (dj-di)/2
		lo, hi := min(di, dj), max(di, dj)
		sym := lo*0.5 + hi*0.5
		if math.IsInf(orig, 0) || math.IsNaN(orig) {
			t.Fatalf("d_i %v, d_j %v: original average %v", di, dj, orig)
		}
		e := maxAbs*0x1p-50 + 0x1p-1070
		diff := new(big.Float).SetPrec(2200).Sub(exact(orig), exact(sym))
		diff.Abs(diff)
		limit := exact(e)
		limit.Quo(limit, exact(2))
		if diff.Cmp(limit) > 0 {
			t.Fatalf("d_i %v, d_j %v: |original %v - symmetric %v| exceeds e/2 = %v", di, dj, orig, sym, e/2)
		}
		if r, _ := new(big.Float).Quo(diff, exact(e)).Float64(); r > worst {
			worst = r
		}
	}
	if worst == 0 {
		t.Fatal("the original and symmetric averages never differed: the test draws nothing it checks")
	}
	t.Logf("largest |original - symmetric| / e: %.3g", worst)
}
