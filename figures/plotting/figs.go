package plotting

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot"

	"dpgibo/figures/stats"
	"dpgibo/internal/records"
	"dpgibo/tasks/catalog"
)

const (
	xEvals = "function evaluations"
	xIter  = "iteration"
)

// lossLabel is the y-axis label of a task's reported loss f(theta): the catalog's, or
// "validation loss" for a task it does not know.
func lossLabel(task string) string {
	if info, ok := catalog.Lookup(task); ok {
		return info.LossLabel
	}
	return "validation loss"
}

// paramSymbol is how a swept parameter is written in legends (the paper's symbols). The
// bias tolerance of the adaptive batch is the paper's epsilon, written BiasTol here as
// everywhere in the project: epsilon is the privacy budget's letter.
func paramSymbol(name string) string {
	switch name {
	case "mu":
		return "μ"
	case "bias_tol":
		return "BiasTol"
	case "clip":
		return "B"
	case "noise_std":
		return "σ"
	case "noise":
		return "noise std"
	}
	return name
}

// configLegend writes a config label "mu=0.1" as "μ = 0.1"; the non-private mu = +Inf is
// marked as GIBO.
func configLegend(label string) string {
	name, v, ok := configValue(label)
	if !ok {
		return label
	}
	s := paramSymbol(name) + " = " + formatValue(v)
	if name == "mu" && math.IsInf(v, 1) {
		s += " (GIBO)"
	}
	return s
}

// curveName is the legend entry of one curve.
func curveName(k groupKey, withMethod, withConfig bool) string {
	switch {
	case withMethod && withConfig && k.Config != "":
		return methodName(k.Method) + ", " + configLegend(k.Config)
	case withConfig && k.Config != "":
		return configLegend(k.Config)
	}
	return methodName(k.Method)
}

// sortByMethod orders keys by the legend's method order, keeping the CSV order otherwise.
func sortByMethod(keys []groupKey) {
	sort.SliceStable(keys, func(i, j int) bool { return methodRank(keys[i].Method) < methodRank(keys[j].Method) })
}

func evalsOf(r records.Row) float64 { return float64(r.Evals) }
func iterOf(r records.Row) float64  { return float64(r.Iter) }
func lossOf(r records.Row) float64  { return r.Loss }

// panelCurves is the most curves drawAcrossD puts in one panel: every sweep colour in every
// dash pattern (panel.claim has these and the method colours).
var panelCurves = int(numDashes) * len(sweepColors)

// drawAcrossD draws fig1, fig2a, fig2b and fig2b-real: one panel per (task, d), the loss of every
// method against function evaluations; a (task, d) with more curves than panelCurves, as
// many panels as it needs.
func drawAcrossD(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	type panelKey struct {
		task, data string
		d          int
	}
	panels := distinct(rows, func(r records.Row) panelKey { return panelKey{r.Task, r.Data, r.D} })
	var out []*panel
	for _, pk := range panels {
		var sub []records.Row
		for _, r := range rows {
			if r.Task == pk.task && r.Data == pk.data && r.D == pk.d {
				sub = append(sub, r)
			}
		}
		keys, by := groups(sub)
		sortByMethod(keys)
		title := fmt.Sprintf("%s, d = %d", taskTitle(pk.task, pk.data), pk.d)
		// More curves than a panel can tell apart: as many panels as needed, the curves
		// shared evenly among them in the legend's order.
		parts := (len(keys) + panelCurves - 1) / panelCurves
		for i := range parts {
			lo, hi := i*len(keys)/parts, (i+1)*len(keys)/parts
			name := title
			if parts > 1 {
				name = fmt.Sprintf("%s, curves %d-%d of %d", title, lo+1, hi, len(keys))
			}
			p := newPlot(name, xEvals, lossLabel(pk.task))
			var all []float64
			for _, k := range keys[lo:hi] {
				b := summarise(seriesBy(by[k], evalsOf, lossOf))
				if err := addBand(p, b, curveName(k, true, true), methodColor(k.Method), solid); err != nil {
					return nil, err
				}
				all = append(all, b.Lo...)
				all = append(all, b.Hi...)
			}
			logYIfWide(p, all)
			p.finish()
			out = append(out, p)
		}
	}
	return [][]*panel{out}, nil
}

// drawThetaPaths draws fig3f: one panel per recorded coordinate, its value against the
// iteration for each method's run.
func drawThetaPaths(_ string, _ []records.Row, rows []records.ThetaRow) ([][]*panel, error) {
	type coordKey struct {
		coord int
		name  string
	}
	var coords []coordKey
	seen := map[coordKey]bool{}
	var methods []string
	seenM := map[string]bool{}
	for _, r := range rows {
		k := coordKey{r.Coord, r.Name}
		if !seen[k] {
			seen[k] = true
			coords = append(coords, k)
		}
		if !seenM[r.Method] {
			seenM[r.Method] = true
			methods = append(methods, r.Method)
		}
	}
	sort.SliceStable(methods, func(i, j int) bool { return methodRank(methods[i]) < methodRank(methods[j]) })
	var out []*panel
	for _, ck := range coords {
		title := fmt.Sprintf("%s, d = %d: path of %s", taskTitle(rows[0].Task, rows[0].Data), rows[0].D, ck.name)
		p := newPlot(title, xIter, ck.name)
		for _, m := range methods {
			series := map[int][]point{}
			for _, r := range rows {
				if r.Coord == ck.coord && r.Method == m {
					series[r.Seed] = append(series[r.Seed], point{float64(r.Iter), r.Value})
				}
			}
			name := methodName(m)
			if len(series) > 1 {
				name += fmt.Sprintf(" (median of %d runs)", len(series))
			}
			if err := addBand(p, summarise(series), name, methodColor(m), solid); err != nil {
				return nil, err
			}
		}
		p.finish()
		out = append(out, p)
	}
	return [][]*panel{out}, nil
}

// sweepPanel draws one curve per config of rows (x against y), coloured by sweep order.
func sweepPanel(p *panel, rows []records.Row, x, y func(records.Row) float64, logY bool) error {
	keys, by := groups(rows)
	var all []float64
	for i, k := range keys {
		b := summarise(seriesBy(by[k], x, y))
		if err := addBand(p, b, curveName(k, len(distinct(rows, func(r records.Row) string { return r.Method })) > 1, true), sweepColor(i), solid); err != nil {
			return err
		}
		all = append(all, b.Lo...)
		all = append(all, b.Hi...)
	}
	if logY {
		logYIfWide(p, all)
	}
	p.finish()
	return nil
}

// drawBiasTol draws fig3ab: (a) the loss per iteration and (b) the evaluations used per
// iteration, one curve per bias tolerance.
func drawBiasTol(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	r0 := rows[0]
	a := newPlot(fmt.Sprintf("(a) %s, d = %d: loss", taskTitle(r0.Task, r0.Data), r0.D), xIter, lossLabel(r0.Task))
	if err := sweepPanel(a, rows, iterOf, lossOf, true); err != nil {
		return nil, err
	}
	b := newPlot(fmt.Sprintf("(b) %s, d = %d: evaluations used", taskTitle(r0.Task, r0.Data), r0.D), xIter, xEvals)
	if err := sweepPanel(b, rows, iterOf, evalsOf, false); err != nil {
		return nil, err
	}
	return [][]*panel{{a, b}}, nil
}

// drawSweepByIter draws fig3c and clip-sweep: the loss per iteration, one curve per value
// of the swept parameter.
func drawSweepByIter(name string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	r0 := rows[0]
	title := fmt.Sprintf("%s, d = %d, n = %d", taskTitle(r0.Task, r0.Data), r0.D, r0.NUsers)
	switch name {
	case "fig3c":
		title = "Privacy levels: " + title
	case "clip-sweep", "fig2a-clip":
		title = "Clipping B: " + title
	}
	p := newPlot(title, xIter, lossLabel(r0.Task))
	if err := sweepPanel(p, rows, iterOf, lossOf, true); err != nil {
		return nil, err
	}
	return [][]*panel{{p}}, nil
}

// addPointsCI draws, at each x (moved right by shift), the median of values[i] with an
// error bar joined by a line (newMedianPoints), under name; x with no values are skipped.
// The bar is the confidence interval of the median at bandLevel (stats.MedianCI) where
// there are enough values for one, their range otherwise, as the panel's title says. It
// returns the bars' limits.
func addPointsCI(p *panel, x []float64, values [][]float64, shift float64, name string, c color.Color, dash dash) ([]float64, error) {
	var pts []medianCI
	var span []float64
	lo, hi, ci := 0, 0, true
	for i := range x {
		n := len(values[i])
		if n == 0 {
			continue
		}
		med := stats.Median(values[i])
		l, h, coverage := stats.MedianCI(values[i], bandLevel)
		pts = append(pts, medianCI{x: x[i] + shift, median: med, lo: l, hi: h})
		span = append(span, l, h)
		if len(pts) == 1 {
			lo, hi = n, n
		}
		lo, hi, ci = min(lo, n), max(hi, n), ci && isCI(coverage)
	}
	if len(pts) == 0 {
		return nil, nil
	}
	c, dash = p.claim(c, dash)
	mp, err := newMedianPoints(pts, c, dash)
	if err != nil {
		return nil, err
	}
	p.Add(mp)
	p.bars = true
	p.addCurve(name, mp, c, dash, lo, hi, ci)
	return span, nil
}

// drawFinalByNoise draws fig3d: the final loss (median and its confidence interval over
// seeds) for each evaluation-noise level, "none" included.
func drawFinalByNoise(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	keys, by := groups(rows)
	r0 := rows[0]
	p := newPlot(fmt.Sprintf("%s, d = %d, T = %d, b = d+1: final loss", taskTitle(r0.Task, r0.Data), r0.D, r0.Iters),
		"evaluation noise std σ", "final "+lossLabel(r0.Task))
	var ticks []plot.Tick
	x := make([]float64, len(keys))
	values := make([][]float64, len(keys))
	for i, k := range keys {
		x[i] = float64(i)
		for _, r := range finals(by[k]) {
			values[i] = append(values[i], r.Loss)
		}
		label := k.Config
		if _, v, ok := configValue(k.Config); ok {
			label = formatValue(v)
			if v == 0 {
				label = "none"
			}
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	span, err := addPointsCI(p, x, values, 0, methodName(r0.Method), methodColor(r0.Method), solid)
	if err != nil {
		return nil, err
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(keys))-0.5
	logYIfWide(p, span)
	p.finish()
	return [][]*panel{{p}}, nil
}

// drawMisspec draws noise-misspec: one panel per sigma told to DP-GIBO (true, over- and
// underestimated), DP-GIBO against random search on the same noisy evaluations.
func drawMisspec(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	keys, by := groups(rows)
	var swept, others []groupKey
	for _, k := range keys {
		if k.Config != "" {
			swept = append(swept, k)
		} else {
			others = append(others, k)
		}
	}
	sortByMethod(others)
	var out []*panel
	for _, k := range swept {
		r0 := by[k][0]
		_, told, _ := configValue(k.Config)
		kind := "correct"
		switch {
		case told > r0.EvalNoise:
			kind = "overestimated"
		case told < r0.EvalNoise:
			kind = "underestimated"
		}
		p := newPlot(fmt.Sprintf("σ = %s told, true noise %s (%s)", formatValue(told), formatValue(r0.EvalNoise), kind), xEvals, lossLabel(r0.Task))
		var all []float64
		for _, kk := range append([]groupKey{k}, others...) {
			b := summarise(seriesBy(by[kk], evalsOf, lossOf))
			if err := addBand(p, b, methodName(kk.Method), methodColor(kk.Method), solid); err != nil {
				return nil, err
			}
			all = append(all, b.Lo...)
			all = append(all, b.Hi...)
		}
		logYIfWide(p, all)
		p.finish()
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no DP-GIBO rows with a told sigma (config noise_std=...)")
	}
	return [][]*panel{out}, nil
}

// drawPrivate draws fig-private and fig-private-select: final loss against d, one panel
// per task and privacy level (rows: the config labels, columns: task), every method
// private at that level; the non-private methods (rows without a config label) are drawn
// dashed in every panel of their task as a reference, not in a row of their own.
func drawPrivate(_ string, rows []records.Row, _ []records.ThetaRow) ([][]*panel, error) {
	type taskKey struct{ task, data string }
	taskList := distinct(rows, func(r records.Row) taskKey { return taskKey{r.Task, r.Data} })
	mus := slices.DeleteFunc(distinct(rows, func(r records.Row) string { return r.Config }), func(c string) bool { return c == "" })
	var grid [][]*panel
	for _, mu := range mus {
		var row []*panel
		for _, tk := range taskList {
			var sub, reference []records.Row
			for _, r := range rows {
				if r.Task != tk.task || r.Data != tk.data {
					continue
				}
				switch r.Config {
				case mu:
					sub = append(sub, r)
				case "":
					reference = append(reference, r)
				}
			}
			if len(sub) == 0 {
				row = append(row, nil)
				continue
			}
			p := newPlot(fmt.Sprintf("%s, %s", taskTitle(tk.task, tk.data), configLegend(mu)), "d (hyperparameters)", "final "+lossLabel(tk.task))
			methods := distinct(sub, func(r records.Row) string { return r.Method })
			sort.SliceStable(methods, func(i, j int) bool { return methodRank(methods[i]) < methodRank(methods[j]) })
			refMethods := distinct(reference, func(r records.Row) string { return r.Method })
			sort.SliceStable(refMethods, func(i, j int) bool { return methodRank(refMethods[i]) < methodRank(refMethods[j]) })
			dims := distinct(sub, func(r records.Row) int { return r.D })
			sort.Ints(dims)
			n := len(methods) + len(refMethods)
			var span []float64
			for i, m := range methods {
				x, values := finalsAtDims(sub, dims, func(r records.Row) bool { return r.Method == m })
				s, err := addPointsCI(p, x, values, dodge(dims, i, n), methodName(m), methodColor(m), solid)
				if err != nil {
					return nil, err
				}
				span = append(span, s...)
			}
			for i, m := range refMethods {
				x, values := finalsAtDims(reference, dims, func(r records.Row) bool { return r.Method == m })
				s, err := addPointsCI(p, x, values, dodge(dims, len(methods)+i, n), methodName(m)+" (non-private)", methodColor(m), dashed)
				if err != nil {
					return nil, err
				}
				span = append(span, s...)
			}
			finishDimPanel(p, dims, span)
			row = append(row, p)
		}
		grid = append(grid, row)
	}
	return grid, nil
}

// dodgeWidth is the width, as a fraction of the span of d (or in units of d when a panel
// has one d), over which the curves of a panel whose x axis is d are spread at each d.
const dodgeWidth = 0.12

// dodge is how far right of d the points of curve i of n are drawn on a panel whose x axis
// is dims, so that the error bars of curves at the same d stand side by side instead of
// over each other; the n curves spread over dodgeWidth of the axis, centred on d.
func dodge(dims []int, i, n int) float64 {
	if n < 2 {
		return 0
	}
	return (float64(i) - float64(n-1)/2) * dimSpan(dims) * dodgeWidth / float64(n-1)
}

// dimSpan is the span of dims (1 for one d).
func dimSpan(dims []int) float64 {
	if len(dims) == 1 {
		return 1
	}
	return float64(dims[len(dims)-1] - dims[0])
}

// finishDimPanel completes a panel whose x axis is d: a tick at every d drawn, a little room
// at both ends (beyond the dodged points), a log y axis when the values span a wide range,
// and the seed count.
func finishDimPanel(p *panel, dims []int, span []float64) {
	var ticks []plot.Tick
	for _, d := range dims {
		ticks = append(ticks, plot.Tick{Value: float64(d), Label: fmt.Sprint(d)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	pad := (0.08 + dodgeWidth/2) * dimSpan(dims)
	if len(dims) == 1 {
		pad = 1
	}
	p.X.Min, p.X.Max = float64(dims[0])-pad, float64(dims[len(dims)-1])+pad
	logYIfWide(p, span)
	p.finish()
}

// finalsAtDims returns, at each d of dims, the final losses of the runs among rows that
// match (one per seed), and the dims as abscissae.
func finalsAtDims(rows []records.Row, dims []int, match func(records.Row) bool) (x []float64, values [][]float64) {
	x = make([]float64, len(dims))
	values = make([][]float64, len(dims))
	for i, d := range dims {
		x[i] = float64(d)
		var cell []records.Row
		for _, r := range rows {
			if r.D == d && match(r) {
				cell = append(cell, r)
			}
		}
		for _, r := range finals(cell) {
			values[i] = append(values[i], r.Loss)
		}
	}
	return x, values
}
