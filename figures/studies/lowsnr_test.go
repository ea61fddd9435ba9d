package studies

import (
	"math"
	"slices"
	"testing"

	"dpgibo/figures/verdict/verdicttest"
	"dpgibo/private"
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
	c := lowSNRCell{problem: problem, round: boolInt(heldOut), logLoss: logLoss, target: target, mu: 1, rows: map[string]lowSNRRow{},
		candidates: []string{dpgiboMethod, shrinkArm, fallbackArm}}
	for _, name := range []string{dpgiboMethod, shrinkArm, fallbackArm, "dpgibo-safe", "dpgibo-hybrid", "dp-rnm", "dp-select-geometric", "dp-random", autoMethod} {
		a, ok := arms[name]
		if !ok {
			continue
		}
		c.arms = append(c.arms, name)
		c.rows[name] = lowSNRRow{Problem: problem, Arm: name, PickG: a.pick, JudgeG: a.judge, AboveStart: a.above}
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

// dp-auto's rule at a target: the rules naming a method the target does not offer are not
// candidates; a rule running DP-GIBO runs the chosen default's arm; the criterion ranks
// passing cells first, ties to the earlier rule.
func TestLowSNRRuleChoice(t *testing.T) {
	// At mu-GDP, dp-select-negbin is not offered. dp-rnm is best on the log-loss cell; the
	// chosen default (shrink) elsewhere, where today's DP-GIBO, safe and hybrid fail.
	var cells []lowSNRCell
	for i, p := range []string{"a", "b", "c"} {
		logLoss := i == 0
		arms := map[string]arm{dpgiboMethod: {0.5, 0.5, false}, shrinkArm: {0.1, 0.1, false}, fallbackArm: {0.9, 0.9, false},
			"dpgibo-safe": {0.5, 0.5, false}, "dpgibo-hybrid": {0.5, 0.5, false}, "dp-rnm": {0.9, 0.9, false}, "dp-select-geometric": {0.9, 0.9, false}}
		if logLoss {
			arms[shrinkArm], arms["dp-rnm"] = arm{0.9, 0.9, true}, arm{0.1, 0.1, false}
		}
		c := handCell(p, false, logLoss, targetGDP, arms)
		c.facts = private.Facts{Users: 1000, Dim: 2, Mu: 1, Evals: 60, LogLoss: logLoss}
		cells = append(cells, c)
	}
	candidates := lowSNRRuleCandidates(secondRoundRules(), cells)
	if n := len(secondRoundRules()) - 57; len(candidates) != n {
		t.Errorf("%d candidate rules without dp-select-negbin, want %d", len(candidates), n)
	}
	for _, r := range candidates {
		if slices.Contains(ruleMethods(r), private.NegBinSelection) {
			t.Errorf("candidate %s names a method the target does not offer", ruleName(r))
		}
	}
	rule, s, err := chooseLowSNRRule(candidates, cells, shrinkArm)
	if err != nil {
		t.Fatal(err)
	}
	want := private.ByLoss{LogLoss: private.ReportNoisyMin, Other: private.Always{Method: private.DPGIBO}}
	if rule != private.Rule(want) || s.pass != 3 {
		t.Errorf("chose %s passing %d of 3, want %s passing 3", ruleName(rule), s.pass, ruleName(want))
	}
	// With today's DP-GIBO as the default, no rule passes the two other cells by DP-GIBO.
	if _, s, _ = chooseLowSNRRule(candidates, cells, dpgiboMethod); s.pass != 1 {
		t.Errorf("with today's DP-GIBO as the default the best rule passes %d cells, want 1", s.pass)
	}
	rows, err := lowSNRRules(cells, []LowSNRChoiceRow{{Round: 1, HeldOut: AllProblems, Chosen: shrinkArm}})
	if err != nil {
		t.Fatal(err)
	}
	// Three left out, one row each, then the choice on all three.
	if len(rows) != 4 || rows[3].Round != lowSNRRuleRounds[1][1] || rows[3].Rule != ruleName(want) || rows[0].Target != targetGDP {
		t.Errorf("rows %+v, want 3 left out and the choice %s", rows, ruleName(want))
	}

	// The second round chooses on the training and the first round's problems, among more
	// rules: a first-round log loss on which the hybrid is best and dp-rnm ends above the
	// start moves the choice to the hybrid for a log loss, a rule the first round lacked.
	h := handCell("h", true, true, targetGDP, map[string]arm{dpgiboMethod: {0.5, 0.5, false}, shrinkArm: {0.9, 0.9, true}, fallbackArm: {0.9, 0.9, false},
		"dpgibo-safe": {0.5, 0.5, false}, "dpgibo-hybrid": {0.1, 0.1, false}, "dp-rnm": {0.9, 1.1, true}, "dp-select-geometric": {0.9, 0.9, false}})
	h.facts = private.Facts{Users: 1000, Dim: 2, Mu: 1, Evals: 60, LogLoss: true}
	cells[0].rows["dpgibo-hybrid"] = lowSNRRow{PickG: 0.1, JudgeG: 0.1}
	rows, err = lowSNRRules(append(cells, h), []LowSNRChoiceRow{{Round: 1, HeldOut: AllProblems, Chosen: shrinkArm}, {Round: 2, HeldOut: AllProblems, Chosen: shrinkArm}})
	if err != nil {
		t.Fatal(err)
	}
	want2 := private.ByLoss{LogLoss: private.HybridDPGIBO, Other: private.Always{Method: private.DPGIBO}}
	var round2 []LowSNRRuleRow
	for _, r := range rows {
		if r.Round == lowSNRRuleRounds[2][1] {
			round2 = append(round2, r)
		}
	}
	if len(round2) != 1 || round2[0].Rule != ruleName(want2) || round2[0].TrainCells != 4 || round2[0].TrainPass != 4 {
		t.Errorf("second round's choice %+v, want %s passing 4 of 4", round2, ruleName(want2))
	}
	if slices.ContainsFunc(secondRoundRules(), func(r private.Rule) bool { return r == private.Rule(want2) }) {
		t.Errorf("the first round's rules hold %s already", ruleName(want2))
	}
}

// A run's own folder holds a training figure without the committed runs it is read beside:
// the problem has no cell there, and no error stops the run's verdicts.
func TestLowSNRTrainingFigureAlone(t *testing.T) {
	res := withFStar(t, verdicttest.RowsOf(lowSNRTrainPrefix+"toy", dpgiboMethod, "mu=1,shrink=signal", 2, 0.5, 0.4))
	cells, err := readLowSNRCells(res)
	if err != nil || len(cells) != 0 {
		t.Errorf("cells %+v, %v; want none and no error", cells, err)
	}
}
