package progress

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestProgressWeighsCellsByEstimatedCost(t *testing.T) {
	var out bytes.Buffer
	p := &lineProgress{w: &out, interval: time.Hour}
	p.Start([]float64{9, 0.5, 0.5}, 0, 1)
	p.Step("long", 9)
	p.print()
	if got := out.String(); !strings.Contains(got, "progress: 1/3 cells, 90% of the estimated work") {
		t.Errorf("after the long cell: %q, want 1/3 cells and 90%% of the work", got)
	}
	p.Step("short", 0.5)
	p.Step("short", 0.5)
	p.Finish()
	if got := out.String(); !strings.Contains(got, "progress: 3/3 cells, 100% of the estimated work") {
		t.Errorf("at the end: %q, want 3/3 cells and 100%%", got)
	}
}

func TestProgressBarCountsCellsAndReachesTheEnd(t *testing.T) {
	var out bytes.Buffer
	p := &barProgress{w: &out}
	p.Start([]float64{3, 1}, 0, 1)
	p.Step("a", 3)
	if p.shownSteps != 3*barSteps/4 {
		t.Errorf("after 3 of 4 units of work the bar shows %d of %d steps", p.shownSteps, barSteps)
	}
	p.Step("b", 1)
	p.Finish()
	if p.shownSteps != barSteps || !p.bar.IsFinished() {
		t.Errorf("finished bar at %d of %d steps (finished %v)", p.shownSteps, barSteps, p.bar.IsFinished())
	}
	if !strings.Contains(out.String(), "cells 2/2") {
		t.Errorf("bar output %q lacks the cell count", out.String())
	}
}

// fakeClock is a settable clock for the progress reports.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestHeartbeatShowsElapsedAndCellsInFlight(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var out bytes.Buffer
	p := &lineProgress{w: &out, interval: time.Hour}
	p.state.now = clock.now
	// Two workers, the two 50 s cells first: 60 s estimated.
	p.Start([]float64{50, 50, 10}, 0, 2)
	if got, want := strings.TrimSpace(out.String()), "progress: 0/3 cells, 0% of the estimated work, elapsed 0s, ETA 1m0s (estimate)"; got != want {
		t.Errorf("first line:\n got %q\nwant %q", got, want)
	}
	clock.t = clock.t.Add(5 * time.Second)
	p.Begin("fig2b+fig3f/svr-a", 50)
	clock.t = clock.t.Add(10 * time.Second)
	p.Begin("fig3ab/gpreg-b", 50)
	clock.t = clock.t.Add(20 * time.Second)
	p.print()
	// In flight for 30 s and 20 s of 50: 20 s and 30 s left, then the 10 s cell after the
	// first: 30 s; the cells in flight are credited (50 of 110 s of work).
	want := "progress: 0/3 cells, 45% of the estimated work, elapsed 35s, ETA 30s (estimate); running: fig2b+fig3f/svr-a (30s), fig3ab/gpreg-b (20s)"
	if got := strings.TrimSpace(out.String()); !strings.HasSuffix(got, want) {
		t.Errorf("heartbeat before any cell finished:\n got %q\nwant %q", got, want)
	}
	// The first cell took 35 s for an estimated 50: the ratio is (5.5+35)/(5.5+50) = 0.73,
	// so the cell in flight has 11.5 s left and the 10 s cell takes 7.3 s on the free worker.
	clock.t = clock.t.Add(5 * time.Second)
	p.Step("fig2b+fig3f/svr-a", 50)
	out.Reset()
	p.print()
	want = "progress: 1/3 cells, 77% of the estimated work, elapsed 40s, ETA 11s; running: fig3ab/gpreg-b (25s)"
	if got := strings.TrimSpace(out.String()); got != want {
		t.Errorf("heartbeat after one cell:\n got %q\nwant %q", got, want)
	}
	bar := &barProgress{}
	bar.state.now = clock.now
	bar.state.start([]float64{100, 100}, 3, 1)
	bar.state.begin("fig1/x", 100)
	if got, want := bar.state.short(), "cells 0/2 (+3 found finished), ETA 3m20s (estimate), 1 running: fig1 (0s)"; got != want {
		t.Errorf("bar description at the start %q, want %q", got, want)
	}
	clock.t = clock.t.Add(90 * time.Second)
	if got, want := bar.state.short(), "cells 0/2 (+3 found finished), ETA 1m50s (estimate), 1 running: fig1 (1m30s)"; got != want {
		t.Errorf("bar description %q, want %q", got, want)
	}
}

// A run slower than its cost model: the ETA grows with the evidence (cells in flight past
// their estimate count as at least that slow) but never overshoots the time the run still
// needs by more than 1.5x (dividing the elapsed time by the share of finished work put it
// at 6x), and it is within 1.5x once a cell has finished.
func TestETAFollowsAMachineSlowerThanEstimated(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := runState{now: clock.now}
	// One worker; a 100 s cell, then 90 cells of 10 s: 1000 s estimated; every cell takes
	// 3.5 times its estimate.
	costs := []float64{100}
	for range 90 {
		costs = append(costs, 10)
	}
	s.start(costs, 0, 1)
	etaSeconds := func() float64 {
		text := strings.TrimSuffix(s.eta(clock.t), " (estimate)")
		d, err := time.ParseDuration(text)
		if err != nil {
			t.Fatal(err)
		}
		return d.Seconds()
	}
	if got := etaSeconds(); got != 1000 {
		t.Fatalf("ETA at the start %v s, want the model's 1000 s", got)
	}
	s.begin("big", 100)
	for sec := 1; sec <= 350; sec++ {
		clock.t = clock.t.Add(time.Second)
		if eta, truth := etaSeconds(), float64(350-sec)+900*3.5; eta > 1.5*truth {
			t.Fatalf("at %d s the ETA is %v s, the run needs %v s more", sec, eta, truth)
		}
	}
	s.end("big", 100)
	// Past the big cell, the ETA must be within 1.5x of the truth: 900 s x 3.5 left.
	truth := 900 * 3.5
	if eta := etaSeconds(); eta < truth/1.5 || eta > truth*1.5 {
		t.Errorf("after the first cell the ETA is %v s, the run needs %v s more", eta, truth)
	}
	for i := 0; i < 89; i++ {
		s.begin(fmt.Sprint("c", i), 10)
		clock.t = clock.t.Add(35 * time.Second)
		s.end(fmt.Sprint("c", i), 10)
	}
	truth = 35
	if eta := etaSeconds(); math.Abs(eta-truth) > 0.25*truth {
		t.Errorf("before the last cell the ETA is %v s, the run needs %v s more", eta, truth)
	}
}

// The heartbeat comes every interval from the start, whether or not a cell finished.
func TestHeartbeatTicksWithoutFinishedCells(t *testing.T) {
	var out syncBuffer
	p := &lineProgress{w: &out, interval: 20 * time.Millisecond}
	p.Start([]float64{1}, 0, 1)
	p.Begin("slow-cell", 1)
	// Three ticks normally take 60 ms; the deadline only guards a loaded machine.
	for deadline := time.Now().Add(30 * time.Second); strings.Count(out.String(), "running: slow-cell") < 3; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than 3 heartbeat lines in 30 s at a 20 ms interval:\n%s", out.String())
		}
	}
	p.Finish()
}

// syncBuffer is a bytes.Buffer safe for the ticker's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
