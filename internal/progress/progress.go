// Package progress reports a run's progress over cells of very different costs: a bar with
// an ETA on a terminal, a line at an interval in logs.
package progress

import (
	"container/heap"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Reporter reports the runner's progress over cells. Cells differ in cost by orders of
// magnitude (a group LASSO run takes milliseconds, an SVR run a minute) and the runner starts
// the longest first, so the ETA is not a count of cells: it schedules the work left (cells in
// flight for what remains of them, then the others longest first) on the workers, with every
// estimated cost scaled by how much slower or faster than estimated this machine has been
// (runState.eta). Between finished cells a heartbeat shows that the run is alive: the elapsed
// time and each cell in flight with how long it has run.
type Reporter interface {
	// Start announces the cells to run by their estimated costs in seconds (the runner's
	// cost model), the number of cells a resumed run found finished (shown in the count,
	// not run again) and the number of workers that run them.
	Start(costs []float64, found, workers int)
	// Begin reports that a cell of the given estimated cost has started; cell is
	// "FIGURES/STEM" (CellName), so that the cells in flight are shown with their figures.
	// It is safe for concurrent use.
	Begin(cell string, cost float64)
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

func (p *barProgress) Start(costs []float64, found, workers int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.start(costs, found, workers)
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
			p.advance(int(p.state.share(p.state.clock()) * barSteps))
		}
	})
}

// advance moves the bar to steps thousandths of the work, never back.
func (p *barProgress) advance(steps int) {
	if steps > p.shownSteps {
		_ = p.bar.Add(steps - p.shownSteps)
		p.shownSteps = steps
	}
}

func (p *barProgress) Begin(cell string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.begin(cell, cost)
}

func (p *barProgress) Step(cell string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	p.state.end(cell, cost)
	steps := int(p.state.share(p.state.clock()) * barSteps)
	if p.state.tally.finished == p.state.tally.cells {
		steps = barSteps
	}
	p.bar.Describe(p.state.short())
	p.advance(steps)
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

func (p *lineProgress) Start(costs []float64, found, workers int) {
	p.mu.Lock()
	p.state.start(costs, found, workers)
	cells := p.state.tally.cells
	p.mu.Unlock()
	if cells == 0 {
		return
	}
	p.print()
	p.ticker.start(p.interval, func() { p.print() })
}

func (p *lineProgress) Begin(cell string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state.begin(cell, cost)
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
// elapsed time, the cells in flight and what the finished ones took. now is the clock (nil:
// time.Now), injectable for tests.
type runState struct {
	now      func() time.Time
	tally    tally
	found    int // cells a resumed run found finished
	workers  int
	began    time.Time
	inFlight map[string]flight
	// pending are the estimated costs of the cells not yet started, longest first.
	pending []float64
	// took and tookCost are the measured seconds and the estimated costs of the finished
	// cells.
	took, tookCost float64
}

// flight is a cell in flight: when it started and its estimated cost.
type flight struct {
	start time.Time
	cost  float64
}

// priorWeight is the weight of the cost model against the measured times, as a share of
// the run's estimated work: the model's times count as that much already-measured work, so
// the first cells (often the cheapest to estimate badly) do not swing the ETA.
const priorWeight = 0.05

func (s *runState) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

func (s *runState) start(costs []float64, found, workers int) {
	s.tally, s.began, s.inFlight = newTally(costs), s.clock(), map[string]flight{}
	s.found, s.workers = found, max(workers, 1)
	s.pending = append([]float64(nil), costs...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s.pending)))
	s.took, s.tookCost = 0, 0
}

func (s *runState) begin(cell string, cost float64) {
	if s.inFlight == nil {
		s.inFlight = map[string]flight{}
	}
	s.inFlight[cell] = flight{s.clock(), cost}
	if k := slices.Index(s.pending, cost); k >= 0 {
		s.pending = slices.Delete(s.pending, k, k+1)
	}
}

// end records a finished cell.
func (s *runState) end(cell string, cost float64) {
	if f, ok := s.inFlight[cell]; ok {
		s.took += s.clock().Sub(f.start).Seconds()
		s.tookCost += f.cost
	}
	delete(s.inFlight, cell)
	s.tally.add(cost)
}

// ratio is how many seconds an estimated second takes on this machine: the measured time
// of the finished cells (and of the cells in flight that have run longer than their
// estimate, at least that long) over their estimated cost, blended with the cost model
// (ratio 1) at priorWeight of the run's work.
func (s *runState) ratio(now time.Time) float64 {
	prior := priorWeight * s.tally.work
	took, cost := prior+s.took, prior+s.tookCost
	for _, f := range s.inFlight {
		if ran := now.Sub(f.start).Seconds(); ran > f.cost {
			took += ran
			cost += f.cost
		}
	}
	if cost <= 0 {
		return 1
	}
	return took / cost
}

// share is the share of the run's estimated work done: the finished cells and, for each
// cell in flight, the part of it that its time so far covers at the current ratio.
func (s *runState) share(now time.Time) float64 {
	if s.tally.work <= 0 {
		return 0
	}
	done := s.tally.workDone
	r := s.ratio(now)
	for _, f := range s.inFlight {
		done += f.cost * min(0.99, now.Sub(f.start).Seconds()/(f.cost*r))
	}
	return min(1, done/s.tally.work)
}

// eta is the remaining wall time: the cells in flight for what remains of their estimated
// cost, then the cells not started, longest first, each on the worker that frees first,
// every estimate scaled by ratio. Until a cell finishes it is marked "(estimate)".
func (s *runState) eta(now time.Time) string {
	r := s.ratio(now)
	free := make(floatHeap, 0, s.workers)
	for _, f := range s.inFlight {
		free = append(free, max(0, f.cost*r-now.Sub(f.start).Seconds()))
	}
	for len(free) < s.workers {
		free = append(free, 0)
	}
	heap.Init(&free)
	left := scheduleEnd(free, s.pending, r)
	text := time.Duration(left * float64(time.Second)).Round(time.Second).String()
	if s.tally.finished == 0 {
		text += " (estimate)"
	}
	return text
}

// running lists the cells in flight, longest-running first, with how long each has run.
func (s *runState) running(now time.Time) []string {
	type cell struct {
		name string
		took time.Duration
	}
	var cells []cell
	for name, t := range s.inFlight {
		cells = append(cells, cell{name, now.Sub(t.start)})
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
	line := fmt.Sprintf("%d/%d cells%s, %.0f%% of the estimated work, elapsed %s, ETA %s",
		s.tally.finished, s.tally.cells, s.foundNote(), 100*s.share(now), elapsed.Round(time.Second), s.eta(now))
	if run := s.running(now); len(run) > 0 {
		line += "; running: " + strings.Join(run, ", ")
	}
	return line
}

// foundNote follows the count of this run's cells in a resumed run: " (+f found
// finished)".
func (s *runState) foundNote() string {
	if s.found == 0 {
		return ""
	}
	return fmt.Sprintf(" (+%d found finished)", s.found)
}

// short is the bar's description: cells, ETA and the figure of each cell in flight with
// how long it has run, longest first.
func (s *runState) short() string {
	now := s.clock()
	desc := fmt.Sprintf("cells %d/%d%s, ETA %s", s.tally.finished, s.tally.cells, s.foundNote(), s.eta(now))
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
	return scheduleEnd(make(floatHeap, min(workers, max(len(sorted), 1))), sorted, 1)
}

// scheduleEnd is when the last of the cells of costs (in the order given, each scaled by
// ratio) ends when each goes to the worker that frees first; free holds the times at which
// the workers free (a heap, changed in place).
func scheduleEnd(free floatHeap, costs []float64, ratio float64) float64 {
	end := 0.0
	for _, t := range free {
		end = max(end, t)
	}
	for _, c := range costs {
		t := free[0] + c*ratio
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
