package studies

import (
	"math"
	"testing"
)

// arm is a hand-made arm of a low-SNR cell: G on the picking and judging seeds, and whether
// its median ends above the start.
type arm struct {
	pick, judge float64
	above       bool
}

const (
	shrinkArm   = "dpgibo shrink=signal"
	fallbackArm = "dpgibo release=fallback,fallback_snr=0.2"
)

func handCell(problem string, heldOut, logLoss bool, target string, arms map[string]arm) lowSNRCell {
	c := lowSNRCell{problem: problem, heldOut: heldOut, logLoss: logLoss, target: target, mu: 1, rows: map[string]LowSNRRow{},
		candidates: []string{dpgiboMethod, shrinkArm, fallbackArm}}
	for _, name := range []string{dpgiboMethod, shrinkArm, fallbackArm, "dp-rnm", "dp-random", autoMethod} {
		a, ok := arms[name]
		if !ok {
			continue
		}
		c.arms = append(c.arms, name)
		c.rows[name] = LowSNRRow{Problem: problem, Arm: name, PickG: a.pick, JudgeG: a.judge, AboveStart: a.above}
	}
	return c
}

// The declared criterion: a candidate above the start in a training cell is out, and so is
// one outside the margin elsewhere; of the rest, the smallest worst log-loss ratio wins;
// when none is left, today's DP-GIBO stays.
func TestChooseDefaultByTheDeclaredCriterion(t *testing.T) {
	// Today's DP-GIBO walks away on the log-loss cell; shrink is 1.2x dp-rnm there and no
	// worse elsewhere; fallback is best on log loss but ends above its start once.
	logLoss := handCell("a", false, true, targetEpsDelta, map[string]arm{
		dpgiboMethod: {3, 3, true}, shrinkArm: {0.6, 0.6, false}, fallbackArm: {0.5, 0.5, false}, "dp-rnm": {0.5, 0.5, false}})
	var cells []lowSNRCell
	cells = append(cells, logLoss)
	for i, p := range []string{"b", "c", "d", "e", "f", "g"} {
		above := i == 0
		cells = append(cells, handCell(p, false, false, targetEpsDelta, map[string]arm{
			dpgiboMethod: {0.2, 0.2, false}, shrinkArm: {0.2, 0.2 * (1 + 0.01*float64(i%2)), false}, fallbackArm: {0.2, 0.2, above}, "dp-rnm": {0.3, 0.3, false}}))
	}
	got, err := chooseDefault(cells)
	if err != nil {
		t.Fatal(err)
	}
	if got.arm != shrinkArm || got.aboveStart != 0 || math.Abs(got.worstLogLoss-1.2) > 1e-12 || got.elsewhereHigh > math.Log(lowSNRMargin) {
		t.Errorf("chose %+v, want shrink (worst log-loss ratio 1.2, within the margin)", got)
	}
	// Shrink 30% worse elsewhere: outside the margin; today's and fallback end above their
	// start once: none qualifies, and today's stays.
	for i := range cells[1:] {
		r := cells[i+1].rows[shrinkArm]
		r.JudgeG = 0.26
		cells[i+1].rows[shrinkArm] = r
	}
	got, err = chooseDefault(cells)
	if err != nil {
		t.Fatal(err)
	}
	if got.arm != dpgiboMethod {
		t.Errorf("with shrink outside the margin and fallback above the start: chose %s, want today's", got.arm)
	}
}

// dp-auto passes a held-out cell within 1.10x the reference's G + 0.02 and not above the
// start; the reference is picked on the picking seeds, dp-auto left out.
func TestLowSNRAcceptance(t *testing.T) {
	cells := []lowSNRCell{
		handCell("h", true, true, targetGDP, map[string]arm{dpgiboMethod: {0.5, 0.6, false}, "dp-rnm": {0.4, 0.5, false}, autoMethod: {0.1, 0.57, false}}),
		handCell("h", true, true, targetEpsDelta, map[string]arm{dpgiboMethod: {0.5, 0.6, false}, "dp-rnm": {0.4, 0.5, false}, autoMethod: {0.1, 0.58, false}}),
		handCell("h", true, false, targetEpsDelta, map[string]arm{dpgiboMethod: {0.5, 0.6, false}, autoMethod: {0.1, 0.1, true}}),
		handCell("t", false, false, targetEpsDelta, map[string]arm{dpgiboMethod: {0.5, 0.6, false}}),
	}
	rows, err := lowSNRAcceptance(cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want the 3 held-out cells", len(rows))
	}
	for i, want := range []bool{true, false, false} {
		if rows[i].Pass != want || rows[i].Reference != map[bool]string{true: "dp-rnm", false: dpgiboMethod}[i < 2] {
			t.Errorf("cell %d: %+v, want pass %v", i, rows[i], want)
		}
	}
	if rows[0].ArmsPassing != 1 || rows[0].Arms != 2 {
		t.Errorf("arms passing in cell 0: %d of %d, want 1 of 2", rows[0].ArmsPassing, rows[0].Arms)
	}
}
