package plotting

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot"
)

// The constructors refuse what they cannot draw honestly, and a valid band spans its
// interval.
func TestPlotterConstructorsValidate(t *testing.T) {
	c := color.Black
	good := band{X: []float64{1, 2}, Median: []float64{1, 2}, Lo: []float64{0.5, 1.5}, Hi: []float64{1.5, 3}, Seeds: 5}
	for name, b := range map[string]band{
		"empty":             {Seeds: 3},
		"short median":      {X: []float64{1, 2}, Median: []float64{1}, Lo: []float64{0, 1}, Hi: []float64{2, 3}, Seeds: 3},
		"median outside CI": {X: []float64{1}, Median: []float64{5}, Lo: []float64{0}, Hi: []float64{1}, Seeds: 3},
		"NaN":               {X: []float64{1}, Median: []float64{math.NaN()}, Lo: []float64{0}, Hi: []float64{1}, Seeds: 3},
		"no seeds":          {X: []float64{1}, Median: []float64{1}, Lo: []float64{1}, Hi: []float64{1}},
	} {
		if _, err := newMedianBand(b, c, solid); err == nil {
			t.Errorf("NewMedianBand accepted a band with %s", name)
		}
	}
	mb, err := newMedianBand(good, c, dashed)
	if err != nil {
		t.Fatal(err)
	}
	if xmin, xmax, ymin, ymax := mb.DataRange(); xmin != 1 || xmax != 2 || ymin != 0.5 || ymax != 3 {
		t.Errorf("band range %v %v %v %v, want the interval's [1, 2] x [0.5, 3]", xmin, xmax, ymin, ymax)
	}
	for name, pts := range map[string][]medianCI{
		"no points":         nil,
		"median outside CI": {{x: 1, median: 2, lo: 0, hi: 1}},
		"Inf":               {{x: math.Inf(1), median: 1, lo: 0, hi: 2}},
	} {
		if _, err := newMedianPoints(pts, c, solid); err == nil {
			t.Errorf("NewMedianPoints accepted %s", name)
		}
	}
	mp, err := newMedianPoints([]medianCI{{x: 1, median: 1, lo: 0, hi: 4}, {x: 3, median: 2, lo: 1, hi: 2}}, c, solid)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ymin, ymax := mp.DataRange(); ymin != 0 || ymax != 4 {
		t.Errorf("points' y range [%v, %v], want the intervals' [0, 4]", ymin, ymax)
	}
	var _ plot.GlyphBoxer = mp
	var _ plot.GlyphBoxer = mb
}
