package plotting

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

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

// snrPanels draws the privacy SNR per iteration of every private curve of rows (median over
// seeds with the CI of the median, or the seeds' range with too few seeds), one panel per
// task (in the order the tasks first appear), on a log scale with a reference line at
// SNR = 1: below it the privacy noise dominates the clipped mean gradient. The diagnostics it reads are computed from the
// validation data and are not private.
func snrPanels(rows []records.Row) ([]*panel, error) {
	var sub []records.Row
	for _, r := range rows {
		if !math.IsNaN(snrOf(r)) {
			sub = append(sub, r)
		}
	}
	sub = dropRelabelled(sub)
	type taskKey struct{ task, data string }
	var out []*panel
	for _, tk := range distinct(sub, func(r records.Row) taskKey { return taskKey{r.Task, r.Data} }) {
		var task []records.Row
		for _, r := range sub {
			if r.Task == tk.task && r.Data == tk.data {
				task = append(task, r)
			}
		}
		p, err := snrPanel(taskTitle(tk.task, tk.data), task)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// snrPanel draws the SNR panel of one task's private rows (snrPanels), titled by the task.
// The curves differ in method, config and d; the factor with the most values colours them
// and the others set the dash pattern (snrStyles), so that a curve is told by its style.
func snrPanel(task string, rows []records.Row) (*panel, error) {
	keys, by := groups(rows)
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].D < keys[j].D })
	methods := distinct(rows, func(r records.Row) string { return r.Method })
	title := task + ": privacy SNR"
	if len(methods) == 1 {
		title += " of " + methodName(methods[0])
	}
	p := newPlot(title+"\n|clipped mean gradient| / (s√d), a non-private diagnostic", xIter, "SNR")
	multiD := len(distinct(rows, func(r records.Row) int { return r.D })) > 1
	colors, dashes := snrStyles(keys)
	var all []float64
	for i, k := range keys {
		b := summarise(seriesBy(by[k], iterOf, snrOf))
		var parts []string
		if len(methods) > 1 {
			parts = append(parts, methodName(k.Method))
		}
		if k.Config != "" {
			parts = append(parts, configLegend(k.Config))
		}
		if multiD {
			parts = append(parts, fmt.Sprintf("d = %d", k.D))
		}
		if len(parts) == 0 {
			parts = append(parts, methodName(k.Method))
		}
		if err := addBand(p, b, strings.Join(parts, ", "), colors[i], dashes[i]); err != nil {
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
		setLogY(p.Plot)
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
	return p, nil
}

// snrStyles gives the curves keys their colours and dash patterns: the factor (method,
// config or d) with the most distinct values picks the colour, in sweep order, and the
// combination of the others the dash pattern. With more combinations than colours or
// dash patterns the curves are styled in turn, colours first. panel.claim keeps every
// style of a panel distinct either way.
func snrStyles(keys []groupKey) ([]color.Color, []dash) {
	factors := []func(groupKey) string{
		func(k groupKey) string { return k.Method },
		func(k groupKey) string { return k.Config },
		func(k groupKey) string { return strconv.Itoa(k.D) },
	}
	count := func(f func(groupKey) string) int {
		seen := map[string]bool{}
		for _, k := range keys {
			seen[f(k)] = true
		}
		return len(seen)
	}
	main := 0
	for i := range factors {
		if count(factors[i]) > count(factors[main]) {
			main = i
		}
	}
	colorOf, dashOf := map[string]int{}, map[string]int{}
	colors, dashes := make([]color.Color, len(keys)), make([]dash, len(keys))
	for i, k := range keys {
		var rest []string
		for f := range factors {
			if f != main {
				rest = append(rest, factors[f](k))
			}
		}
		c, ok := colorOf[factors[main](k)]
		if !ok {
			c = len(colorOf)
			colorOf[factors[main](k)] = c
		}
		d, ok := dashOf[strings.Join(rest, "\x00")]
		if !ok {
			d = len(dashOf)
			dashOf[strings.Join(rest, "\x00")] = d
		}
		colors[i], dashes[i] = sweepColor(c), dash(d)
	}
	if len(colorOf) > len(sweepColors) || len(dashOf) > int(numDashes) {
		for i := range keys {
			colors[i], dashes[i] = sweepColor(i), dash(i/len(sweepColors))
		}
	}
	return colors, dashes
}

// dropRelabelled drops the curves of rows that repeat another curve's runs under a second
// config label (fig-private-select's DP-GIBO at mu = 1 is the same runs at both
// currencies), keeping the first label, so that one run is drawn once.
func dropRelabelled(rows []records.Row) []records.Row {
	type curve struct {
		task, data, method, config string
		d                          int
	}
	keyOf := func(r records.Row) curve { return curve{r.Task, r.Data, r.Method, r.Config, r.D} }
	runs := map[curve]*strings.Builder{}
	var order []curve
	for _, r := range rows {
		k := keyOf(r)
		if runs[k] == nil {
			runs[k] = &strings.Builder{}
			order = append(order, k)
		}
		r.Config = ""
		fmt.Fprintf(runs[k], "%+v\n", r)
	}
	drop := map[curve]bool{}
	seen := map[string]bool{}
	for _, k := range order {
		fingerprint := fmt.Sprint(k.task, k.data, k.method, k.d) + "\n" + runs[k].String()
		drop[k] = seen[fingerprint]
		seen[fingerprint] = true
	}
	return slices.DeleteFunc(slices.Clone(rows), func(r records.Row) bool { return drop[keyOf(r)] })
}
