package theory

import (
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"dpgibo/internal/rates"
)

func TestQuadraticGapAndGradientBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 3, 6} {
		q, err := newQuadratic(d, 50, 2, 0.2, rng)
		if err != nil {
			t.Fatal(err)
		}
		lossesAt := func(theta []float64) (mean float64) {
			dst := make([]float64, q.Users())
			if err := q.Losses(theta, dst); err != nil {
				t.Fatal(err)
			}
			for _, v := range dst {
				mean += v / float64(len(dst))
			}
			return mean
		}
		fStar := lossesAt(q.Minimiser())
		bound := gradientBound(d, 2)
		for k := 0; k < 20; k++ {
			theta := make([]float64, d)
			for j := range theta {
				theta[j] = rng.Float64()
			}
			if got, want := lossesAt(theta)-fStar, q.Gap(theta); math.Abs(got-want) > 1e-12 {
				t.Errorf("d=%d: f(theta)-f(theta*) = %v, Gap = %v", d, got, want)
			}
			// Each user's gradient 2(theta - c_i) by finite differences stays within the bound.
			for i := 0; i < q.Users(); i++ {
				g := 0.0
				for j := range theta {
					h := 1e-6
					up := append([]float64(nil), theta...)
					dn := append([]float64(nil), theta...)
					up[j] += h
					dn[j] -= h
					lu := make([]float64, q.Users())
					ld := make([]float64, q.Users())
					_ = q.Losses(up, lu)
					_ = q.Losses(dn, ld)
					gj := (lu[i] - ld[i]) / (2 * h)
					g += gj * gj
				}
				if math.Sqrt(g) > bound+1e-6 {
					t.Fatalf("d=%d user %d: gradient norm %v exceeds GradientBound %v", d, i, math.Sqrt(g), bound)
				}
			}
		}
		for _, c := range q.Minimiser() {
			if c <= 0 || c >= 1 {
				t.Errorf("minimiser %v not interior", q.Minimiser())
			}
		}
	}
	if _, err := newQuadratic(2, 10, 2, 0.5, rng); err == nil {
		t.Error("spread 0.5: no error")
	}
}

func TestConfigValidation(t *testing.T) {
	for name, mutate := range map[string]func(*config){
		"step above 1/L": func(c *config) { c.Step = 1 },
		"one n":          func(c *config) { c.Users = []int{100, 100} },
		"two d":          func(c *config) { c.Dims = []int{1, 2} },
		"mu inf":         func(c *config) { c.Mus = []float64{1, math.Inf(1)} },
	} {
		c := QuickConfig()
		mutate(&c)
		if _, err := c.withDefaults(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// tinyConfig is a sweep of a second or two.
func tinyConfig() config {
	c := QuickConfig()
	c.Users = []int{100, 400}
	c.Mus = []float64{1, 4}
	c.Dims = []int{1, 2, 3}
	c.Seeds = 4
	c.EvalSeeds = 1
	c.Iters = 12
	return c
}

func TestRunWritesOutputsAndFitsFallingGap(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig()
	if err := Run(context.Background(), cfg, dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"theory_sweep.csv", "theory.csv", "theory.md", "theory.png"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty (%v)", name, err)
		}
	}
	f, err := os.Open(filepath.Join(dir, "theory.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Header, then intercept and slope terms of the five fits.
	if want := 1 + 3 + 3 + 2 + 2 + 2; len(recs) != want {
		t.Errorf("theory.csv has %d lines, want %d", len(recs), want)
	}
	rows, err := sweep(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, fits, err := rates.Fits(rows)
	if err != nil {
		t.Fatal(err)
	}
	// More users or a larger mu means less privacy noise: the gap must fall with both.
	if b, c := fits[0].Coeffs[0], fits[0].Coeffs[1]; b >= 0 || c >= 0 {
		t.Errorf("gap exponents b = %v, c = %v; want both negative", b, c)
	}
	// The first design needs more points in more dimensions.
	if fits[4].Coeffs[0] <= 0 {
		t.Errorf("first batch exponent %v, want positive", fits[4].Coeffs[0])
	}
}

func TestSweepIndependentOfWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("two sweeps")
	}
	cfg := tinyConfig()
	cfg.Seeds = 2
	var out [2][]rates.SweepRow
	for i, w := range []int{1, 2} {
		cfg.Workers = w
		rows, err := sweep(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rows
	}
	for i := range out[0] {
		if out[0][i] != out[1][i] {
			t.Fatalf("run %d differs: %+v vs %+v", i, out[0][i], out[1][i])
		}
	}
}
