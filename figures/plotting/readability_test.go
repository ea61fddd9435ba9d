package plotting

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"dpgibo/figures/stats"
	"dpgibo/internal/records"
)

// allDrawings returns every drawing of the small inputs: each figure and, where f* is
// known (fig1 and fig-private here), its suboptimality variant.
func allDrawings(t *testing.T) []drawing {
	t.Helper()
	in := t.TempDir()
	smallInputs(t, in)
	writeCSV(t, in, "fstar", []records.FStar{
		{Task: "grouplasso", Data: "synthetic", D: 2, NUsers: 10, FStar: 0.05, ThetaSource: "test"},
		{Task: "grouplasso", Data: "synthetic", D: 10, NUsers: 10, FStar: 0.06, ThetaSource: "test"},
		{Task: "svr", Data: "ctslice-synthetic", D: 103, NUsers: 10, FStar: 0.01, ThetaSource: "test"},
	})
	inputs, err := Load(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []drawing
	for _, f := range inputs.figures {
		d, err := f.panels()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d...)
	}
	for _, want := range []string{"fig1-gap", "fig-private-gap"} {
		if !containsDrawing(out, want) {
			t.Fatalf("no drawing %s among the small inputs'", want)
		}
	}
	return out
}

func containsDrawing(ds []drawing, name string) bool {
	for _, d := range ds {
		if d.name == name {
			return true
		}
	}
	return false
}

// panelsOf returns the panels of a drawing in reading order.
func panelsOf(d drawing) []*panel {
	var out []*panel
	for _, row := range d.panels {
		for _, p := range row {
			if p != nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// Layouts fill every cell: three panels make a row of three, four a 2 x 2 grid, a drawing
// of equally long rows keeps them, and no figure of the small inputs has an empty cell.
func TestLayoutLeavesNoCellEmpty(t *testing.T) {
	mk := func(n int) []*panel {
		out := make([]*panel, n)
		for i := range out {
			out[i] = newPlot(fmt.Sprint(i), "x", "y")
		}
		return out
	}
	shape := func(grid [][]*panel) string {
		var s []string
		for _, row := range grid {
			s = append(s, fmt.Sprint(len(row)))
		}
		return strings.Join(s, "+")
	}
	for _, c := range []struct {
		in   [][]*panel
		want string
	}{
		{[][]*panel{mk(1)}, "1"},
		{[][]*panel{mk(2)}, "2"},
		{[][]*panel{mk(3)}, "3"},
		{[][]*panel{mk(2), mk(1)}, "3"},        // fig3ab: (a), (b), then the SNR panel
		{[][]*panel{mk(3), mk(1)}, "2+2"},      // fig1: three d, then the SNR panel
		{[][]*panel{mk(4)}, "2+2"},             // never a row of four
		{[][]*panel{mk(3), mk(3)}, "3+3"},      // fig-peers: tasks, then their SNR
		{[][]*panel{mk(1), mk(1), mk(1)}, "3"}, // a column of one is a strip: re-flowed
		{[][]*panel{mk(3), mk(3), mk(3)}, "3+3+3"},
		{[][]*panel{mk(6)}, "3+3"},
	} {
		if got := shape(layout(c.in)); got != c.want {
			t.Errorf("layout of %s: %s, want %s", shape(c.in), got, c.want)
		}
	}
	for _, d := range allDrawings(t) {
		grid := layout(d.panels)
		for i, row := range grid {
			if len(row) != len(grid[0]) {
				t.Errorf("%s: row %d has %d panels, row 1 has %d: an empty cell", d.name, i+1, len(row), len(grid[0]))
			}
			for j, p := range row {
				if p == nil {
					t.Errorf("%s: cell (%d, %d) is empty", d.name, i+1, j+1)
				}
			}
		}
	}
}

// epsilon is the privacy budget's letter: no title, axis or legend may use it (or "eps")
// for anything else, such as the adaptive batch's bias tolerance (BiasTol).
var epsilon = regexp.MustCompile(`(?i)ε|\beps(ilon)?\b`)

func TestNoLabelCallsBiasTolEpsilon(t *testing.T) {
	sawBiasTol := false
	for _, d := range allDrawings(t) {
		for _, p := range panelsOf(d) {
			texts := []string{p.Title.Text, p.X.Label.Text, p.Y.Label.Text}
			for _, e := range p.legend {
				texts = append(texts, e.name)
				sawBiasTol = sawBiasTol || strings.HasPrefix(e.name, "BiasTol = ")
			}
			for _, s := range texts {
				if epsilon.MatchString(s) {
					t.Errorf("%s: %q uses the privacy budget's epsilon", d.name, s)
				}
			}
		}
	}
	if !sawBiasTol {
		t.Error("no legend entry BiasTol = ... (fig3ab's sweep)")
	}
	if got := configLegend("bias_tol=0.5"); got != "BiasTol = 0.5" {
		t.Errorf("bias_tol=0.5 in a legend: %q", got)
	}
}

// No two curves of a panel share a colour and a dash pattern, in every figure and in an SNR
// panel with more curves than colours.
func TestCurveStylesDistinctInEveryPanel(t *testing.T) {
	check := func(where string, p *panel) int {
		seen := map[style]string{}
		n := 0
		for _, e := range p.legend {
			if !e.curve {
				continue
			}
			n++
			if other, ok := seen[e.style]; ok {
				t.Errorf("%s: %q and %q share colour %v and dash %d", where, other, e.name, e.style.color, e.style.dash)
			}
			seen[e.style] = e.name
		}
		return n
	}
	for _, d := range allDrawings(t) {
		for _, p := range panelsOf(d) {
			check(d.name+": "+strings.SplitN(p.Title.Text, "\n", 2)[0], p)
		}
	}
	// One task, 3 mu x 4 d: 12 curves on one SNR panel.
	// (Generated together, so that each mu's runs differ: the same runs under two labels
	// are one curve, TestSNRDrawsARelabelledRunOnce.)
	rows := traceRows("fig-private", "grouplasso", "synthetic", []int{2, 5, 10, 20}, []string{"mu=1", "mu=0.5", "mu=0.2"}, []string{"dpgibo"}, 3, 4)
	panels, err := snrPanels(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 1 {
		t.Fatalf("%d SNR panels for one task", len(panels))
	}
	if n := check("crowded SNR panel", panels[0]); n != 12 {
		t.Errorf("%d curves on the crowded SNR panel, want 12", n)
	}
	// Two tasks: one SNR panel each.
	rows = append(rows, traceRows("fig-private", "gpreg", "synthetic", []int{2}, []string{"mu=1"}, []string{"dpgibo"}, 3, 4)...)
	if panels, err := snrPanels(rows); err != nil || len(panels) != 2 {
		t.Errorf("two tasks: %d SNR panels (%v), want 2", len(panels), err)
	}
	// claim hands out every colour and dash pattern before it repeats one.
	p := newPlot("t", "x", "y")
	for i := range len(sweepColors) * int(numDashes) {
		c, dash := p.claim(sweepColors[0], solid)
		p.addCurve(fmt.Sprint(i), nil, c, dash, 6, 6, true)
	}
	check("claimed panel", p)
}

// The interval around a median is called a 95% CI only with enough seeds for one (6 at
// 95%, stats.MedianCI); with fewer the title and legend call it the seeds' range.
func TestBandsCalledCIOnlyWithEnoughSeeds(t *testing.T) {
	band := func(seeds int) band {
		series := map[int][]point{}
		for s := 1; s <= seeds; s++ {
			series[s] = []point{{0, float64(s)}, {1, float64(2 * s)}}
		}
		return summarise(series)
	}
	for n := 1; n <= 12; n++ {
		b := band(n)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i + 1)
		}
		_, _, coverage := stats.MedianCI(vals, bandLevel)
		if b.IsCI() != (coverage >= bandLevel) || b.IsCI() != (n >= 6) {
			t.Errorf("%d seeds: IsCI %v, coverage %v (stats.MedianCI %v)", n, b.IsCI(), b.Coverage, coverage)
		}
		if n <= 5 && (b.Lo[0] != 1 || b.Hi[0] != float64(n)) {
			t.Errorf("%d seeds: band [%v, %v], want their range [1, %d]", n, b.Lo[0], b.Hi[0], n)
		}
	}
	title := func(names map[string]int) (string, map[string]string) {
		p := newPlot("t", "x", "y")
		for _, name := range []string{"A", "B"} {
			if n, ok := names[name]; ok {
				if err := addBand(p, band(n), name, sweepColor(0), solid); err != nil {
					t.Fatal(err)
				}
			}
		}
		p.finish()
		legend := map[string]string{}
		for _, e := range p.legend {
			legend[e.name[:1]] = e.name
		}
		return p.Title.Text, legend
	}
	if got, legend := title(map[string]int{"A": 12}); !strings.HasSuffix(got, "median of 12 seeds, band: 95% CI of the median") || legend["A"] != "A" {
		t.Errorf("12 seeds: title %q, legend %v", got, legend)
	}
	for _, n := range []int{2, 5} {
		got, legend := title(map[string]int{"A": n})
		if !strings.HasSuffix(got, fmt.Sprintf("median of %d seeds, band: min-max (too few seeds for a 95%% CI)", n)) || legend["A"] != "A" {
			t.Errorf("%d seeds: title %q, legend %v", n, got, legend)
		}
	}
	got, legend := title(map[string]int{"A": 12, "B": 3})
	if !strings.HasSuffix(got, "median of 3-12 seeds, band: 95% CI of the median (min-max where marked)") ||
		legend["A"] != "A" || legend["B"] != "B (3 seeds: min-max)" {
		t.Errorf("12 and 3 seeds: title %q, legend %v", got, legend)
	}
	// Error bars of 2 values per d: their range, said so.
	p := newPlot("t", "d", "y")
	if _, err := addPointsCI(p, []float64{1, 2}, [][]float64{{1, 3}, {2, 4}}, 0, "A", sweepColor(0), solid); err != nil {
		t.Fatal(err)
	}
	p.finish()
	if !strings.HasSuffix(p.Title.Text, "median of 2 seeds, bars: min-max (too few seeds for a 95% CI)") {
		t.Errorf("bars of 2 seeds: title %q", p.Title.Text)
	}
}

// Placed at its size on its figure, every panel's title fits its tile in lines, every tile
// lies within the figure (no title cut at an edge), every legend lies within its panel and
// above the data, and placing changes nothing for good.
func TestTextFitsAndLegendsClearTheData(t *testing.T) {
	for _, d := range allDrawings(t) {
		grid := layout(d.panels)
		w, h, err := figureSize(grid)
		if err != nil {
			t.Fatal(err)
		}
		type saved struct {
			title, label string
			top          float64
		}
		before := map[*panel]saved{}
		for _, p := range panelsOf(d) {
			before[p] = saved{p.Title.Text, p.Y.Label.Text, p.Y.Max}
		}
		placed, restore := place(grid, draw.New(vgimg.New(w, h)))
		for _, pp := range placed {
			where := d.name + ": " + strings.SplitN(before[pp.panel].title, "\n", 2)[0]
			c := pp.canvas
			if c.Min.X < -0.01 || c.Min.Y < -0.01 || c.Max.X > w+0.01 || c.Max.Y > h+0.01 {
				t.Errorf("%s: tile %v reaches outside the %v x %v figure", where, c.Rectangle, w, h)
			}
			width := c.Max.X - c.Min.X
			for _, line := range strings.Split(pp.Title.Text, "\n") {
				if lw := pp.Title.TextStyle.Width(line); lw > width {
					t.Errorf("%s: title line %q is %.0f pt wide, its tile %.0f pt", where, line, lw, width)
				}
			}
			if pp.Title.TextStyle.Font.Size < labelFontSize {
				t.Errorf("%s: title font shrunk to %v pt", where, pp.Title.TextStyle.Font.Size.Points())
			}
			area := c
			area.Max.Y -= pp.Title.TextStyle.Rectangle(pp.Title.Text).Size().Y + pp.Title.Padding
			legend := pp.Legend.Rectangle(area)
			if legend.Size().Y == 0 {
				continue
			}
			if legend.Min.X < c.Min.X {
				t.Errorf("%s: the legend reaches left of the panel", where)
			}
			bottom := legend.Min.Y - pp.Legend.TextStyle.FontExtents().Descent + pp.Legend.YOffs
			dc := pp.DataCanvas(c)
			if top := dc.Y(pp.Y.Norm(before[pp.panel].top)); top > bottom {
				t.Errorf("%s: the data reach %.1f pt above the legend's bottom", where, (top - bottom).Points())
			}
		}
		restore()
		for p, s := range before {
			if p.Title.Text != s.title || p.Y.Label.Text != s.label || p.Y.Max != s.top {
				t.Errorf("%s: placing left title %q, y label %q, y max %v", d.name, p.Title.Text, p.Y.Label.Text, p.Y.Max)
			}
		}
	}
}

// The same panels draw the same bytes, however often they are drawn.
func TestDrawingIsRepeatable(t *testing.T) {
	for _, d := range allDrawings(t) {
		if d.name != "fig-private" && d.name != "fig3ab" {
			continue
		}
		a, err := drawPanels(d.panels, "png")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := drawPanels(d.panels, "png")
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two drawings differ", d.name)
		}
	}
}

// Log axes label at least two ticks in their range, and at most a handful.
func TestLogTicksLabelEnough(t *testing.T) {
	for _, r := range [][2]float64{{0.25, 5}, {0.15, 0.4}, {1e-9, 10}, {0.011, 0.5}, {3, 7}, {1e-6, 1e8}} {
		n := 0
		for _, tk := range (logTicks{}).Ticks(r[0], r[1]) {
			if tk.Value < r[0]*(1-1e-9) || tk.Value > r[1]*(1+1e-9) {
				t.Errorf("range %v: tick %v outside it", r, tk.Value)
			}
			if tk.Label != "" {
				n++
			}
		}
		if n < 2 || n > 6 {
			t.Errorf("range %v: %d labelled ticks", r, n)
		}
	}
	if got := (trimTicks{}).Ticks(0, 75); !hasLabel(got, "25") || hasLabel(got, "25.00") {
		t.Errorf("linear ticks of [0, 75]: %v", got)
	}
}

func hasLabel(ticks []plot.Tick, label string) bool {
	for _, tk := range ticks {
		if tk.Label == label {
			return true
		}
	}
	return false
}

// TestSNRDrawsARelabelledRunOnce: the same runs under a second config label (fig-private-
// select's DP-GIBO at mu = 1 at both currencies) make one SNR curve, not two on top of
// each other; runs that differ keep their curve.
func TestSNRDrawsARelabelledRunOnce(t *testing.T) {
	rows := traceRows("fig-private-select", "grouplasso", "synthetic", []int{2}, []string{"mu=1", "mu=0.5"}, []string{"dpgibo"}, 3, 4)
	relabelled := traceRows("fig-private-select", "grouplasso", "synthetic", []int{2}, []string{"mu=1"}, []string{"dpgibo"}, 3, 4)
	for i := range relabelled {
		relabelled[i].Config = "currency=gdp,mu=1"
	}
	kept := dropRelabelled(append(rows, relabelled...))
	configs := distinct(kept, func(r records.Row) string { return r.Config })
	if len(kept) != len(rows) || !slices.Equal(configs, []string{"mu=1", "mu=0.5"}) {
		t.Errorf("kept %d rows of configs %v; want the %d rows of mu=1 and mu=0.5", len(kept), configs, len(rows))
	}
	panels, err := snrPanels(append(rows, relabelled...))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range panels[0].legend {
		names = append(names, e.name)
	}
	if len(names) != 3 { // two curves and the SNR = 1 line
		t.Errorf("SNR legend %v: want the two distinct curves and the reference line", names)
	}
}
