package plotting

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// panel is one plot being built: the gonum plot with what its title, legend and curve styles
// need (gonum's Legend does not expose its entries). The legend is written into the plot by
// finish, which also says in the title what the curves and their bands are; the room the
// legend needs above the data, the wrapping of the title and the y label are settled when
// the panel is drawn at its size (drawPanels).
type panel struct {
	*plot.Plot
	legend []legendEntry
	// bands and bars record whether the panel draws medianBands, medianPoints or both.
	bands, bars bool
}

// legendEntry is one entry of a panel's legend: a median curve, or a reference line.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
	// curve is set for a median over seeds; seeds is the fewest and most seeds behind one of
	// its medians, ci whether every interval drawn around them is a bandLevel confidence
	// interval of the median (else some are the range of too few seeds).
	curve              bool
	minSeeds, maxSeeds int
	ci                 bool
	style              style
}

// style is a curve's colour and dash pattern; no two curves of a panel share one.
type style struct {
	color color.RGBA
	dash  dash
}

func rgba(c color.Color) color.RGBA { return color.RGBAModel.Convert(c).(color.RGBA) }

// newPlot returns a panel with the project's style.
func newPlot(title, x, y string) *panel {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(14)
	p.Title.TextStyle.Font.Size = labelFontSize
	p.X.Label.TextStyle.Font.Size = labelFontSize
	p.Y.Label.TextStyle.Font.Size = labelFontSize
	p.X.Tick.Label.Font.Size = tickFontSize
	p.Y.Tick.Label.Font.Size = tickFontSize
	p.Legend.TextStyle.Font.Size = tickFontSize
	p.X.Tick.Marker = trimTicks{}
	p.Y.Tick.Marker = trimTicks{}
	p.Add(plotter.NewGrid())
	return &panel{Plot: p}
}

// claim returns the style a new curve of p is drawn in: colour c and dash when no curve of p
// has that pair yet, otherwise the first free pair of the same colour in another dash, then
// of the sweep colours. It panics with more curves than styles (len(sweepColors) colours
// times the dash patterns, and any method colours): no panel that crowded is readable.
func (p *panel) claim(c color.Color, dash dash) (color.Color, dash) {
	taken := func(s style) bool {
		return slices.ContainsFunc(p.legend, func(e legendEntry) bool { return e.curve && e.style == s })
	}
	want := style{rgba(c), dash % numDashes}
	candidates := []style{want}
	for d := range numDashes {
		candidates = append(candidates, style{want.color, d})
	}
	for d := range numDashes {
		for _, sc := range sweepColors {
			candidates = append(candidates, style{rgba(sc), d})
		}
	}
	for _, s := range candidates {
		if !taken(s) {
			return s.color, s.dash
		}
	}
	panic(fmt.Sprintf("plotting: more than %d curves in one panel", len(candidates)-1))
}

// addCurve adds a median curve drawn in colour c and dash to p's legend under name.
func (p *panel) addCurve(name string, thumb plot.Thumbnailer, c color.Color, dash dash, minSeeds, maxSeeds int, ci bool) {
	p.legend = append(p.legend, legendEntry{name: name, thumbs: []plot.Thumbnailer{thumb}, curve: true,
		minSeeds: minSeeds, maxSeeds: maxSeeds, ci: ci, style: style{rgba(c), dash % numDashes}})
}

// addLegend adds an entry that is not a median curve (a reference line) to p's legend.
func (p *panel) addLegend(name string, thumbs ...plot.Thumbnailer) {
	p.legend = append(p.legend, legendEntry{name: name, thumbs: thumbs})
}

// addBand draws a band (newMedianBand) on p and adds its median to the legend under name,
// in colour c and dash unless another curve of p has that style (panel.claim).
func addBand(p *panel, b band, name string, c color.Color, dash dash) error {
	if len(b.X) == 0 {
		return nil
	}
	c, dash = p.claim(c, dash)
	mb, err := newMedianBand(b, c, dash)
	if err != nil {
		return err
	}
	p.Add(mb)
	p.bands = true
	p.addCurve(name, mb, c, dash, b.Seeds, b.Seeds, b.IsCI())
	return nil
}

// finish writes p's legend and says in its title what the curves show: the median over how
// many seeds, and whether the band (or bars) around it is the bandLevel confidence interval
// of the median or, with too few seeds for one, the range of the seeds. When only some
// curves have too few seeds, their legend entries say so.
func (p *panel) finish() {
	var curves []legendEntry
	for _, e := range p.legend {
		if e.curve {
			curves = append(curves, e)
		}
	}
	mixed := false
	if len(curves) > 0 {
		lo, hi := curves[0].minSeeds, curves[0].maxSeeds
		allCI, noCI := true, true
		for _, e := range curves {
			lo, hi = min(lo, e.minSeeds), max(hi, e.maxSeeds)
			allCI = allCI && e.ci
			noCI = noCI && !e.ci
		}
		what := "band"
		if p.bars && !p.bands {
			what = "bars"
		}
		level := fmt.Sprintf("%.0f%%", 100*bandLevel)
		seeds := seedRange(lo, hi)
		var note string
		switch {
		case allCI:
			note = fmt.Sprintf("median of %s seeds, %s: %s CI of the median", seeds, what, level)
		case hi == 1:
			note = "one seed"
		case noCI:
			note = fmt.Sprintf("median of %s seeds, %s: min-max (too few seeds for a %s CI)", seeds, what, level)
		default:
			mixed = true
			note = fmt.Sprintf("median of %s seeds, %s: %s CI of the median (min-max where marked)", seeds, what, level)
		}
		p.Title.Text += "\n" + note
	}
	for i, e := range p.legend {
		if mixed && e.curve && !e.ci {
			if e.maxSeeds == 1 {
				p.legend[i].name += " (1 seed)"
			} else {
				p.legend[i].name += fmt.Sprintf(" (%s seeds: min-max)", seedRange(e.minSeeds, e.maxSeeds))
			}
		}
		p.Legend.Add(p.legend[i].name, e.thumbs...)
	}
}

// seedRange prints a number of seeds, or a range of them ("3-12").
func seedRange(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
}

// legendGap is the free space kept between a panel's legend and its data.
var legendGap = vg.Points(4)

// fit prepares p to be drawn in a tile width wide, before the tiles are aligned: its title
// is wrapped to the width (fitTitle; wrap wraps the original title again to a narrower
// width), and its y label is swapped for a placeholder of the same thickness that draw
// replaces by the label centred on the data (gonum places the label's glyph box at the
// arithmetic middle of the axis range, near the top of a log axis, and shrinks the data
// area to make room for it). restore undoes every change fit, wrap and legendRoom make, so
// that the panel draws the same in every format.
func (p *panel) fit(width vg.Length) (yLabel string, wrap func(vg.Length), restore func()) {
	title, titleSize, label, yMax := p.Title.Text, p.Title.TextStyle.Font.Size, p.Y.Label.Text, p.Y.Max
	wrap = func(width vg.Length) {
		p.Title.Text, p.Title.TextStyle.Font.Size = title, titleSize
		fitTitle(&p.Title.TextStyle, &p.Title.Text, width)
	}
	wrap(width)
	if label != "" && !strings.Contains(label, "\n") {
		yLabel = label
		p.Y.Label.Text = " "
	}
	return yLabel, wrap, func() {
		p.Title.Text, p.Title.TextStyle.Font.Size, p.Y.Label.Text, p.Y.Max = title, titleSize, label, yMax
	}
}

// titleFits reports whether every line of p's title is at most width wide.
func (p *panel) titleFits(width vg.Length) bool {
	for _, line := range strings.Split(p.Title.Text, "\n") {
		if p.Title.TextStyle.Width(line) > width {
			return false
		}
	}
	return true
}

// legendRoom raises the top of p's y axis so that its legend, in the top corner of the data
// area of canvas c, sits above the data instead of over it. It starts from the data's
// own top each time (top). The data area itself depends a little on the axis' top (gonum
// pads it for the glyphs and tick labels at its edges), so the top is settled in a few
// rounds.
func (p *panel) legendRoom(c draw.Canvas, top float64) {
	p.Y.Max = top
	area := c
	if p.Title.Text != "" {
		area.Max.Y -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}
	height := p.Legend.Rectangle(area).Size().Y
	if height == 0 || !p.Legend.Top || !(top > p.Y.Min) {
		return
	}
	bottom := area.Max.Y - height - p.Legend.TextStyle.FontExtents().Descent + p.Legend.YOffs - legendGap
	_, logY := p.Y.Scale.(plot.LogScale)
	logY = logY && p.Y.Min > 0
	// The top only grows: a higher top can bring a tick label to the top edge, whose
	// padding lowers the data area again.
	for range 6 {
		dc := p.DataCanvas(c)
		free := float64((bottom - dc.Min.Y) / (dc.Max.Y - dc.Min.Y))
		free = max(free, 0.3) // a legend taller than the panel: keep some of the data readable
		want := p.Y.Min + (top-p.Y.Min)/free
		if logY {
			want = p.Y.Min * math.Pow(top/p.Y.Min, 1/free)
		}
		if want <= p.Y.Max {
			return
		}
		p.Y.Max = want
	}
}

// draw draws p on c, with yLabel (from fit) as its y label centred on the data area.
func (p *panel) draw(c draw.Canvas, yLabel string) {
	p.Draw(c)
	if yLabel == "" {
		return
	}
	// As gonum's vertical axis draws its label, but at the middle of the data area.
	sty := p.Y.Label.TextStyle
	rotated := sty
	rotated.Rotation += math.Pi / 2
	x := c.Min.X + sty.Height(yLabel) - sty.FontExtents().Descent
	dc := p.DataCanvas(c)
	c.FillText(rotated, vg.Point{X: x, Y: (dc.Min.Y + dc.Max.Y) / 2}, yLabel)
}

// fitTitle wraps the lines of title wider than width: at ", ", ": " and "; " first, then
// between words. A word still wider than width makes the font smaller (not below 7 pt).
func fitTitle(sty *text.Style, title *string, width vg.Length) {
	var lines []string
	for _, line := range strings.Split(*title, "\n") {
		lines = append(lines, wrapLine(*sty, line, width)...)
	}
	*title = strings.Join(lines, "\n")
	widest := vg.Length(0)
	for _, l := range lines {
		widest = max(widest, sty.Width(l))
	}
	if widest > width {
		sty.Font.Size = max(vg.Points(7), sty.Font.Size*width/widest)
	}
}

// wrapLine breaks line into lines no wider than width where it can: first at the clauses
// of the title (after ", ", ": " or "; "), then a clause still too wide between its words.
func wrapLine(sty text.Style, line string, width vg.Length) []string {
	if sty.Width(line) <= width {
		return []string{line}
	}
	var clauses []string
	start := 0
	for i := 0; i+1 < len(line); i++ {
		if strings.IndexByte(",:;", line[i]) >= 0 && line[i+1] == ' ' {
			clauses = append(clauses, line[start:i+1])
			start = i + 2
		}
	}
	clauses = append(clauses, line[start:])
	var pieces []string
	for _, cl := range clauses {
		if sty.Width(cl) <= width {
			pieces = append(pieces, cl)
			continue
		}
		pieces = append(pieces, greedy(sty, strings.Fields(cl), width)...)
	}
	return greedy(sty, pieces, width)
}

// greedy joins words with spaces into as few lines no wider than width as it can, in order.
func greedy(sty text.Style, words []string, width vg.Length) []string {
	var out []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "":
			cur = w
		case sty.Width(cur+" "+w) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func xys(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return out
}

// logYIfWide switches p's y axis to a log scale when every plotted value is positive and
// they span more than a factor of 20, so that curves far apart stay readable.
func logYIfWide(p *panel, values []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > 0 && hi/lo > 20 {
		setLogY(p.Plot)
	}
}

// setLogY puts p's y axis on a log scale with logTicks.
func setLogY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
}

// trimTicks are gonum's default ticks with their labels shortened: no trailing zeros after
// the decimal point ("25", not "25.00").
type trimTicks struct{}

// Ticks implements plot.Ticker.
func (trimTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if strings.Contains(t.Label, ".") && !strings.ContainsAny(t.Label, "eE") {
			ticks[i].Label = strings.TrimSuffix(strings.TrimRight(t.Label, "0"), ".")
		}
	}
	return ticks
}

// logTicks are the ticks of a log axis: a tick at every m 10^k (m = 1..9) in the range,
// labelled at the powers of ten. When fewer than two powers of ten fall in the range the
// ticks at 2 and 5 times a power of ten (then every tick) are labelled too, and when more
// than six do only every second (third, ...) power of ten keeps its label.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && max >= min) {
		return nil
	}
	type mark struct {
		tick     plot.Tick
		mantissa int
	}
	var marks []mark
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			marks = append(marks, mark{plot.Tick{Value: v}, m})
		}
	}
	labelled := 0
	label := func(keep func(m int) bool) {
		for i := range marks {
			if marks[i].tick.Label == "" && keep(marks[i].mantissa) {
				marks[i].tick.Label = strconv.FormatFloat(marks[i].tick.Value, 'g', 6, 64)
				labelled++
			}
		}
	}
	label(func(m int) bool { return m == 1 })
	if labelled < 2 {
		label(func(m int) bool { return m == 2 || m == 5 })
	}
	if labelled < 2 {
		label(func(int) bool { return true })
	}
	if labelled > 6 {
		step, k := (labelled+5)/6, 0
		for i := range marks {
			if marks[i].tick.Label == "" {
				continue
			}
			if k%step != 0 {
				marks[i].tick.Label = ""
			}
			k++
		}
	}
	ticks := make([]plot.Tick, len(marks))
	for i, m := range marks {
		ticks[i] = m.tick
	}
	return ticks
}
