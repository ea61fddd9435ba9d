package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"dpgibo/baselines/registry"
	"dpgibo/figures/stats"
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
	t, err := readLowSNR(dir)
	if err != nil || len(t.cands) == 0 {
		return "", err
	}
	cands, choice := t.cands, t.choice
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
	writeLowSNRRules(&b, t.rules)
	writeLowSNRAcceptance(&b, t.accept)
	cells, err := familyCells(t.arms)
	if err != nil {
		return "", err
	}
	writeLowSNRFamilies(&b, cells)
	return b.String(), nil
}

// lowSNRData are the low-SNR study's tables in a folder (each empty where it has none).
type lowSNRData struct {
	cands  []studies.LowSNRCandidateRow
	choice []studies.LowSNRChoiceRow
	rules  []studies.LowSNRRuleRow
	accept []studies.LowSNRAcceptanceRow
	arms   []lowSNRArm
}

// readLowSNR reads the low-SNR study's tables in dir.
func readLowSNR(dir string) (t lowSNRData, err error) {
	if t.cands, err = readOptional[studies.LowSNRCandidateRow](filepath.Join(dir, studies.LowSNRCandidatesFile)); err != nil {
		return t, err
	}
	if t.choice, err = readOptional[studies.LowSNRChoiceRow](filepath.Join(dir, studies.LowSNRChoiceFile)); err != nil {
		return t, err
	}
	if t.rules, err = readOptional[studies.LowSNRRuleRow](filepath.Join(dir, studies.LowSNRRulesFile)); err != nil {
		return t, err
	}
	if t.accept, err = readOptional[studies.LowSNRAcceptanceRow](filepath.Join(dir, studies.LowSNRAcceptanceFile)); err != nil {
		return t, err
	}
	t.arms, err = readOptional[lowSNRArm](filepath.Join(dir, studies.LowSNRFile))
	return t, err
}

// acceptanceTally counts the cells of rows that are not flagged, those that pass, those
// above the start, those where at least half the arms would pass, and of those the ones
// that pass.
type acceptanceTally struct{ cells, pass, above, easy, easyPass int }

func tallyAcceptance(rows []studies.LowSNRAcceptanceRow) acceptanceTally {
	var t acceptanceTally
	for _, r := range rows {
		if r.Flagged {
			continue
		}
		t.cells++
		if r.Pass {
			t.pass++
		}
		if r.AboveStart {
			t.above++
		}
		if 2*r.ArmsPassing >= r.Arms {
			t.easy++
			if r.Pass {
				t.easyPass++
			}
		}
	}
	return t
}

// roundRows are the acceptance rows of one held-out round.
func roundRows(rows []studies.LowSNRAcceptanceRow, round int) []studies.LowSNRAcceptanceRow {
	var out []studies.LowSNRAcceptanceRow
	for _, r := range rows {
		if r.Round == round {
			out = append(out, r)
		}
	}
	return out
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
		if own := roundRows(rows, round); name != "" && len(own) > 0 {
			writeLowSNRRoundAcceptance(b, name, own)
		}
	}
}

// writeLowSNRRoundAcceptance renders dp-auto's acceptance on the held-out cells of one
// round, named name.
func writeLowSNRRoundAcceptance(b *strings.Builder, name string, rows []studies.LowSNRAcceptanceRow) {
	fmt.Fprintf(b, "\ndp-auto on the %s round's held-out cells (G on seeds 31-60; the reference is the arm best by G on seeds 1-30, dp-auto left out):\n\n", name)
	b.WriteString("| problem | target | mu | reference | reference's G | dp-auto's G | above the start | passes | arms that would pass |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		flag := ""
		if r.Flagged {
			flag = " (flagged)"
		}
		fmt.Fprintf(b, "| %s%s | %s | %g | %s | %s | %s | %s | %s | %d of %d |\n", r.Problem, flag, r.Target, r.Mu, cell(r.Reference), sig(r.ReferenceG),
			sig(r.AutoG), yesNo(r.AboveStart), yesNo(r.Pass), r.ArmsPassing, r.Arms)
	}
	t := tallyAcceptance(rows)
	verdict := "passes"
	switch {
	case t.cells < lowSNRMinCells:
		verdict = fmt.Sprintf("has fewer than the declared %d cells after flags", lowSNRMinCells)
	case float64(t.pass) < lowSNRShare*float64(t.cells) || t.above > 0:
		verdict = "fails"
	}
	fmt.Fprintf(b, "\nAcceptance, %s round: %d of %d held-out cells pass (%.0f%%; at least %.0f%% declared, and none above the start), %d end above the start: the round %s. Apart: in the %d cells where at least half the arms would pass, dp-auto passes %d; in the other %d, %d.\n",
		name, t.pass, t.cells, 100*float64(t.pass)/float64(max(1, t.cells)), 100*lowSNRShare, t.above, verdict, t.easy, t.easyPass, t.cells-t.easy, t.pass-t.easyPass)
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

// lowSNRArm is what the family summary reads of a row of studies.LowSNRFile.
type lowSNRArm struct {
	Problem string  `csv:"problem"`
	Round   int     `csv:"round"`
	LogLoss bool    `csv:"log_loss"`
	Flagged bool    `csv:"flagged"`
	Target  string  `csv:"target"`
	Mu      float64 `csv:"mu"`
	Ceiling float64 `csv:"snr_ceiling"`
	Arm     string  `csv:"arm"`
	PickG   float64 `csv:"g_pick"`
	JudgeG  float64 `csv:"g_judge"`
}

// The families of private methods, as the family summary names them.
const (
	familyGIBO      = "DP-GIBO's family"
	familySelection = "the selections"
	familyGlobal    = "global search"
)

var families = []string{familyGIBO, familySelection, familyGlobal}

// family is the family of arm's method: DP-GIBO's (a local method: DP-GIBO, its variants,
// its safe release and hybrid), the selections (a method whose guarantee is read in a
// currency: report-noisy-min, the selections with a random number of trials, DP-HyPO), or
// global search (dp-random, dp-ucb); "" for dp-auto, the rule that chooses among them.
func family(arm string) (string, error) {
	name, _, _ := strings.Cut(arm, " ")
	m, ok := registry.Lookup(name)
	if !ok {
		return "", fmt.Errorf("low-SNR study: arm %q names no registered method", arm)
	}
	reads, _ := m.(interface{ ReadsCurrency() bool })
	switch {
	case m.Info().Local && reads != nil && reads.ReadsCurrency():
		return "", nil // dp-auto
	case m.Info().Local:
		return familyGIBO, nil
	case reads != nil && reads.ReadsCurrency():
		return familySelection, nil
	}
	return familyGlobal, nil
}

// lowSNRBands are the bands of DP-GIBO's SNR ceiling the family summary splits cells by.
var lowSNRBands = []struct {
	name   string
	lo, hi float64
}{{"below 2", 0, 2}, {"2 to 8", 2, 8}, {"8 and above", 8, math.Inf(1)}}

// familyCell is one cell of the family summary: the family of the arm best by G on the
// picking seeds (dp-auto left out) and each family's G on the judging seeds, of its own arm
// best on the picking seeds.
type familyCell struct {
	target  string
	logLoss bool
	ceiling float64
	winner  string
	g       map[string]float64
}

// familyCells groups rows into cells that are not flagged, in order.
func familyCells(rows []lowSNRArm) ([]familyCell, error) {
	type key struct {
		problem, target string
		mu              float64
	}
	var order []key
	best := map[key]map[string]lowSNRArm{} // the best arm of each family by G on the picking seeds
	for _, r := range rows {
		if r.Flagged {
			continue
		}
		f, err := family(r.Arm)
		if err != nil {
			return nil, err
		}
		if f == "" {
			continue
		}
		k := key{r.Problem, r.Target, r.Mu}
		if best[k] == nil {
			best[k] = map[string]lowSNRArm{}
			order = append(order, k)
		}
		if b, ok := best[k][f]; !ok || r.PickG < b.PickG {
			best[k][f] = r
		}
	}
	var out []familyCell
	for _, k := range order {
		c := familyCell{target: k.target, g: map[string]float64{}}
		var winner lowSNRArm
		for _, f := range families {
			r, ok := best[k][f]
			if !ok {
				continue
			}
			c.logLoss, c.ceiling, c.g[f] = r.LogLoss, r.Ceiling, r.JudgeG
			if c.winner == "" || r.PickG < winner.PickG {
				c.winner, winner = f, r
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// writeLowSNRFamilies renders which family wins where: by target, loss and band of the SNR
// ceiling, the cells each family's best arm wins, and the median over the cells of each
// family's G.
func writeLowSNRFamilies(b *strings.Builder, cells []familyCell) {
	if len(cells) == 0 {
		return
	}
	fmt.Fprintf(b, "\nWhich family wins where, over the %d cells that are not flagged (every round): in each cell the family of the method best by G on the picking seeds (dp-auto left out), and each family's median G on the judging seeds (of its own method best on the picking seeds); DP-GIBO's family is DP-GIBO, its candidates, safe release and hybrid; the selections are report-noisy-min, the selections with a random number of trials and DP-HyPO; global search is dp-random and dp-ucb:\n\n", len(cells))
	b.WriteString("| target | loss | SNR ceiling | cells | wins: DP-GIBO's family | the selections | global search | median G: DP-GIBO's family | the selections | global search |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, target := range []string{"eps-delta", "gdp"} {
		for _, logLoss := range []bool{true, false} {
			loss := "other"
			if logLoss {
				loss = "log loss"
			}
			for _, band := range lowSNRBands {
				wins := map[string]int{}
				gs := map[string][]float64{}
				n := 0
				for _, c := range cells {
					if c.target != target || c.logLoss != logLoss || c.ceiling < band.lo || c.ceiling >= band.hi {
						continue
					}
					n++
					wins[c.winner]++
					for f, g := range c.g {
						gs[f] = append(gs[f], g)
					}
				}
				if n == 0 {
					continue
				}
				fmt.Fprintf(b, "| %s | %s | %s | %d |", target, loss, band.name, n)
				for _, f := range families {
					fmt.Fprintf(b, " %d |", wins[f])
				}
				for _, f := range families {
					if len(gs[f]) == 0 {
						b.WriteString(" - |")
						continue
					}
					fmt.Fprintf(b, " %s |", sig(stats.Median(gs[f])))
				}
				b.WriteString("\n")
			}
		}
	}
}

// lowSNRSummary renders README's line on the low-SNR study in dir: where each family wins
// at each currency, what the default DP-GIBO does on the held-out problems, and each held-out
// round's verdict on dp-auto; "" without the study.
func lowSNRSummary(dir string) (string, error) {
	t, err := readLowSNR(dir)
	if err != nil {
		return "", err
	}
	cells, err := familyCells(t.arms)
	if err != nil || len(cells) == 0 {
		return "", err
	}
	var b strings.Builder
	// wins counts the cells at target of a log loss or not, at a ceiling of at least
	// minCeiling, and those family wins.
	wins := func(family, target string, logLoss bool, minCeiling float64) (won, of int) {
		for _, c := range cells {
			if c.target == target && c.logLoss == logLoss && c.ceiling >= minCeiling {
				of++
				if c.winner == family {
					won++
				}
			}
		}
		return won, of
	}
	fmt.Fprintf(&b, "Where each family of private methods wins, over the low-SNR study's %d cells (the method best on its picking seeds; [docs/library.md](docs/library.md#dp-gibo-at-low-snr-declared-before-its-runs)):", len(cells))
	for _, t := range []struct{ target, name string }{{"eps-delta", "at (epsilon, delta)"}, {"gdp", "at mu-GDP"}} {
		sel, selOf := wins(familySelection, t.target, true, 0)
		selHigh, selHighOf := wins(familySelection, t.target, true, 8)
		gibo, giboOf := wins(familyGIBO, t.target, false, 0)
		if selOf+giboOf == 0 {
			continue
		}
		fmt.Fprintf(&b, " %s, the selections win %d of %d log-loss cells (%d of %d where DP-GIBO's SNR ceiling is 8 or more) and DP-GIBO's family %d of %d others;",
			t.name, sel, selOf, selHigh, selHighOf, gibo, giboOf)
	}
	text := strings.TrimSuffix(b.String(), ";") + "."
	b.Reset()
	b.WriteString(text)
	for round, name := range []string{1: "first", 2: "second"} {
		i := slices.IndexFunc(t.choice, func(r studies.LowSNRChoiceRow) bool { return r.Round == round && r.HeldOut == studies.AllProblems })
		if name == "" || i < 0 {
			continue
		}
		chosen := t.choice[i].Chosen
		for _, r := range t.cands {
			if r.Set == lowSNRSets[round][1] && r.Arm == chosen {
				fmt.Fprintf(&b, " On the %s round's %d held-out problems, the default DP-GIBO its choice kept (`%s`) ends above its start in %d cells (none declared);", name, r.Problems, chosen, r.AboveStart)
			}
		}
		if a := tallyAcceptance(roundRows(t.accept, round)); a.cells > 0 {
			fmt.Fprintf(&b, " dp-auto passes %d of their %d cells (%.0f%%, %.0f%% declared) and ends above the start in %d (none declared).",
				a.pass, a.cells, 100*float64(a.pass)/float64(a.cells), 100*lowSNRShare, a.above)
		}
	}
	return b.String(), nil
}
