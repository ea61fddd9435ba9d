package stats

import (
	"math"
	"testing"
)

// Far tails of the normal approximation: a p-value below 1e-16 must not round to 0.
// References: scipy 1.10 scipy.stats.page_trend_test(data) for data[i][j] = j + 0.4*((i*j) % 3),
// 30 blocks, 4 treatments (L = 900, asymptotic); scipy.stats.norm.sf(8.66) and
// scipy.stats.norm.cdf(-10).
func TestNormalTailsDoNotUnderflow(t *testing.T) {
	data := make([][]float64, 30)
	for i := range data {
		data[i] = make([]float64, 4)
		for j := range data[i] {
			data[i][j] = float64(j) + 0.4*float64((i*j)%3)
		}
	}
	res, err := PageL(data, Greater)
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.Statistic != 900 || math.Abs(res.PValue-1.1908000821981406e-21) > 1e-6*1.1908000821981406e-21 {
		t.Errorf("PageL: L = %v, exact %v, p = %v; want 900, asymptotic, 1.1908000821981406e-21", res.Statistic, res.Exact, res.PValue)
	}
	for _, c := range []struct {
		z    float64
		alt  Alternative
		want float64
	}{{8.66, Greater, 2.3588213096872126e-18}, {-10, Less, 7.61985302416047e-24}, {-8.66, TwoSided, 2 * 2.3588213096872126e-18}} {
		if got := normalP(c.z, c.alt); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("normalP(%v, %v) = %v, want %v", c.z, c.alt, got, c.want)
		}
	}
}
