package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress reports the runner's progress over cells. Cells differ in cost by orders of
// magnitude (a group LASSO run takes milliseconds, an SVR run a minute) and the runner starts
// the longest first, so the ETA comes from the share of the estimated work done, not from the
// count of cells.
type Progress interface {
	// Start announces the cells to run by their estimated costs (any positive unit).
	Start(costs []float64)
	// Step reports one finished cell and its estimated cost; it is safe for concurrent use.
	Step(cell string, cost float64)
	// Finish ends the report.
	Finish()
}

// newProgress returns a progress bar with ETA when w is a terminal, a plain line every
// interval otherwise, and nil when quiet.
func newProgress(w io.Writer, quiet bool, interval time.Duration) Progress {
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

// barProgress draws a progressbar/v3 bar over the estimated work (so that its ETA weighs
// cells by cost), with the count of cells in the description, elapsed time and ETA.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar

	mu         sync.Mutex
	tally      tally
	shownSteps int
}

func (p *barProgress) Start(costs []float64) {
	p.tally = newTally(costs)
	if p.tally.cells == 0 {
		return
	}
	p.bar = progressbar.NewOptions(barSteps,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription(p.description()),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
	_ = p.bar.RenderBlank()
}

func (p *barProgress) description() string {
	return fmt.Sprintf("cells %d/%d", p.tally.finished, p.tally.cells)
}

func (p *barProgress) Step(_ string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	steps := int(p.tally.add(cost) * barSteps)
	if p.tally.finished == p.tally.cells {
		steps = barSteps
	}
	p.bar.Describe(p.description())
	_ = p.bar.Add(steps - p.shownSteps)
	p.shownSteps = steps
}

func (p *barProgress) Finish() {
	if p.bar != nil && !p.bar.IsFinished() {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// lineProgress prints "progress: k/n cells, x% of the estimated work, elapsed, ETA" every
// interval while cells finish, for logs of batch jobs where a redrawn bar would be noise.
type lineProgress struct {
	w        io.Writer
	interval time.Duration

	mu      sync.Mutex
	tally   tally
	start   time.Time
	printed int
	stop    chan struct{}
	wg      sync.WaitGroup
}

func (p *lineProgress) Start(costs []float64) {
	p.tally, p.start = newTally(costs), time.Now()
	if p.tally.cells == 0 {
		return
	}
	fmt.Fprintf(p.w, "progress: 0/%d cells\n", p.tally.cells)
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(p.interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.print(false)
			case <-p.stop:
				return
			}
		}
	}()
}

func (p *lineProgress) Step(_ string, cost float64) {
	p.mu.Lock()
	p.tally.add(cost)
	p.mu.Unlock()
}

func (p *lineProgress) print(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tally.finished == p.printed && !final {
		return
	}
	p.printed = p.tally.finished
	elapsed := time.Since(p.start).Round(time.Second)
	share := p.tally.share()
	eta := "unknown"
	if share > 0 {
		rest := time.Duration(float64(time.Since(p.start)) * (1 - share) / share)
		eta = rest.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "progress: %d/%d cells, %.0f%% of the estimated work, elapsed %s, ETA %s\n",
		p.tally.finished, p.tally.cells, 100*share, elapsed, eta)
}

func (p *lineProgress) Finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.print(true)
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
