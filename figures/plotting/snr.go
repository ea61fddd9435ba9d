package plotting

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"dpgibo/internal/records"
)

// snrOf is the privacy signal-to-noise ratio of one DP-GIBO iteration: the norm of the
// clipped mean gradient over the expected norm s sqrt(d) of the privacy noise. It is NaN for
// rows without the (non-private) diagnostics or without privacy noise.
func snrOf(r records.Row) float64 {
	if !r.GradNorm.Valid || !r.NoiseScale.Valid || !(r.NoiseScale.Value > 0) {
		return math.NaN()
	}
	return r.GradNorm.Value / (r.NoiseScale.Value * math.Sqrt(float64(r.D)))
}

// hasSNR reports whether any row carries privacy noise diagnostics.
func hasSNR(rows []records.Row) bool {
	for _, r := range rows {
		if !math.IsNaN(snrOf(r)) {
			return true
		}
	}
	return false
}

// snrPanel draws the privacy SNR per iteration of every private curve of rows (median over
// seeds with the CI of the median), on a log scale with a reference line at SNR = 1:
// below it the privacy noise dominates the clipped mean gradient. The diagnostics it reads
// are computed from the validation data and are not private.
func snrPanel(rows []records.Row) (*plot.Plot, error) {
	var sub []records.Row
	for _, r := range rows {
		if !math.IsNaN(snrOf(r)) {
			sub = append(sub, r)
		}
	}
	keys, by := groups(sub)
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].D != keys[j].D {
			return keys[i].D < keys[j].D
		}
		return false
	})
	tasks := distinct(sub, func(r records.Row) string { return taskTitle(r.Task, r.Data) })
	title := "privacy SNR = |clipped mean gradient| / (s√d)"
	if len(tasks) == 1 {
		title = tasks[0] + ": " + title
	}
	p := newPlot(title+"\n(non-private diagnostic)", xIter, "SNR")
	multiD := len(distinct(sub, func(r records.Row) int { return r.D })) > 1
	multiTask := len(tasks) > 1
	var all []float64
	for i, k := range keys {
		b := summarise(seriesBy(by[k], iterOf, snrOf))
		name := curveName(k, true, true)
		if multiD {
			name += fmt.Sprintf(", d = %d", k.D)
		}
		if multiTask {
			name = k.Task + " " + name
		}
		if err := addBand(p, b, name, sweepColor(i), false); err != nil {
			return nil, err
		}
		all = append(all, b.Lo...)
		all = append(all, b.Hi...)
		all = append(all, b.Median...)
	}
	positive := all[:0]
	for _, v := range all {
		if v > 0 {
			positive = append(positive, v)
		}
	}
	if len(positive) > 0 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range positive {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		// A two-seed band can reach far below the medians; keep the axis to six decades.
		p.Y.Min, p.Y.Max = math.Max(math.Min(lo, 0.5), 1e-6*hi), math.Max(hi, 2)
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	one.Width = vg.Points(1)
	p.Add(one)
	p.addLegend("SNR = 1", one)
	p.finish()
	return p.Plot, nil
}
