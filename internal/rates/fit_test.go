package rates

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFitLinearRecoversKnownRates(t *testing.T) {
	// Synthetic gaps with known exponents: log gap = 0.7 - 1 log n - 1 log mu + noise.
	rng := rand.New(rand.NewPCG(11, 12))
	var y []float64
	var x [][]float64
	for _, n := range []float64{20, 50, 100, 200, 500, 1000} {
		for _, mu := range []float64{0.25, 0.5, 1, 2, 4} {
			y = append(y, 0.7-math.Log(n)-math.Log(mu)+0.05*rng.NormFloat64())
			x = append(x, []float64{math.Log(n), math.Log(mu)})
		}
	}
	f, err := FitLinear(y, x, "log n", "log mu")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{-1, -1} {
		if math.Abs(f.Coeffs[k]-want) > 4*f.StdErrs[k] || f.StdErrs[k] > 0.05 {
			t.Errorf("%s: %v +- %v, want %v", f.Names[k], f.Coeffs[k], f.StdErrs[k], want)
		}
	}
	if math.Abs(f.Intercept-0.7) > 0.1 {
		t.Errorf("intercept %v, want 0.7", f.Intercept)
	}
	if f.R2 < 0.99 {
		t.Errorf("R^2 = %v", f.R2)
	}
}

func TestFitLinearExact(t *testing.T) {
	// Noise-free data: exact coefficients, R^2 = 1, zero standard errors.
	var y []float64
	var x [][]float64
	for d := 1.0; d <= 8; d++ {
		y = append(y, 3+2.5*d)
		x = append(x, []float64{d})
	}
	f, err := FitLinear(y, x, "d")
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Coeffs[0]-2.5) > 1e-9 || math.Abs(f.Intercept-3) > 1e-9 || math.Abs(f.R2-1) > 1e-9 || f.StdErrs[0] > 1e-6 {
		t.Errorf("fit %+v", f)
	}
}

func TestFitLinearStdErrCoverage(t *testing.T) {
	// The standard error must describe the spread of the estimate across replicates.
	rng := rand.New(rand.NewPCG(13, 14))
	const reps = 300
	inside := 0
	for r := 0; r < reps; r++ {
		var y []float64
		var x [][]float64
		for i := 0; i < 15; i++ {
			v := float64(i)
			y = append(y, 1-0.5*v+0.3*rng.NormFloat64())
			x = append(x, []float64{v})
		}
		f, err := FitLinear(y, x, "v")
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.Coeffs[0]+0.5) <= 1.96*f.StdErrs[0] {
			inside++
		}
	}
	// t with 13 degrees of freedom: 1.96 standard errors cover about 93%.
	if rate := float64(inside) / reps; rate < 0.88 || rate > 0.97 {
		t.Errorf("1.96 standard errors covered the true slope in %.3f of replicates", rate)
	}
}

func TestFitLinearRejectsBadInput(t *testing.T) {
	if _, err := FitLinear([]float64{1, 2}, [][]float64{{1}, {2}}, "x"); err == nil {
		t.Error("two points for two coefficients: no error")
	}
	if _, err := FitLinear([]float64{1, 2, math.NaN(), 4}, [][]float64{{1}, {2}, {3}, {4}}, "x"); err == nil {
		t.Error("NaN observation: no error")
	}
	if _, err := FitLinear([]float64{1, 2, 3, 4}, [][]float64{{1}, {1}, {1}, {1}}, "x"); err == nil {
		t.Error("constant regressor: no error")
	}
}
