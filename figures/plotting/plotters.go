package plotting

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The drawing types of the figures, in the shape of gonum/plot's plotter package: each is a
// plot.Plotter (with DataRange, and the GlyphBoxes of the plotters it draws, which set the
// plot's padding) and a
// plot.Thumbnailer for the legend, built by a constructor that rejects data it cannot draw
// honestly.

// dash is the dash pattern of a curve. Together with its colour it tells the curves of a
// panel apart: no two curves of a panel share both (panel.claim).
type dash int

// The dash patterns, in the order they are handed out.
const (
	solid dash = iota
	dashed
	dotted
	dashDot
	numDashes
)

// pattern is the line dash pattern of d (nil for solid).
func (d dash) pattern() []vg.Length {
	switch d % numDashes {
	case dashed:
		return []vg.Length{vg.Points(5), vg.Points(3)}
	case dotted:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	case dashDot:
		return []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}
	}
	return nil
}

// medianBand draws a band: the interval [Lo, Hi] around the median over seeds as a
// translucent polygon (a thin vertical bar when the band has one abscissa; nothing with one
// seed) and the median as a line in a dash pattern. The interval is the confidence interval
// of the median when the band has enough seeds for bandLevel (band.IsCI), the range of the
// seeds otherwise; the panel's title and legend say which. Its legend thumbnail is the line's.
type medianBand struct {
	polygon *plotter.Polygon // nil with one seed
	line    *plotter.Line
}

// newMedianBand returns the drawing of b in colour c and dash pattern dash. b must have at
// least one point, equal lengths, finite values, Lo <= Median <= Hi at every x, and at least
// one seed.
func newMedianBand(b band, c color.Color, dash dash) (*medianBand, error) {
	n := len(b.X)
	switch {
	case n == 0:
		return nil, errors.New("median band: no points")
	case len(b.Median) != n || len(b.Lo) != n || len(b.Hi) != n:
		return nil, fmt.Errorf("median band: %d abscissae but %d medians, %d lower and %d upper limits", n, len(b.Median), len(b.Lo), len(b.Hi))
	case b.Seeds < 1:
		return nil, fmt.Errorf("median band: %d seeds", b.Seeds)
	}
	for i := range b.X {
		for _, v := range [...]float64{b.X[i], b.Median[i], b.Lo[i], b.Hi[i]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("median band: non-finite value %v at point %d", v, i)
			}
		}
		if !(b.Lo[i] <= b.Median[i] && b.Median[i] <= b.Hi[i]) {
			return nil, fmt.Errorf("median band: at x = %v the median %v is outside its interval [%v, %v]", b.X[i], b.Median[i], b.Lo[i], b.Hi[i])
		}
	}
	m := &medianBand{}
	if b.Seeds > 1 {
		poly := make(plotter.XYs, 0, 2*n)
		for i := range b.X {
			poly = append(poly, plotter.XY{X: b.X[i], Y: b.Hi[i]})
		}
		for i := n - 1; i >= 0; i-- {
			poly = append(poly, plotter.XY{X: b.X[i], Y: b.Lo[i]})
		}
		if n == 1 {
			poly = plotter.XYs{{X: b.X[0], Y: b.Lo[0]}, {X: b.X[0], Y: b.Hi[0]}}
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return nil, err
		}
		r, g, bl, _ := c.RGBA()
		pg.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 0x40}
		pg.LineStyle.Width = 0
		m.polygon = pg
	}
	line, err := plotter.NewLine(xys(b.X, b.Median))
	if err != nil {
		return nil, err
	}
	curveStyle(line, c, dash)
	m.line = line
	return m, nil
}

// Plot implements plot.Plotter: the band, then the median over it.
func (m *medianBand) Plot(c draw.Canvas, p *plot.Plot) {
	if m.polygon != nil {
		m.polygon.Plot(c, p)
	}
	m.line.Plot(c, p)
}

// DataRange implements plot.DataRanger: the extent of the band and the median.
func (m *medianBand) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = m.line.DataRange()
	if m.polygon != nil {
		pxmin, pxmax, pymin, pymax := m.polygon.DataRange()
		xmin, xmax, ymin, ymax = math.Min(xmin, pxmin), math.Max(xmax, pxmax), math.Min(ymin, pymin), math.Max(ymax, pymax)
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer: the median line's (the band draws no glyph).
func (m *medianBand) GlyphBoxes(p *plot.Plot) []plot.GlyphBox { return m.line.GlyphBoxes(p) }

// Thumbnail implements plot.Thumbnailer: the median's line.
func (m *medianBand) Thumbnail(c *draw.Canvas) { m.line.Thumbnail(c) }

// medianPoints draws, at each x, the median of a sample with an interval as an error bar
// (the confidence interval of the median when the sample is large enough for bandLevel, its
// range otherwise), the medians joined by a line and marked by circles. Its legend thumbnail
// is the line with a circle.
type medianPoints struct {
	bars  *plotter.YErrorBars
	line  *plotter.Line
	marks *plotter.Scatter
}

// medianCI is one point of medianPoints: x, the median and its interval.
type medianCI struct{ x, median, lo, hi float64 }

// newMedianPoints returns the drawing of pts in colour c and dash pattern dash. pts must not
// be empty, and each point must be finite with lo <= median <= hi.
func newMedianPoints(pts []medianCI, c color.Color, dash dash) (*medianPoints, error) {
	if len(pts) == 0 {
		return nil, errors.New("median points: no points")
	}
	var data errPoints
	for i, p := range pts {
		for _, v := range [...]float64{p.x, p.median, p.lo, p.hi} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("median points: non-finite value %v at point %d", v, i)
			}
		}
		if !(p.lo <= p.median && p.median <= p.hi) {
			return nil, fmt.Errorf("median points: at x = %v the median %v is outside its interval [%v, %v]", p.x, p.median, p.lo, p.hi)
		}
		data.XYs = append(data.XYs, plotter.XY{X: p.x, Y: p.median})
		data.YErrors = append(data.YErrors, struct{ Low, High float64 }{p.median - p.lo, p.hi - p.median})
	}
	bars, err := plotter.NewYErrorBars(data)
	if err != nil {
		return nil, err
	}
	bars.LineStyle.Color = c
	bars.LineStyle.Width = vg.Points(1.2)
	bars.CapWidth = vg.Points(6)
	line, marks, err := plotter.NewLinePoints(data.XYs)
	if err != nil {
		return nil, err
	}
	curveStyle(line, c, dash)
	marks.Color = c
	marks.Shape = draw.CircleGlyph{}
	marks.Radius = vg.Points(3)
	return &medianPoints{bars: bars, line: line, marks: marks}, nil
}

// errPoints are medians with the half-widths of their intervals, as plotter.YErrorBars
// reads them.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// Plot implements plot.Plotter: the error bars, the line, then the marks.
func (m *medianPoints) Plot(c draw.Canvas, p *plot.Plot) {
	m.bars.Plot(c, p)
	m.line.Plot(c, p)
	m.marks.Plot(c, p)
}

// DataRange implements plot.DataRanger: the extent of the intervals.
func (m *medianPoints) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = m.bars.DataRange()
	for _, r := range []plot.DataRanger{m.line, m.marks} {
		a, b, c, d := r.DataRange()
		xmin, xmax, ymin, ymax = math.Min(xmin, a), math.Max(xmax, b), math.Min(ymin, c), math.Max(ymax, d)
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer: the caps of the bars, the line's points and the
// circles.
func (m *medianPoints) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := append(m.bars.GlyphBoxes(p), m.line.GlyphBoxes(p)...)
	return append(boxes, m.marks.GlyphBoxes(p)...)
}

// Thumbnail implements plot.Thumbnailer: the line with a circle.
func (m *medianPoints) Thumbnail(c *draw.Canvas) {
	m.line.Thumbnail(c)
	m.marks.Thumbnail(c)
}

// curveStyle is the style of every median curve: colour c, 1.5 pt, in dash pattern dash.
func curveStyle(line *plotter.Line, c color.Color, dash dash) {
	line.Color = c
	line.Width = vg.Points(1.5)
	line.Dashes = dash.pattern()
}
