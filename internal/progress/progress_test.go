package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestProgressWeighsCellsByEstimatedCost(t *testing.T) {
	var out bytes.Buffer
	p := &lineProgress{w: &out, interval: time.Hour}
	p.Start([]float64{9, 0.5, 0.5}, 1)
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
	p.Start([]float64{3, 1}, 1)
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
	p.Start([]float64{50, 50, 10}, 2)
	if got, want := strings.TrimSpace(out.String()), "progress: 0/3 cells, 0% of the estimated work, elapsed 0s, ETA 1m0s (estimate)"; got != want {
		t.Errorf("first line:\n got %q\nwant %q", got, want)
	}
	clock.t = clock.t.Add(5 * time.Second)
	p.Begin("fig2b+fig3f/svr-a")
	clock.t = clock.t.Add(10 * time.Second)
	p.Begin("fig3ab/gpreg-b")
	clock.t = clock.t.Add(20 * time.Second)
	p.print()
	want := "progress: 0/3 cells, 0% of the estimated work, elapsed 35s, ETA 25s (estimate); running: fig2b+fig3f/svr-a (30s), fig3ab/gpreg-b (20s)"
	if got := strings.TrimSpace(out.String()); !strings.HasSuffix(got, want) {
		t.Errorf("heartbeat before any cell finished:\n got %q\nwant %q", got, want)
	}
	p.Step("fig2b+fig3f/svr-a", 50)
	clock.t = clock.t.Add(5 * time.Second)
	out.Reset()
	p.print()
	want = "progress: 1/3 cells, 45% of the estimated work, elapsed 40s, ETA 48s; running: fig3ab/gpreg-b (25s)"
	if got := strings.TrimSpace(out.String()); got != want {
		t.Errorf("heartbeat after one cell:\n got %q\nwant %q", got, want)
	}
	bar := &barProgress{}
	bar.state.now = clock.now
	bar.state.start([]float64{100, 100}, 1)
	bar.state.begin("fig1/x")
	if got, want := bar.state.short(), "cells 0/2, ETA 3m20s (estimate), 1 running: fig1 (0s)"; got != want {
		t.Errorf("bar description at the start %q, want %q", got, want)
	}
	clock.t = clock.t.Add(90 * time.Second)
	bar.state.begin("fig2a/y")
	if got, want := bar.state.short(), "cells 0/2, ETA 1m50s (estimate), 2 running: fig1 (1m30s), fig2a (0s)"; got != want {
		t.Errorf("bar description %q, want %q", got, want)
	}
}

// The heartbeat comes every interval from the start, whether or not a cell finished.
func TestHeartbeatTicksWithoutFinishedCells(t *testing.T) {
	var out syncBuffer
	p := &lineProgress{w: &out, interval: 20 * time.Millisecond}
	p.Start([]float64{1}, 1)
	p.Begin("slow-cell")
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
