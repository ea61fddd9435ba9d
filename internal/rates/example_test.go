package rates_test

import (
	"fmt"
	"math"

	"dpgibo/internal/rates"
)

// Fitting a power law gap = 3 n^-1 mu^-2 in log space recovers its exponents.
func ExampleFitLinear() {
	var y []float64
	var x [][]float64
	for _, n := range []float64{100, 200, 400} {
		for _, mu := range []float64{1, 2, 4} {
			y = append(y, math.Log(3/(n*mu*mu)))
			x = append(x, []float64{math.Log(n), math.Log(mu)})
		}
	}
	f, err := rates.FitLinear(y, x, "log n", "log mu")
	if err != nil {
		panic(err)
	}
	fmt.Printf("b = %.2f, c = %.2f, R^2 = %.2f\n", f.Coeffs[0], f.Coeffs[1], f.R2)
	// Output: b = -1.00, c = -2.00, R^2 = 1.00
}
