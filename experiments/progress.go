package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress reports the runner's progress over cells.
type Progress interface {
	// Start announces the number of cells to run.
	Start(total int)
	// Step reports one finished cell; it is safe for concurrent use.
	Step(cell string)
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

// barProgress draws a progressbar/v3 bar: count, percentage, elapsed time and ETA.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(total int) {
	if total == 0 {
		return
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("cells"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
	)
	_ = p.bar.RenderBlank()
}

func (p *barProgress) Step(string) {
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

func (p *barProgress) Finish() {
	if p.bar != nil && !p.bar.IsFinished() {
		_ = p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// lineProgress prints "progress: k/n cells, elapsed, ETA" every interval while cells
// finish, for logs of batch jobs where a redrawn bar would be noise.
type lineProgress struct {
	w        io.Writer
	interval time.Duration

	mu          sync.Mutex
	total, done int
	start       time.Time
	printed     int
	stop        chan struct{}
	wg          sync.WaitGroup
}

func (p *lineProgress) Start(total int) {
	p.total, p.start = total, time.Now()
	if total == 0 {
		return
	}
	fmt.Fprintf(p.w, "progress: 0/%d cells\n", total)
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

func (p *lineProgress) Step(string) {
	p.mu.Lock()
	p.done++
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
	eta := "unknown"
	if p.done > 0 {
		rest := time.Duration(float64(time.Since(p.start)) / float64(p.done) * float64(p.total-p.done))
		eta = rest.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "progress: %d/%d cells, elapsed %s, ETA %s\n", p.done, p.total, elapsed, eta)
}

func (p *lineProgress) Finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.print(true)
}
