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

	mu          sync.Mutex
	work        workShare
	shownSteps  int
	total, done int
}

func (p *barProgress) Start(costs []float64) {
	p.total = len(costs)
	p.work = newWorkShare(costs)
	if p.total == 0 {
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

func (p *barProgress) description() string { return fmt.Sprintf("cells %d/%d", p.done, p.total) }

func (p *barProgress) Step(_ string, cost float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	p.done++
	steps := int(p.work.add(cost) * barSteps)
	if p.done == p.total {
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

	mu          sync.Mutex
	total, done int
	work        workShare
	start       time.Time
	printed     int
	stop        chan struct{}
	wg          sync.WaitGroup
}

func (p *lineProgress) Start(costs []float64) {
	p.total, p.start = len(costs), time.Now()
	p.work = newWorkShare(costs)
	if p.total == 0 {
		return
	}
	fmt.Fprintf(p.w, "progress: 0/%d cells\n", p.total)
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
	p.done++
	p.work.add(cost)
	p.mu.Unlock()
}

func (p *lineProgress) print(final bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == p.printed && !final {
		return
	}
	p.printed = p.done
	elapsed := time.Since(p.start).Round(time.Second)
	share := p.work.share()
	eta := "unknown"
	if share > 0 {
		rest := time.Duration(float64(time.Since(p.start)) * (1 - share) / share)
		eta = rest.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "progress: %d/%d cells, %.0f%% of the estimated work, elapsed %s, ETA %s\n",
		p.done, p.total, 100*share, elapsed, eta)
}

func (p *lineProgress) Finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.print(true)
}

// workShare accumulates the estimated cost of finished cells as a share of the total.
type workShare struct{ total, done float64 }

func newWorkShare(costs []float64) workShare {
	var w workShare
	for _, c := range costs {
		w.total += c
	}
	return w
}

// add records a finished cell and returns the share of the work done, in [0, 1].
func (w *workShare) add(cost float64) float64 {
	w.done += cost
	return w.share()
}

func (w *workShare) share() float64 {
	if w.total <= 0 {
		return 0
	}
	return min(1, w.done/w.total)
}
