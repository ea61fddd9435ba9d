// Package progress reports a run's progress over cells of very different costs: a bar with
// an ETA on a terminal, a line at an interval in logs.
package progress

import (
	"container/heap"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Reporter reports the runner's progress over cells. Cells differ in cost by orders of
// magnitude (a group LASSO run takes milliseconds, an SVR run a minute) and the runner starts
// the longest first, so the ETA comes from the share of the estimated work done, not from the
// count of cells. Between finished cells a heartbeat shows that the run is alive: the
// elapsed time and each cell in flight with how long it has run.
type Reporter interface {
	// Start announces the cells to run by their estimated costs in seconds (the runner's cost model)
	// and the number of workers that run them; until a cell finishes, the ETA is the
	// estimated wall time less the time elapsed.
	Start(costs []float64, workers int)
	// Begin reports that a cell has started; cell is "FIGURES/STEM" (CellName), so that
	// the cells in flight are shown with their figures. It is safe for concurrent use.
	Begin(cell string)
	// Step reports one finished cell and its estimated cost; it is safe for concurrent use.
	Step(cell string, cost float64)
	// Finish ends the report.
	Finish()
}

// New returns a progress bar with ETA when w is a terminal, a plain line every
// interval otherwise, and nil when quiet.
func New(w io.Writer, quiet bool, interval time.Duration) Reporter {
	if quiet {
		return nil
	}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return &barProgress{w: w}
		}
	}
	return &lineProgress{w: w, interval: interval}
}

// barSteps is the resolution of the bar: it counts thousandths of the estimated work.
const barSteps = 1000

// barRefresh is how often the bar's description (ETA, cells in flight) is redrawn.
const barRefresh = time.Second

// barProgress draws a progressbar/v3 bar over the estimated work, with the count of cells,
// the ETA from the share of the estimated work done (the bar's own prediction assumes equal
// steps) and the cells in flight in its description, redrawn every second.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar

	mu         sync.Mutex
	state      runState
	shownSteps int
	ticker     ticker
}

func (p *barProgress) Start(costs []float64, workers int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.start(costs, workers)
	if p.state.tally.cells == 0 {
		return
	}
	p.bar = progressbar.NewOptions(barSteps,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.state.short()),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
	_ = p.bar.RenderBlank()
	p.ticker.start(barRefresh, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.bar.IsFinished() {
			p.bar.Describe(p.state.short())
		}
	})
}

func (p *barProgress) Begin(cell string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.begin(cell)
}

func (p *barProgress) Step(cell string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	steps := int(p.state.end(cell, cost) * barSteps)
	if p.state.tally.finished == p.state.tally.cells {
		steps = barSteps
	}
	p.bar.Describe(p.state.short())
	_ = p.bar.Add(steps - p.shownSteps)
	p.shownSteps = steps
}

func (p *barProgress) Finish() {
	p.ticker.stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil && !p.bar.IsFinished() {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// lineProgress prints a progress line every interval, for logs of batch jobs where a
// redrawn bar would be noise: "progress: k/n cells, x% of the estimated work, elapsed, ETA;
// running: CELL (time), ...". It prints whether or not a cell finished meanwhile, so a log
// shows the run alive from its start.
type lineProgress struct {
	w        io.Writer
	interval time.Duration

	mu     sync.Mutex
	state  runState
	ticker ticker
}

func (p *lineProgress) Start(costs []float64, workers int) {
	p.mu.Lock()
	p.state.start(costs, workers)
	cells := p.state.tally.cells
	p.mu.Unlock()
	if cells == 0 {
		return
	}
	p.print()
	p.ticker.start(p.interval, func() { p.print() })
}

func (p *lineProgress) Begin(cell string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.begin(cell)
}

func (p *lineProgress) Step(cell string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.end(cell, cost)
}

func (p *lineProgress) print() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, "progress: "+p.state.line())
}

func (p *lineProgress) Finish() {
	if !p.ticker.stop() {
		return
	}
	p.print()
}

// ticker calls a function every interval on its own goroutine until stopped.
type ticker struct {
	done chan struct{}
	wg   sync.WaitGroup
}

func (t *ticker) start(interval time.Duration, f func()) {
	t.done = make(chan struct{})
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		tk := time.NewTicker(interval)
		defer tk.Stop()
		for {
			select {
			case <-tk.C:
				f()
			case <-t.done:
				return
			}
		}
	}()
}

// stop ends the ticker and waits for it; it reports whether the ticker was running.
func (t *ticker) stop() bool {
	if t.done == nil {
		return false
	}
	close(t.done)
	t.wg.Wait()
	t.done = nil
	return true
}

// runState is what both progress reports show: the tally of finished cells and work, the
// elapsed time and the cells in flight. now is the clock (nil: time.Now), injectable for
// tests.
type runState struct {
	now      func() time.Time
	tally    tally
	began    time.Time
	inFlight map[string]time.Time
	// estimate is the estimated wall time of the run in seconds (WallSeconds of the costs).
	estimate float64
}

func (s *runState) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

func (s *runState) start(costs []float64, workers int) {
	s.tally, s.began, s.inFlight = newTally(costs), s.clock(), map[string]time.Time{}
	s.estimate = WallSeconds(costs, workers)
}

func (s *runState) begin(cell string) {
	if s.inFlight == nil {
		s.inFlight = map[string]time.Time{}
	}
	s.inFlight[cell] = s.clock()
}

// end records a finished cell and returns the share of the work done.
func (s *runState) end(cell string, cost float64) float64 {
	delete(s.inFlight, cell)
	return s.tally.add(cost)
}

// eta is the remaining time from the share of the estimated work done and the time it
// took; before the first cell finishes, the estimated wall time less the time elapsed,
// marked "(estimate)".
func (s *runState) eta(elapsed time.Duration) string {
	share := s.tally.share()
	if share <= 0 {
		left := max(0, time.Duration(s.estimate*float64(time.Second))-elapsed)
		return left.Round(time.Second).String() + " (estimate)"
	}
	return time.Duration(float64(elapsed) * (1 - share) / share).Round(time.Second).String()
}

// running lists the cells in flight, longest-running first, with how long each has run.
func (s *runState) running(now time.Time) []string {
	type cell struct {
		name string
		took time.Duration
	}
	var cells []cell
	for name, t := range s.inFlight {
		cells = append(cells, cell{name, now.Sub(t)})
	}
	sort.Slice(cells, func(a, b int) bool {
		if cells[a].took != cells[b].took {
			return cells[a].took > cells[b].took
		}
		return cells[a].name < cells[b].name
	})
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = fmt.Sprintf("%s (%s)", c.name, c.took.Round(time.Second))
	}
	return out
}

// line is the full progress line.
func (s *runState) line() string {
	now := s.clock()
	elapsed := now.Sub(s.began)
	line := fmt.Sprintf("%d/%d cells, %.0f%% of the estimated work, elapsed %s, ETA %s",
		s.tally.finished, s.tally.cells, 100*s.tally.share(), elapsed.Round(time.Second), s.eta(elapsed))
	if run := s.running(now); len(run) > 0 {
		line += "; running: " + strings.Join(run, ", ")
	}
	return line
}

// short is the bar's description: cells, ETA and the figure of each cell in flight with
// how long it has run, longest first.
func (s *runState) short() string {
	now := s.clock()
	desc := fmt.Sprintf("cells %d/%d, ETA %s", s.tally.finished, s.tally.cells, s.eta(now.Sub(s.began)))
	if run := s.running(now); len(run) > 0 {
		for i, r := range run {
			if figs, rest, ok := strings.Cut(r, "/"); ok {
				_, took, _ := strings.Cut(rest, " ")
				run[i] = figs + " " + took
			}
		}
		desc += fmt.Sprintf(", %d running: %s", len(run), strings.Join(run, ", "))
	}
	return desc
}

// CellName is how the progress reports name a cell in flight: the figures that use it, then
// its stem.
func CellName(figures []string, stem string) string {
	return strings.Join(figures, "+") + "/" + stem
}

// tally counts finished cells and their estimated cost as a share of the total, for both
// progress reports.
type tally struct {
	cells, finished int
	work, workDone  float64
}

func newTally(costs []float64) tally {
	t := tally{cells: len(costs)}
	for _, c := range costs {
		t.work += c
	}
	return t
}

// add records a finished cell and returns the share of the work done, in [0, 1].
func (t *tally) add(cost float64) float64 {
	t.finished++
	t.workDone += cost
	return t.share()
}

func (t *tally) share() float64 {
	if t.work <= 0 {
		return 0
	}
	return min(1, t.workDone/t.work)
}

// WallSeconds is the estimated wall time of running cells of the given costs on workers
// workers, longest first (as the runner orders them): each cell goes to the worker that
// frees first.
func WallSeconds(costs []float64, workers int) float64 {
	if workers < 1 {
		workers = 1
	}
	sorted := append([]float64(nil), costs...)
	sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
	free := make(floatHeap, min(workers, max(len(sorted), 1)))
	end := 0.0
	for _, c := range sorted {
		t := free[0] + c
		free[0] = t
		heap.Fix(&free, 0)
		end = max(end, t)
	}
	return end
}

// floatHeap is a min-heap of the times at which workers free.
type floatHeap []float64

func (h floatHeap) Len() int           { return len(h) }
func (h floatHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h floatHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *floatHeap) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *floatHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
