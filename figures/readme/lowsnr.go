package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"dpgibo/figures/studies"
)

// The low-SNR study's declared bars (docs/library.md, "DP-GIBO at low SNR"): the study
// passes when at least lowSNRShare of at least lowSNRMinCells held-out cells pass and none
// ends above the start; DP-GIBO's default meets its log-loss target at a worst ratio of at
// most lowSNRLogLossBar.
const (
	lowSNRShare      = 0.8
	lowSNRMinCells   = 36
	lowSNRLogLossBar = 1.5
	lowSNRMargin     = 1.10
)

// lowSNRTables renders the low-SNR study's tables in dir, those that exist: how DP-GIBO's
// candidates stand (training, then held out), the choice leaving each training problem
// out, dp-auto's rule at each target, and dp-auto's acceptance on the held-out cells. It
// returns "" when the study has no table in dir.
func lowSNRTables(dir string) (string, error) {
	cands, err := readOptional[studies.LowSNRCandidateRow](filepath.Join(dir, studies.LowSNRCandidatesFile))
	if err != nil {
		return "", err
	}
	choice, err := readOptional[studies.LowSNRChoiceRow](filepath.Join(dir, studies.LowSNRChoiceFile))
	if err != nil {
		return "", err
	}
	rules, err := readOptional[studies.LowSNRRuleRow](filepath.Join(dir, studies.LowSNRRulesFile))
	if err != nil {
		return "", err
	}
	accept, err := readOptional[studies.LowSNRAcceptanceRow](filepath.Join(dir, studies.LowSNRAcceptanceFile))
	if err != nil {
		return "", err
	}
	if len(cands) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("\n**The low-SNR study.** DP-GIBO's candidates by the declared criterion (G = (median loss - f*)/(median start - f*) on the judging seeds; cells above the start; the worst log-loss ratio, G over the best other method's; elsewhere, the upper end of the 95% interval of the median ratio of G to today's DP-GIBO's, and the largest ratio):\n\n")
	b.WriteString("| problems | candidate | cells above the start | worst log-loss ratio | elsewhere: interval's upper end | elsewhere: worst ratio | qualifies |\n|---|---|---|---|---|---|---|\n")
	for _, r := range cands {
		fmt.Fprintf(&b, "| %s (%d) | %s | %d | %s | %s | %s | %s |\n", r.Set, r.Problems, cell(r.Arm), r.AboveStart, ratio(r.WorstLogLoss),
			ratio(math.Exp(r.ElsewhereHigh)), ratio(r.ElsewhereWorst), yesNo(r.Qualifies))
	}
	for round := 1; round <= 2; round++ {
		var rows []studies.LowSNRChoiceRow
		for _, r := range choice {
			if r.Round == round {
				rows = append(rows, r)
			}
		}
		n := len(rows)
		if n == 0 {
			continue
		}
		all, on := rows[n-1], "training problems"
		if round == 2 {
			on = "training and first-round held-out problems (the second round's choice)"
		}
		fmt.Fprintf(&b, "\nChosen on all %d %s: `%s`", all.Problems, on, all.Chosen)
		if !candidateQualifies(cands, all.Chosen, round) {
			b.WriteString(" (no candidate qualifies, so today's DP-GIBO stays)")
		}
		b.WriteString(". Leaving one of them out, the choice on the others and how it fares on the one left out:\n\n")
		b.WriteString("| left out | chosen | its cells above the start | worst log-loss ratio | worst ratio to today's elsewhere |\n|---|---|---|---|---|\n")
		for _, r := range rows[:n-1] {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", r.HeldOut, cell(r.Chosen), r.HeldOutAboveStart, ratio(r.HeldOutWorstLogLoss), ratio(r.HeldOutWorstElsewhere))
		}
		writeLowSNRTargets(&b, cands, all.Chosen, round)
	}
	writeLowSNRRules(&b, rules)
	writeLowSNRAcceptance(&b, accept)
	return b.String(), nil
}

// ratio writes a ratio of G, or "-" for none (a set without cells of the kind: 0).
func ratio(v float64) string {
	if v <= 0 {
		return "-"
	}
	return sig(v)
}

// candidateQualifies reports whether arm qualifies on the problems round chooses on.
func candidateQualifies(rows []studies.LowSNRCandidateRow, arm string, round int) bool {
	for _, r := range rows {
		if r.Arm == arm && r.Qualifies && r.Set == lowSNRSets[round][0] {
			return true
		}
	}
	return false
}

// lowSNRSets are the candidates' sets of problems of each held-out round (studies'): those
// it chooses on, and its own.
var lowSNRSets = [3][2]string{1: {"training", "held out"}, 2: {"training and first held-out round", "second held-out round"}}

// writeLowSNRRules renders the choice of dp-auto's rule at each target: the rule on every
// training problem, and each problem left out with the rule chosen on the others and its
// passing cells there; then, for information, the rule through the arms on held-out cells.
func writeLowSNRRules(b *strings.Builder, rules []studies.LowSNRRuleRow) {
	if len(rules) == 0 {
		return
	}
	b.WriteString("\ndp-auto's rule at each target, chosen for each held-out round on the problems of the rounds before it (a cell passes at G at most 1.10 times the reference's + 0.02, the reference picked on the picking seeds, and not above the start):\n\n")
	b.WriteString("| round | target | chosen on | rule | cells passing |\n|---|---|---|---|---|\n")
	type key struct{ target, round, heldOut string }
	type tally struct {
		rule        string
		pass, cells int
	}
	var order []key
	by := map[key]*tally{}
	for _, r := range rules {
		k := key{r.Target, r.Round, r.HeldOut}
		t := by[k]
		if t == nil {
			t = &tally{rule: r.Rule}
			by[k] = t
			order = append(order, k)
		}
		if r.Problem == "" { // the choice itself: its training cells
			t.pass, t.cells = r.TrainPass, r.TrainCells
			continue
		}
		t.cells++
		if r.Pass {
			t.pass++
		}
	}
	for _, k := range order {
		t := by[k]
		on, round := "every training problem", "first"
		if strings.HasPrefix(k.round, "second round") {
			on, round = "every training and first-round held-out problem", "second"
		}
		switch {
		case k.heldOut != studies.AllProblems:
			on = "all but " + k.heldOut + " (judged on it)"
		case strings.HasSuffix(k.round, "held out, through the arms"):
			on += ", judged through the arms on the " + round + " round's held-out cells"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d of %d |\n", round, k.target, on, cell(t.rule), t.pass, t.cells)
	}
}

// writeLowSNRAcceptance renders dp-auto's acceptance on the held-out cells and the study's
// verdict: at least lowSNRShare of at least lowSNRMinCells cells that are not flagged pass,
// and none ends above the start; the cells where at least half the arms would pass are
// reported apart too.
func writeLowSNRAcceptance(b *strings.Builder, rows []studies.LowSNRAcceptanceRow) {
	for round, name := range []string{1: "first", 2: "second"} {
		if name == "" {
			continue
		}
		var own []studies.LowSNRAcceptanceRow
		for _, r := range rows {
			if r.Round == round {
				own = append(own, r)
			}
		}
		if len(own) > 0 {
			writeLowSNRRoundAcceptance(b, name, own)
		}
	}
}

// writeLowSNRRoundAcceptance renders dp-auto's acceptance on the held-out cells of one
// round, named name.
func writeLowSNRRoundAcceptance(b *strings.Builder, name string, rows []studies.LowSNRAcceptanceRow) {
	fmt.Fprintf(b, "\ndp-auto on the %s round's held-out cells (G on seeds 31-60; the reference is the arm best by G on seeds 1-30, dp-auto left out):\n\n", name)
	b.WriteString("| problem | target | mu | reference | reference's G | dp-auto's G | above the start | passes | arms that would pass |\n|---|---|---|---|---|---|---|---|---|\n")
	var cells, pass, above, easy, easyPass int
	for _, r := range rows {
		flag := ""
		if r.Flagged {
			flag = " (flagged)"
		}
		fmt.Fprintf(b, "| %s%s | %s | %g | %s | %s | %s | %s | %s | %d of %d |\n", r.Problem, flag, r.Target, r.Mu, cell(r.Reference), sig(r.ReferenceG),
			sig(r.AutoG), yesNo(r.AboveStart), yesNo(r.Pass), r.ArmsPassing, r.Arms)
		if r.Flagged {
			continue
		}
		cells++
		if r.Pass {
			pass++
		}
		if r.AboveStart {
			above++
		}
		if 2*r.ArmsPassing >= r.Arms {
			easy++
			if r.Pass {
				easyPass++
			}
		}
	}
	verdict := "passes"
	switch {
	case cells < lowSNRMinCells:
		verdict = fmt.Sprintf("has fewer than the declared %d cells after flags", lowSNRMinCells)
	case float64(pass) < lowSNRShare*float64(cells) || above > 0:
		verdict = "fails"
	}
	fmt.Fprintf(b, "\nAcceptance, %s round: %d of %d held-out cells pass (%.0f%%; at least %.0f%% declared, and none above the start), %d end above the start: the round %s. Apart: in the %d cells where at least half the arms would pass, dp-auto passes %d; in the other %d, %d.\n",
		name, pass, cells, 100*float64(pass)/float64(max(1, cells)), 100*lowSNRShare, above, verdict, easy, easyPass, cells-easy, pass-easyPass)
}

// writeLowSNRTargets judges the chosen default by the declared targets on each set of
// problems (held out; the training set reported apart): above the start in no cell, a worst
// log-loss ratio of at most lowSNRLogLossBar, and elsewhere the upper end of the interval of
// its median ratio to today's at most lowSNRMargin.
func writeLowSNRTargets(b *strings.Builder, rows []studies.LowSNRCandidateRow, chosen string, round int) {
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	for _, r := range rows {
		if r.Arm != chosen || (r.Set != lowSNRSets[round][0] && r.Set != lowSNRSets[round][1]) {
			continue
		}
		fmt.Fprintf(b, "\nTargets of the default `%s` on the %s problems: above the start in %d cells (none declared): %s; worst log-loss ratio %s (at most %g): %s; elsewhere, the interval's upper end %s (at most %.2f): %s.\n",
			chosen, r.Set, r.AboveStart, met(r.AboveStart == 0), sig(r.WorstLogLoss), lowSNRLogLossBar, met(r.WorstLogLoss <= lowSNRLogLossBar),
			sig(math.Exp(r.ElsewhereHigh)), lowSNRMargin, met(r.ElsewhereHigh <= math.Log(lowSNRMargin)))
	}
}
