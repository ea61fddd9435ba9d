// Package rates holds the fitted rates of the theory sweep: its raw rows
// (theory_sweep.csv, written by experiments/theory), their means per setting and the
// least-squares fits of the theorem's rates, read by the sweep's own report and by the
// figures (theory.png), so that the figure is drawn from the CSV alone.
package rates

import (
	"fmt"
	"math"
)

// Sweep names of SweepRow.
const (
	// RateSweep is the n x mu grid (plus non-private reference runs at mu = +Inf).
	RateSweep = "rate"
	// EvalSweep is the d grid with the adaptive batch.
	EvalSweep = "evals"
)

// SweepRow is one run of the raw sweep CSV (theory_sweep.csv).
type SweepRow struct {
	Sweep       string  `csv:"sweep"`        // RateSweep or EvalSweep
	Dim         int     `csv:"d"`            // d
	Users       int     `csv:"n"`            // n
	Mu          float64 `csv:"mu"`           // mu (+Inf: non-private reference)
	Seed        int     `csv:"seed"`         // seed index within the setting
	Iters       int     `csv:"T"`            // iterations completed
	Batch       int     `csv:"batch"`        // fixed batch (0: adaptive)
	BiasTol     float64 `csv:"bias_tol"`     // epsilon of the adaptive batch (0: fixed batch)
	NoiseStd    float64 `csv:"noise_std"`    // evaluation noise sigma
	Clip        float64 `csv:"clip"`         // B
	PrivacyStd  float64 `csv:"privacy_std"`  // algo.PrivacyNoiseStd(Clip, T, n, mu)
	Gap         float64 `csv:"gap"`          // f(theta^(T)) - f(theta*)
	Dist        float64 `csv:"dist"`         // |theta^(T) - theta*|
	Evals       int     `csv:"evals"`        // total evaluations used
	FirstBatch  int     `csv:"first_batch"`  // evaluations of iteration 1 (empty design)
	CappedIters int     `csv:"capped_iters"` // iterations whose adaptive batch hit MaxBatch
}

// SettingMean averages the runs of one setting (sweep, d, n, mu) over seeds.
type SettingMean struct {
	Sweep      string
	Dim        int
	Users      int
	Mu         float64
	Runs       int
	Gap        float64 // mean final suboptimality gap
	Dist       float64 // mean |theta^(T) - theta*|
	Evals      float64 // mean total evaluations
	FirstBatch float64 // mean evaluations of iteration 1
	Capped     int     // iterations (over all seeds) whose adaptive batch hit MaxBatch
}

// Means groups rows by setting, in order of first appearance.
func Means(rows []SweepRow) []SettingMean {
	type key struct {
		sweep string
		dim   int
		users int
		mu    float64
	}
	index := map[key]int{}
	var out []SettingMean
	for _, r := range rows {
		k := key{r.Sweep, r.Dim, r.Users, r.Mu}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, SettingMean{Sweep: r.Sweep, Dim: r.Dim, Users: r.Users, Mu: r.Mu})
		}
		m := &out[i]
		m.Runs++
		m.Gap += r.Gap
		m.Dist += r.Dist
		m.Evals += float64(r.Evals)
		m.FirstBatch += float64(r.FirstBatch)
		m.Capped += r.CappedIters
	}
	for i := range out {
		k := float64(out[i].Runs)
		out[i].Gap /= k
		out[i].Dist /= k
		out[i].Evals /= k
		out[i].FirstBatch /= k
	}
	return out
}

// FitRow is one coefficient of theory.csv.
type FitRow struct {
	Fit       string  `csv:"fit"`       // the regression, e.g. "log gap ~ log n + log mu"
	Term      string  `csv:"term"`      // the regressor ("(intercept)" for a)
	Estimate  float64 `csv:"estimate"`  // fitted coefficient
	StdErr    float64 `csv:"std_err"`   // its standard error
	Predicted string  `csv:"predicted"` // what the theorem predicts for it ("-": nothing)
	R2        float64 `csv:"r2"`        // R^2 of the regression
	Points    int     `csv:"points"`    // settings (seed means) fitted
}

// Names of the fits in theory.csv.
const (
	fitGap        = "log gap ~ log n + log mu"
	fitDist       = "log dist ~ log n + log mu"
	fitEvalsLog   = "log evals ~ log d"
	fitEvalsLin   = "evals ~ d"
	fitFirstBatch = "log first_batch ~ log d"
)

// Fits fits the theorem's rates on the seed means of rows: the private settings of the rate
// sweep (mu = +Inf runs are the reference floor and are not fitted) and the evaluation sweep.
func Fits(rows []SweepRow) ([]FitRow, []Fit, error) {
	var gapY, distY, evLogY, evLinY, fbY []float64
	var nmuX, logdX, dX [][]float64
	for _, m := range Means(rows) {
		switch {
		case m.Sweep == RateSweep && !math.IsInf(m.Mu, 1):
			gapY = append(gapY, math.Log(m.Gap))
			distY = append(distY, math.Log(m.Dist))
			nmuX = append(nmuX, []float64{math.Log(float64(m.Users)), math.Log(m.Mu)})
		case m.Sweep == EvalSweep:
			evLogY = append(evLogY, math.Log(m.Evals))
			evLinY = append(evLinY, m.Evals)
			fbY = append(fbY, math.Log(m.FirstBatch))
			logdX = append(logdX, []float64{math.Log(float64(m.Dim))})
			dX = append(dX, []float64{float64(m.Dim)})
		}
	}
	type spec struct {
		name      string
		y         []float64
		x         [][]float64
		terms     []string
		predicted []string
	}
	specs := []spec{
		{fitGap, gapY, nmuX, []string{"log n", "log mu"}, []string{"-1 (bound)", "-1 (bound)"}},
		{fitDist, distY, nmuX, []string{"log n", "log mu"}, []string{"-0.5 (bound, via strong convexity)", "-0.5 (bound, via strong convexity)"}},
		{fitEvalsLog, evLogY, logdX, []string{"log d"}, []string{"<= 1 (bound O(omega d log n))"}},
		{fitEvalsLin, evLinY, dX, []string{"d"}, []string{"-"}},
		{fitFirstBatch, fbY, logdX, []string{"log d"}, []string{"1 (O(omega d) points per iteration)"}},
	}
	var out []FitRow
	var fits []Fit
	for _, s := range specs {
		f, err := FitLinear(s.y, s.x, s.terms...)
		if err != nil {
			return nil, nil, fmt.Errorf("rates: fit %q: %w", s.name, err)
		}
		fits = append(fits, f)
		out = append(out, FitRow{Fit: s.name, Term: "(intercept)", Estimate: f.Intercept, StdErr: math.NaN(), Predicted: "-", R2: f.R2, Points: f.Points})
		for k, term := range s.terms {
			out = append(out, FitRow{Fit: s.name, Term: term, Estimate: f.Coeffs[k], StdErr: f.StdErrs[k], Predicted: s.predicted[k], R2: f.R2, Points: f.Points})
		}
	}
	return out, fits, nil
}
