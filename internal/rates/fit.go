package rates

import (
	"errors"
	"fmt"
	"math"

	"github.com/sajari/regression"
	"gonum.org/v1/gonum/mat"
)

// Fit is an ordinary least-squares fit y = Intercept + sum_k Coeffs[k]*x_k, computed by
// github.com/sajari/regression, with the classical standard errors of the coefficients.
type Fit struct {
	Names     []string  // names of the regressors x_k
	Intercept float64   // a
	Coeffs    []float64 // b_k
	StdErrs   []float64 // standard error of each b_k: sqrt(s^2 [(X^T X)^{-1}]_kk), s^2 = RSS/(N-p-1)
	R2        float64   // coefficient of determination
	Points    int       // N
}

// FitLinear fits y on the regressors x (x[i] holds observation i's regressors, in the order
// of names). It needs more observations than coefficients and finite values.
func FitLinear(y []float64, x [][]float64, names ...string) (Fit, error) {
	p := len(names)
	switch {
	case p == 0:
		return Fit{}, errors.New("rates: FitLinear needs at least one regressor")
	case len(y) != len(x):
		return Fit{}, fmt.Errorf("rates: FitLinear: %d observations but %d regressor rows", len(y), len(x))
	case len(y) <= p+1:
		return Fit{}, fmt.Errorf("rates: FitLinear: %d observations cannot fit %d coefficients with a residual", len(y), p+1)
	}
	r := new(regression.Regression)
	r.SetObserved("y")
	for k, name := range names {
		r.SetVar(k, name)
	}
	for i, row := range x {
		if len(row) != p {
			return Fit{}, fmt.Errorf("rates: FitLinear: row %d has %d regressors, want %d", i, len(row), p)
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return Fit{}, fmt.Errorf("rates: FitLinear: observation %d is %v", i, y[i])
		}
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Fit{}, fmt.Errorf("rates: FitLinear: regressor %s of observation %d is %v", names[k], i, v)
			}
		}
		r.Train(regression.DataPoint(y[i], append([]float64(nil), row...)))
	}
	if err := r.Run(); err != nil {
		return Fit{}, fmt.Errorf("rates: regression: %w", err)
	}
	f := Fit{Names: names, Intercept: r.Coeff(0), Coeffs: make([]float64, p), StdErrs: make([]float64, p), R2: r.R2, Points: len(y)}
	for k := range f.Coeffs {
		f.Coeffs[k] = r.Coeff(k + 1)
	}

	// Standard errors: s^2 times the diagonal of (X^T X)^{-1}, from Cholesky solves
	// against unit vectors (X has a leading column of ones).
	n := len(y)
	design := mat.NewDense(n, p+1, nil)
	rss := 0.0
	for i, row := range x {
		design.Set(i, 0, 1)
		pred := f.Intercept
		for k, v := range row {
			design.Set(i, k+1, v)
			pred += f.Coeffs[k] * v
		}
		rss += (y[i] - pred) * (y[i] - pred)
	}
	gram := mat.NewSymDense(p+1, nil)
	gram.SymOuterK(1, design.T())
	var chol mat.Cholesky
	if !chol.Factorize(gram) {
		return Fit{}, errors.New("rates: FitLinear: regressors are collinear")
	}
	s2 := rss / float64(n-p-1)
	unit := mat.NewVecDense(p+1, nil)
	col := mat.NewVecDense(p+1, nil)
	for k := 0; k < p; k++ {
		unit.Zero()
		unit.SetVec(k+1, 1)
		if err := chol.SolveVecTo(col, unit); err != nil {
			return Fit{}, fmt.Errorf("rates: FitLinear: %w", err)
		}
		f.StdErrs[k] = math.Sqrt(s2 * col.AtVec(k+1))
	}
	return f, nil
}
