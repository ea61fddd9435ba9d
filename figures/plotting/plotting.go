// Package plotting draws the figures of the DP-GIBO paper from the runner's CSV files
// alone (see package dpgibo/internal/records for the columns), with gonum/plot: the
// median over seeds with the 95% confidence band of the median (the seeds' range, said so,
// when there are too few seeds for that interval), the paper's axes and legend names
// (DP-GIBO, GIBO, Random Search, UCB-BO; DP-Random and DP-UCB for the private comparison),
// each figure as PNG, SVG and PDF.
//
// Figures on the SVR task carry the data label in their titles, so results on the
// stand-in data ("ctslice-synthetic") are never mistaken for CT-slice results.
package plotting

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"dpgibo/baselines/registry"
	"dpgibo/internal/rates"
	"dpgibo/internal/records"
	_ "dpgibo/private" // registers dp-auto, whose legend and colour the figures show
	"dpgibo/tasks/catalog"
)

// Formats are the file formats every figure is written in.
var Formats = []string{"png", "svg", "pdf"}

// panelWidth and panelHeight are the size of one panel of a figure; maxColumns panels at
// most share a row (more panels wrap onto further rows, layout), and a figure is never
// wider than maxAspect times its height (a single row of panels is drawn taller), so a
// figure is never a strip. Images are rendered at a resolution that makes them at least
// minPixelWidth pixels wide (and at least 200 dpi); fonts are sized in points, so they keep
// their size in print.
var (
	panelWidth    = 4.6 * vg.Inch
	panelHeight   = 3.8 * vg.Inch
	maxColumns    = 3
	maxAspect     = 2.5
	minPixelWidth = 1600
	tickFontSize  = vg.Points(11)
	labelFontSize = vg.Points(12)
)

// figure is a renderer: it reads NAME.csv from the input directory and returns the panels
// (rows of plots) to draw.
type figure struct {
	theta bool // the CSV holds records.ThetaRow
	draw  func(name string, rows []records.Row, theta []records.ThetaRow) ([][]*panel, error)
}

// renderers maps every figure name to its drawing.
var renderers = withDesignStudy(map[string]figure{
	"fig1":          {draw: drawAcrossD},
	"fig2a":         {draw: drawAcrossD},
	"fig2a-b3":      {draw: drawAcrossD},
	"fig2b":         {draw: drawAcrossD},
	"fig2b-real":    {draw: drawAcrossD},
	"fig3f":         {theta: true, draw: drawThetaPaths},
	"fig3ab":        {draw: drawBiasTol},
	"speedup":       {draw: drawBiasTol},
	"fig3c":         {draw: drawSweepByIter},
	"fig3d":         {draw: drawFinalByNoise},
	"noise-misspec": {draw: drawMisspec},
	"clip-sweep":    {draw: drawSweepByIter},
	"fig2a-clip":    {draw: drawSweepByIter},
	"fig-private":   {draw: drawPrivate},
	// fig-private-select: one row of panels per privacy level (mu = 1 and 0.5 at the primary
	// currency, mu = 1 at the secondary), one per task.
	"fig-private-select": {draw: drawPrivate},
	"fig-peers":          {draw: drawPeers},
	// The library study's figures (experiments -suite=defaults): one curve per setting.
	"defaults-grouplasso": {draw: drawSweepByIter},
	"defaults-gpreg":      {draw: drawSweepByIter},
	"defaults-svr":        {draw: drawSweepByIter},
	"defaults-bowl":       {draw: drawSweepByIter},
	"defaults-ridge":      {draw: drawSweepByIter},
})

// designStudyBases are the paper figures the design study (experiments -suite=design)
// covers; its figures design-NAME and joint-NAME draw like NAME.
var designStudyBases = []string{"fig1", "fig2a", "fig2b", "fig2b-real", "fig3d", "fig3ab", "fig3c", "noise-misspec"}

// precisionStudyBases are the figures the svr precision study (experiments
// -suite=precision) covers; its figures f32-NAME draw like NAME.
var precisionStudyBases = []string{"fig2b", "fig2b-real", "fig3f", "fig-private", "fig-peers"}

// withDesignStudy adds the design study's and the precision study's figures to m.
func withDesignStudy(m map[string]figure) map[string]figure {
	for _, base := range designStudyBases {
		m["design-"+base], m["joint-"+base] = m[base], m[base]
	}
	for _, base := range precisionStudyBases {
		m["f32-"+base] = m[base]
	}
	return m
}

// Names returns the figure names this package can draw, sorted.
func Names() []string {
	names := make([]string, 0, len(renderers)+1)
	for n := range renderers {
		names = append(names, n)
	}
	names = append(names, theoryName)
	sort.Strings(names)
	return names
}

// theoryName is the figure of the theory sweep, drawn from TheoryFile (RenderTheory).
const theoryName = "theory"

// RenderDir draws every figure whose CSV (NAME.csv or NAME.csv.gz) is in inDir, and
// theory.png when inDir holds the theory sweep's theory_sweep.csv, or only those in names
// when names is not empty, into outDir as NAME.png, NAME.svg and NAME.pdf. It returns the
// files written. A name this package does not know whose CSV is there is a figure of
// one's own, drawn as the figures across d are (ownFigure). A figure named in names whose
// CSV is absent, or an inDir holding no figure CSV at all, is an error. Every input is read and checked, and every
// figure drawn, before the first file is written (Load, inputs.Draw, records.WriteFiles): on an
// error outDir is left as it was.
func RenderDir(inDir, outDir string, names []string) ([]string, error) {
	return RenderDirAs(inDir, outDir, names, Formats)
}

// RenderDirAs is RenderDir in the given formats (a subset of Formats).
func RenderDirAs(inDir, outDir string, names, formats []string) ([]string, error) {
	if err := checkFormats(formats); err != nil {
		return nil, err
	}
	in, err := Load(inDir, names)
	if err != nil {
		return nil, err
	}
	files, err := in.Draw(formats)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	return records.WriteFiles(outDir, files)
}

// checkFormats checks that formats is a non-empty subset of Formats.
func checkFormats(formats []string) error {
	for _, f := range formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("unknown format %q (known: %s)", f, strings.Join(Formats, ", "))
		}
	}
	if len(formats) == 0 {
		return errors.New("no format to render")
	}
	return nil
}

// inputs are the files a set of figures is drawn from, read and checked.
type inputs struct {
	figures []input
}

// input is what one figure is drawn from.
type input struct {
	name  string
	rows  []records.Row
	theta []records.ThetaRow
	sweep []rates.SweepRow // the theory figure's
	// stars are the best-known optima of fstar.csv beside the figure's CSV (nil when
	// there is none).
	stars map[starKey]float64
}

// ownFigureCSVs returns, sorted, the names of inDir's figure CSVs that this package does not
// know: CSVs whose header is the runner's loss traces (records.Row) or theta paths
// (records.ThetaRow), which it draws as figures of one's own.
func ownFigureCSVs(inDir string) ([]string, error) {
	entries, err := os.ReadDir(inDir)
	if err != nil {
		return nil, fmt.Errorf("input directory: %w", err)
	}
	var out []string
	for _, e := range entries {
		name, ok := records.CSVName(e.Name())
		if e.IsDir() || !ok || known(name) || slices.Contains(out, name) {
			continue
		}
		head, err := records.Header(filepath.Join(inDir, e.Name()))
		if err != nil {
			return nil, err
		}
		if records.HasRequired[records.Row](head) || records.HasRequired[records.ThetaRow](head) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Load reads and checks (package records) every input of the figures RenderDir draws from
// inDir: each figure's CSV, fstar.csv beside them and the theory sweep. Its errors name the
// file and, for a bad cell, the line and the column.
func Load(inDir string, names []string) (*inputs, error) {
	if st, err := os.Stat(inDir); err != nil {
		return nil, fmt.Errorf("input directory: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("input %s is not a directory", inDir)
	}
	explicit := len(names) > 0
	_, theoryErr := os.Stat(filepath.Join(inDir, TheoryFile))
	if !explicit {
		for _, n := range Names() {
			if _, ok := records.FindCSV(inDir, n); ok || (n == theoryName && theoryErr == nil) {
				names = append(names, n)
			}
		}
		own, err := ownFigureCSVs(inDir)
		if err != nil {
			return nil, err
		}
		names = append(names, own...)
		if len(names) == 0 {
			return nil, fmt.Errorf("no figure CSV in %s (looked for %s.csv)", inDir, strings.Join(Names(), ".csv, "))
		}
	}
	for _, n := range names {
		if _, csv := records.FindCSV(inDir, n); !csv && !known(n) {
			return nil, fmt.Errorf("unknown figure %q (known: %s), and no %s.csv in %s to draw as a figure of one's own", n, strings.Join(Names(), ", "), n, inDir)
		}
	}
	var stars map[starKey]float64
	if slices.ContainsFunc(names, func(n string) bool { return n != theoryName }) {
		var err error
		if stars, err = readFStar(filepath.Join(inDir, "fstar.csv")); err != nil {
			return nil, err
		}
	}
	in := &inputs{}
	for _, n := range names {
		if n == theoryName {
			rows, err := records.ReadFile[rates.SweepRow](filepath.Join(inDir, TheoryFile))
			if err != nil {
				return nil, fmt.Errorf("figure theory: %w", err)
			}
			in.figures = append(in.figures, input{name: n, sweep: rows})
			continue
		}
		path, ok := records.FindCSV(inDir, n)
		if !ok {
			return nil, fmt.Errorf("figure %s: no %s.csv or %s.csv.gz in %s", n, n, n, inDir)
		}
		f, err := loadFigure(path, n, stars)
		if err != nil {
			return nil, err
		}
		in.figures = append(in.figures, f)
	}
	return in, nil
}

// known reports whether name is a figure this package has a drawing of.
func known(name string) bool {
	_, ok := renderers[name]
	return ok || name == theoryName
}

// renderer is the drawing of figure name: its own, or for a figure of one's own (a name
// this package does not know) ownFigure's.
func renderer(name string) figure {
	if fig, ok := renderers[name]; ok {
		return fig
	}
	return ownFigure
}

// ownFigure draws a figure of one's own (runner.Figure of another module) as the paper's
// figures across d are drawn: one panel per task, data and d, the loss against the
// evaluations, one band per method and configuration.
var ownFigure = figure{draw: drawAcrossD}

// loadFigure reads figure name from the CSV at path.
func loadFigure(path, name string, stars map[starKey]float64) (input, error) {
	fig := renderer(name)
	f := input{name: name, stars: stars}
	var err error
	if fig.theta {
		f.theta, err = records.ReadFile[records.ThetaRow](path)
	} else {
		f.rows, err = records.ReadFile[records.Row](path)
	}
	if err != nil {
		return input{}, err
	}
	if len(f.rows) == 0 && len(f.theta) == 0 {
		return input{}, fmt.Errorf("figure %s: %s has no rows", name, path)
	}
	return f, nil
}

// Draw draws every figure of in, in the given formats (a subset of Formats), and returns
// the files without writing them: per figure NAME.FORMAT in every format, then NAME-gap.FORMAT
// when every row's setting has a best-known optimum.
func (in *inputs) Draw(formats []string) ([]records.File, error) {
	if err := checkFormats(formats); err != nil {
		return nil, err
	}
	var out []records.File
	for _, f := range in.figures {
		files, err := f.draw(formats)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// draw draws one figure. gonum/plot panics on some data it cannot draw; that is an error
// here, before any file is written.
func (f input) draw(formats []string) (files []records.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			files, err = nil, fmt.Errorf("figure %s: cannot draw: %v", f.name, r)
		}
	}()
	figs, err := f.panels()
	if err != nil {
		return nil, err
	}
	for _, fig := range figs {
		more, err := drawFigure(fig.panels, fig.name, formats)
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	}
	return files, nil
}

// drawing is one figure's panels, to be drawn as name.
type drawing struct {
	name   string
	panels [][]*panel
}

// panels builds the panels of f: the figure, then its suboptimality variant NAME-gap when
// every row's setting has a best-known optimum.
func (f input) panels() ([]drawing, error) {
	if f.name == theoryName {
		plots, err := theoryPanels(f.sweep)
		if err != nil {
			return nil, fmt.Errorf("figure theory: %w", err)
		}
		panels := make([][]*panel, len(plots))
		for i, row := range plots {
			for _, p := range row {
				panels[i] = append(panels[i], &panel{Plot: p})
			}
		}
		return []drawing{{f.name, panels}}, nil
	}
	fig := renderer(f.name)
	panels, err := fig.draw(f.name, f.rows, f.theta)
	if err != nil {
		return nil, fmt.Errorf("figure %s: %w", f.name, err)
	}
	if hasSNR(f.rows) {
		// Every figure with private runs gets their privacy SNR (a non-private diagnostic),
		// one panel per task, as a row of its own (layout may re-flow it).
		snr, err := snrPanels(f.rows)
		if err != nil {
			return nil, fmt.Errorf("figure %s: SNR panel: %w", f.name, err)
		}
		panels = append(panels, snr)
	}
	out := []drawing{{f.name, panels}}
	if gap, ok := gapRows(f.rows, f.stars); ok {
		panels, err := fig.draw(f.name, gap, f.theta)
		if err != nil {
			return nil, fmt.Errorf("figure %s (gap to f*): %w", f.name, err)
		}
		asGap(panels)
		out = append(out, drawing{f.name + "-gap", panels})
	}
	return out, nil
}

// drawFigure draws panels as name in every format.
func drawFigure(panels [][]*panel, name string, formats []string) ([]records.File, error) {
	var files []records.File
	for _, format := range formats {
		data, err := drawPanels(panels, format)
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", name, err)
		}
		files = append(files, records.File{Name: name + "." + format, Data: data})
	}
	return files, nil
}

// layout arranges panels on a grid of at most maxColumns columns. A drawing whose rows are
// all equally long, with two to maxColumns panels each, keeps them (its rows and columns
// mean something: fig-private's are mu and task). Otherwise its panels are taken in reading
// order (empty cells dropped) and laid out in the number of columns that leaves the fewest
// cells empty, then the fewest rows: 3 panels make a row of three, 4 a 2 x 2 grid.
func layout(panels [][]*panel) [][]*panel {
	uniform := len(panels) > 0
	for _, row := range panels {
		uniform = uniform && len(row) == len(panels[0]) && len(row) >= 2 && len(row) <= maxColumns
	}
	if uniform {
		return panels
	}
	var flat []*panel
	for _, row := range panels {
		for _, p := range row {
			if p != nil {
				flat = append(flat, p)
			}
		}
	}
	if len(flat) == 0 {
		return nil
	}
	n, cols := len(flat), 1
	cells := func(c int) (empty, rows int) {
		rows = (n + c - 1) / c
		return rows*c - n, rows
	}
	for c := 2; c <= min(maxColumns, n); c++ {
		e, r := cells(c)
		be, br := cells(cols)
		if e < be || (e == be && r < br) {
			cols = c
		}
	}
	var grid [][]*panel
	for len(flat) > cols {
		grid = append(grid, flat[:cols])
		flat = flat[cols:]
	}
	return append(grid, flat)
}

// drawPanels draws a grid of panels (arranged by layout) on one canvas of the given format
// and returns the file's bytes.
func drawPanels(panels [][]*panel, format string) ([]byte, error) {
	grid := layout(panels)
	w, h, err := figureSize(grid)
	if err != nil {
		return nil, err
	}
	var c vg.CanvasWriterTo
	if format == "png" {
		dpi := max(200, int(math.Ceil(float64(minPixelWidth)/float64(w/vg.Inch))))
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	} else {
		if c, err = draw.NewFormattedCanvas(w, h, format); err != nil {
			return nil, err
		}
	}
	placed, restore := place(grid, draw.New(c))
	defer restore()
	for _, pp := range placed {
		pp.draw(pp.canvas, pp.yLabel)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// figureSize is the size of the canvas a grid of panels (from layout) is drawn on: a panel
// of panelWidth by panelHeight per cell, taller when the figure would be wider than
// maxAspect times its height.
func figureSize(grid [][]*panel) (w, h vg.Length, err error) {
	rows, cols := len(grid), 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	if rows == 0 || cols == 0 {
		return 0, 0, errors.New("nothing to draw")
	}
	w = panelWidth * vg.Length(cols)
	return w, max(panelHeight*vg.Length(rows), w/vg.Length(maxAspect)), nil
}

// placedPanel is a panel ready to be drawn on canvas, with its y label (panel.fit).
type placedPanel struct {
	*panel
	canvas draw.Canvas
	yLabel string
	wrap   func(vg.Length)
}

// place fits every panel of grid (from layout) to its tile of dc: its title wrapped to the
// tile's width and its y label centred on the data (panel.fit), the tiles aligned so that
// the data areas line up (plot.Align, which narrows some tiles: their titles are wrapped
// again), and room made for its legend above the data at the size it is drawn
// (panel.legendRoom). restore undoes every change to the panels.
func place(grid [][]*panel, dc draw.Canvas) ([]placedPanel, func()) {
	rows, cols := len(grid), 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 2,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	w := dc.Max.X - dc.Min.X
	tileWidth := (w - tiles.PadLeft - tiles.PadRight - tiles.PadX*vg.Length(cols-1)) / vg.Length(cols)
	plots := make([][]*plot.Plot, rows)
	var placed []placedPanel
	var restores []func()
	var tops []float64
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
		for j, p := range grid[i] {
			if p == nil {
				continue
			}
			plots[i][j] = p.Plot
			tops = append(tops, p.Y.Max)
			label, wrap, restore := p.fit(tileWidth - 2*titleMargin)
			restores = append(restores, restore)
			placed = append(placed, placedPanel{panel: p, yLabel: label, wrap: wrap})
		}
	}
	align := func() {
		canvases := plot.Align(plots, tiles, dc)
		k := 0
		for i := range plots {
			for j, p := range plots[i] {
				if p != nil {
					placed[k].canvas = canvases[i][j]
					k++
				}
			}
		}
	}
	// Align narrows the tiles of panels with narrow axes; a title wrapped again is taller,
	// which moves the tiles again: a few rounds settle it.
	for range 4 {
		align()
		wrapped := false
		for _, pp := range placed {
			if width := pp.canvas.Max.X - pp.canvas.Min.X - 2*titleMargin; !pp.titleFits(width) {
				pp.wrap(width)
				wrapped = true
			}
		}
		if !wrapped {
			break
		}
	}
	// The legend's room depends on the height the data get, which depends on the tiles'
	// alignment; the alignment depends (a little) on the y range through the tick labels.
	for range 2 {
		for k, pp := range placed {
			pp.legendRoom(pp.canvas, tops[k])
		}
		align()
	}
	return placed, func() {
		for _, r := range restores {
			r()
		}
	}
}

// titleMargin is kept free on either side of a panel's title (within its tile).
var titleMargin = vg.Points(3)

// methodName is the legend name of a method registry name (the paper's names): its Info's
// Legend, the name itself for a name the registry does not hold.
func methodName(method string) string {
	if m, ok := registry.Lookup(method); ok {
		return m.Info().Legend
	}
	return method
}

// methodRank ranks methods for legends: the registry's order, unknown methods last.
func methodRank(method string) int {
	infos := registry.Methods()
	for i, info := range infos {
		if info.Name == method {
			return i
		}
	}
	return len(infos)
}

// methodColor is the method's colour in every figure: its Info's Colour, grey for a
// method without one or a name the registry does not hold.
func methodColor(method string) color.Color {
	if m, ok := registry.Lookup(method); ok {
		if c := m.Info().Colour; c != (color.RGBA{}) {
			return c
		}
	}
	return color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
}

// sweepColors colour the values of a swept parameter, from first to last.
var sweepColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff},
	color.RGBA{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff},
}

func sweepColor(i int) color.Color { return sweepColors[i%len(sweepColors)] }

// taskTitle names a task for panel titles (the catalog's title; SVR's carry the data label),
// or by its registry name when the catalog does not know it.
func taskTitle(task, data string) string {
	if info, ok := catalog.Lookup(task); ok {
		return info.TitleFor(data)
	}
	return task
}

// formatValue prints a swept value for legends ("inf" for +Inf).
func formatValue(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// configValue parses the value of a runner config label "name=value".
func configValue(label string) (string, float64, bool) {
	name, val, ok := strings.Cut(label, "=")
	if !ok {
		return "", 0, false
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return "", 0, false
	}
	return name, v, true
}
