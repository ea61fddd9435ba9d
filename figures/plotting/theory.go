package plotting

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"dpgibo/internal/rates"
	"dpgibo/internal/records"
)

// TheoryFile is the raw CSV of the theory sweep (written by experiments/theory) from which
// theory.png is drawn.
const TheoryFile = "theory_sweep.csv"

// RenderTheory draws the theory sweep's rows (theory_sweep.csv) as outDir/theory.FORMAT in
// every format and returns the files written: left, the mean final gap against n
// (log-log) for each mu with the fitted plane's lines dashed; right, the mean total
// evaluations against d with the fitted power law dashed and the (d+1)T evaluations of a
// full design every iteration dotted. The fits are rates.Fits of the rows.
func RenderTheory(rows []rates.SweepRow, outDir string, formats []string) ([]string, error) {
	files, err := input{name: theoryName, sweep: rows}.draw(formats)
	if err != nil {
		return nil, err
	}
	return records.WriteFiles(outDir, files)
}

// theoryPanels builds the two panels of RenderTheory.
func theoryPanels(rows []rates.SweepRow) ([][]*plot.Plot, error) {
	_, fits, err := rates.Fits(rows)
	if err != nil {
		return nil, err
	}
	gapFit, evFit := fits[0], fits[2]
	means := rates.Means(rows)

	left := plot.New()
	left.Title.Text = "final gap vs n"
	left.X.Label.Text = "n (validation users)"
	left.Y.Label.Text = "mean f(theta_T) - f(theta*)"
	left.X.Scale, left.Y.Scale = plot.LogScale{}, plot.LogScale{}
	left.X.Tick.Marker, left.Y.Tick.Marker = plot.LogTicks{Prec: 1}, plot.LogTicks{Prec: 1}
	left.Legend.Top = true
	left.Legend.YOffs = -vg.Points(18)

	var mus []float64
	seen := map[float64]bool{}
	for _, m := range means {
		if m.Sweep == rates.RateSweep && !seen[m.Mu] {
			seen[m.Mu] = true
			mus = append(mus, m.Mu)
		}
	}
	sort.Float64s(mus)
	var nTicks []plot.Tick
	for _, m := range means {
		if m.Sweep == rates.RateSweep && m.Mu == mus[0] {
			nTicks = append(nTicks, plot.Tick{Value: float64(m.Users), Label: fmt.Sprint(m.Users)})
		}
	}
	left.X.Tick.Marker = plot.ConstantTicks(nTicks)
	for i, mu := range mus {
		var pts, line plotter.XYs
		for _, m := range means {
			if m.Sweep != rates.RateSweep || m.Mu != mu {
				continue
			}
			n := float64(m.Users)
			pts = append(pts, plotter.XY{X: n, Y: m.Gap})
			if !math.IsInf(mu, 1) {
				line = append(line, plotter.XY{X: n, Y: math.Exp(gapFit.Intercept + gapFit.Coeffs[0]*math.Log(n) + gapFit.Coeffs[1]*math.Log(mu))})
			}
		}
		col := sweepColor(i)
		lp, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		lp.Color, sc.Color = col, col
		sc.Shape = plotutil.Shape(i)
		label := fmt.Sprintf("mu = %g", mu)
		if math.IsInf(mu, 1) {
			label = "mu = +Inf (floor)"
			lp.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		}
		left.Add(lp, sc)
		left.Legend.Add(label, lp, sc)
		if len(line) > 0 {
			fl, err := plotter.NewLine(line)
			if err != nil {
				return nil, err
			}
			fl.Color = col
			fl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			left.Add(fl)
		}
	}
	left.Legend.Add(fmt.Sprintf("fit: n^%.2f mu^%.2f", gapFit.Coeffs[0], gapFit.Coeffs[1]))

	right := plot.New()
	right.Title.Text = "evaluations vs d"
	right.X.Label.Text = "d (hyperparameters)"
	right.Y.Label.Text = "mean total evaluations"
	right.Y.Min = 0
	right.Legend.Top = true
	right.Legend.Left = true
	right.Legend.YOffs = -vg.Points(4)
	var evPts, evLine, bound plotter.XYs
	for _, m := range means {
		if m.Sweep != rates.EvalSweep {
			continue
		}
		d := float64(m.Dim)
		evPts = append(evPts, plotter.XY{X: d, Y: m.Evals})
		bound = append(bound, plotter.XY{X: d, Y: (d + 1) * float64(iterationsOf(rows, m))})
	}
	if len(evPts) > 0 {
		lo, hi := evPts[0].X, evPts[len(evPts)-1].X
		for k := 0; k <= 40; k++ {
			d := lo + (hi-lo)*float64(k)/40
			evLine = append(evLine, plotter.XY{X: d, Y: math.Exp(evFit.Intercept + evFit.Coeffs[0]*math.Log(d))})
		}
	}
	lp, sc, err := plotter.NewLinePoints(evPts)
	if err != nil {
		return nil, err
	}
	lp.Color, sc.Color = sweepColor(0), sweepColor(0)
	fl, err := plotter.NewLine(evLine)
	if err != nil {
		return nil, err
	}
	fl.Color = sweepColor(0)
	fl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	bl, err := plotter.NewLine(bound)
	if err != nil {
		return nil, err
	}
	bl.Color = color.Gray{Y: 120}
	bl.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
	right.Add(lp, sc, fl, bl)
	right.Legend.Add("measured", lp, sc)
	right.Legend.Add(fmt.Sprintf("fit: d^%.2f", evFit.Coeffs[0]), fl)
	right.Legend.Add("(d+1) T", bl)

	return [][]*plot.Plot{{left, right}}, nil
}

// iterationsOf is the number of iterations completed by the runs of m's setting (the
// largest over its seeds).
func iterationsOf(rows []rates.SweepRow, m rates.SettingMean) int {
	t := 0
	for _, r := range rows {
		if r.Sweep == m.Sweep && r.Dim == m.Dim && r.Users == m.Users && r.Mu == m.Mu {
			t = max(t, r.Iters)
		}
	}
	return t
}
