package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestProgressWeighsCellsByEstimatedCost(t *testing.T) {
	var out bytes.Buffer
	p := &lineProgress{w: &out, interval: time.Hour}
	p.Start([]float64{9, 0.5, 0.5})
	p.Step("long", 9)
	p.print(false)
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
	p.Start([]float64{3, 1})
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

// The cost estimate orders the paper suite's cells as its measured timings do: the
// adaptive design with an overestimated noise std (hundreds of seconds) above SVR runs
// (about two minutes), these above a fixed-batch GP run, and group LASSO runs last.
func TestEstimatedCostOrdersThePaperCells(t *testing.T) {
	figs, _ := suiteFigures(SuitePaper, "")
	p, err := makePlan(SuitePaper, figs, "stand-in")
	if err != nil {
		t.Fatal(err)
	}
	worst := map[string]float64{}
	for _, c := range p.cells {
		key := c.Task + "/" + c.Method
		if c.BiasTol > 0 {
			key += "/adaptive-sigma=" + strconv.FormatFloat(float64(c.NoiseStd), 'g', -1, 64)
		}
		worst[key] = max(worst[key], estimatedCost(c))
	}
	order := []string{"gpreg/dpgibo/adaptive-sigma=1", "svr/dpgibo", "gpreg/dpgibo", "grouplasso/dpgibo"}
	for k := 1; k < len(order); k++ {
		if !(worst[order[k-1]] > worst[order[k]]) {
			t.Errorf("estimated cost of %s (%.3g s) not above %s (%.3g s)", order[k-1], worst[order[k-1]], order[k], worst[order[k]])
		}
	}
	if s := worst["gpreg/dpgibo/adaptive-sigma=1"]; s < 100 || s > 3000 {
		t.Errorf("the sigma = 1 adaptive cell is estimated at %.3g s; measured about 700 s", s)
	}
}
