package optimum

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// bowl is a per-user quadratic: user i's loss is |theta - c_i|^2 with the centres c_i
// spread around centre, so f(theta) = |theta - centre|^2 + spread (minimum at centre).
type bowl struct {
	centre, lo, hi []float64
	offsets        []float64
	evals          int
	fail           bool
}

func (b *bowl) Dim() int                   { return len(b.centre) }
func (b *bowl) Bounds() (lo, hi []float64) { return b.lo, b.hi }
func (b *bowl) Users() int                 { return len(b.offsets) }
func (b *bowl) Losses(theta, dst []float64) error {
	b.evals++
	if b.fail && b.evals > 5 {
		return errors.New("solver diverged")
	}
	for i, o := range b.offsets {
		s := 0.0
		for j, t := range theta {
			if t < b.lo[j] || t > b.hi[j] {
				return errors.New("theta outside the box")
			}
			r := t - b.centre[j] - o
			s += r * r
		}
		dst[i] = s
	}
	return nil
}

func newBowl(centre []float64) *bowl {
	d := len(centre)
	b := &bowl{centre: centre, lo: make([]float64, d), hi: make([]float64, d), offsets: []float64{-0.1, 0, 0.1}}
	for j := range b.lo {
		b.lo[j], b.hi[j] = -2, 3
	}
	return b
}

// minimum is f at the point of the box nearest to centre (the offsets average out).
func (b *bowl) minimum() float64 {
	f := 0.0
	for j, c := range b.centre {
		p := math.Min(math.Max(c, b.lo[j]), b.hi[j])
		f += (p - c) * (p - c)
	}
	spread := 0.0
	for _, o := range b.offsets {
		spread += o * o
	}
	return f + float64(len(b.centre))*spread/float64(len(b.offsets))
}

func TestSearchFindsInteriorAndBoundaryMinima(t *testing.T) {
	for _, tc := range []struct {
		name   string
		centre []float64
	}{
		{"interior", []float64{0.3, -1.2, 2.5, 0}},
		{"beyond the upper bound", []float64{0.3, 4, 1}},
		{"beyond the lower bound", []float64{-5, 0.5}},
	} {
		b := newBowl(tc.centre)
		res, err := Search(context.Background(), b, Config{RandomStarts: 2, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Evals != b.evals || res.Starts != 3+2 || res.Found == "" {
			t.Errorf("%s: %d evaluations (objective counted %d), %d starts, found by %q", tc.name, res.Evals, b.evals, res.Starts, res.Found)
		}
		if gap := res.F - b.minimum(); gap < 0 || gap > 1e-4 {
			t.Errorf("%s: f* = %v, true minimum %v (gap %v)", tc.name, res.F, b.minimum(), gap)
		}
		// f* is the mean loss at the returned theta, which lies in the box.
		losses := make([]float64, b.Users())
		if err := b.Losses(res.Theta, losses); err != nil {
			t.Fatalf("%s: theta %v: %v", tc.name, res.Theta, err)
		}
		if m := (losses[0] + losses[1] + losses[2]) / 3; m != res.F {
			t.Errorf("%s: f(theta) = %v, reported f* = %v", tc.name, m, res.F)
		}
		if !strings.Contains(res.Describe(Config{RandomStarts: 2}), "2 uniform") {
			t.Errorf("%s: description %q", tc.name, res.Describe(Config{RandomStarts: 2}))
		}
	}
}

func TestSearchKeepsBestStartAndCapsEvaluations(t *testing.T) {
	b := newBowl([]float64{1, 1, 1})
	best := []float64{1, 1, 1}
	res, err := Search(context.Background(), b, Config{Starts: []Start{{Name: "known optimum", Theta: best}},
		BoxStarts: []float64{}, RandomStarts: -1, StartEvals: 30, PolishEvals: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.F > b.minimum()+1e-15 || res.Found != "known optimum" {
		t.Errorf("f* = %v found by %q; the start was the optimum %v", res.F, res.Found, b.minimum())
	}
	// The start's value, its local search and one sweep of bound snapping (2d).
	if res.Evals > 1+30+2*3 {
		t.Errorf("%d evaluations with a cap of 30 per start", res.Evals)
	}
}

func TestSearchErrors(t *testing.T) {
	b := newBowl([]float64{0, 0})
	b.fail = true
	if _, err := Search(context.Background(), b, Config{Seed: 1}); err == nil || !strings.Contains(err.Error(), "solver diverged") {
		t.Errorf("evaluation error: got %v", err)
	}
	b = newBowl([]float64{0, 0})
	for _, cfg := range []Config{
		{Starts: []Start{{Name: "short", Theta: []float64{0}}}},
		{Starts: []Start{{Name: "outside", Theta: []float64{0, 9}}}},
		{BoxStarts: []float64{1.5}},
	} {
		if _, err := Search(context.Background(), b, cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, b, Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

func TestGridAndCMAESImproveWithoutLBFGS(t *testing.T) {
	// One evaluation per start leaves the work to the later stages.
	base := Config{BoxStarts: []float64{0.5}, RandomStarts: -1, StartEvals: 1, PolishEvals: -1, Seed: 3}

	b := newBowl([]float64{1, -1}) // both on the 6-point grid of [-2, 3]
	grid := base
	grid.GridSweeps, grid.GridPoints = 3, 6
	res, err := Search(context.Background(), b, grid)
	if err != nil {
		t.Fatal(err)
	}
	if res.F != b.minimum() || res.Found != "coordinate grid" {
		t.Errorf("grid: f* = %v found by %q, want the minimum %v on the grid", res.F, res.Found, b.minimum())
	}

	b = newBowl([]float64{0.3, -1.2, 2.5})
	cma := base
	cma.CMAEvals = 3000
	res, err = Search(context.Background(), b, cma)
	if err != nil {
		t.Fatal(err)
	}
	if gap := res.F - b.minimum(); gap < 0 || gap > 1e-3 || res.Found != "CMA-ES" {
		t.Errorf("CMA-ES: f* = %v found by %q, minimum %v", res.F, res.Found, b.minimum())
	}
}

func TestScreenStartsFromTheBestUniformPoint(t *testing.T) {
	b := newBowl([]float64{0.5, 1.5})
	res, err := Search(context.Background(), b, Config{Screen: 200, BoxStarts: []float64{}, RandomStarts: -1, StartEvals: 1, PolishEvals: -1, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	// Only the screening and the bound snapping ran; 200 uniform points in a 5 x 5 box come
	// within 0.5 of the centre.
	if res.Found != "best of 200 uniform points" || res.F > b.minimum()+0.25 || res.Evals < 200 {
		t.Errorf("f* = %v (minimum %v) found by %q in %d evaluations", res.F, b.minimum(), res.Found, res.Evals)
	}
}
