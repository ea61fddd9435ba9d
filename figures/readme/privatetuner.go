package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"dpgibo/figures/studies"
)

// privateTunerTables renders dir's library-private.csv (the private-tuner study) and, when
// the choice of rule has run, library-private-rules.csv: the median normalised gap of every
// method in every cell with the picked method in bold, the choice of rule leave one problem
// out and on the new problems, and every method's median loss with its interval.
func privateTunerTables(dir string) (string, error) {
	rows, err := readOptional[studies.PrivateRow](filepath.Join(dir, studies.LibraryPrivateFile))
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		return "No cell of the study has its f* committed yet.", nil
	}
	var methods []string
	type cell struct {
		problem string
		mu      float64
	}
	var cells []cell
	byCell := map[cell]map[string]studies.PrivateRow{}
	for _, r := range rows {
		if !slices.Contains(methods, r.Method) {
			methods = append(methods, r.Method)
		}
		c := cell{r.Problem, r.Mu}
		if byCell[c] == nil {
			byCell[c] = map[string]studies.PrivateRow{}
			cells = append(cells, c)
		}
		byCell[c][r.Method] = r
	}
	var b strings.Builder
	b.WriteString("Median normalised gap g = (loss - f*)/(start - f*) over seeds 1-10 (0: at f*, 1: at the start); in bold the method picked on seeds 1-5; ^ marks a median loss above the median start.\n\n")
	b.WriteString("| problem | mu | n | d | SNR ceiling | " + strings.Join(methods, " | ") + " |\n")
	b.WriteString("|---|---|---|---|---|" + strings.Repeat("---|", len(methods)) + "\n")
	for _, c := range cells {
		ms := byCell[c]
		var any studies.PrivateRow
		for _, r := range ms {
			any = r
			break
		}
		fmt.Fprintf(&b, "| %s | %g | %d | %d | %s |", c.problem, c.mu, any.Users, any.D, sig(any.SNRCeiling))
		for _, m := range methods {
			r, ok := ms[m]
			switch {
			case !ok:
				b.WriteString(" |")
				continue
			case r.Picked:
				fmt.Fprintf(&b, " **%s**", sig(r.MedianGap))
			default:
				fmt.Fprintf(&b, " %s", sig(r.MedianGap))
			}
			if r.AboveStart {
				b.WriteString(" ^")
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	writeWins(&b, rows)
	rules, err := readOptional[studies.RuleRow](filepath.Join(dir, studies.LibraryPrivateRulesFile))
	if err != nil {
		return "", err
	}
	if len(rules) > 0 {
		b.WriteString("\nThe choice of rule (seeds 6-10 judge): each held-out cell's rule, chosen on the other problems, the method it runs, its median g and the picked method's.\n\n")
		b.WriteString("| round | held out | rule | mu | method | g | picked | picked g | passes | loosely |\n|---|---|---|---|---|---|---|---|---|---|\n")
		for _, r := range rules {
			if r.Method == "" {
				fmt.Fprintf(&b, "| %s | %s | %s (passes %d of %d cells) | | | | | | | |\n", r.Round, r.HeldOut, r.Rule, r.TrainPass, r.TrainCells)
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %g | %s | %s | %s | %s | %s | %s |\n", r.Round, r.HeldOut, r.Rule, r.Mu, r.Method, sig(r.Gap), r.Picked, sig(r.PickedGap), yesNo(r.Pass), yesNo(r.Loose))
		}
		writeAcceptance(&b, rules)
	}
	low, err := lowSNRTables(dir)
	if err != nil {
		return "", err
	}
	b.WriteString(low)
	b.WriteString("\n<details><summary>Every method's median final loss (95% interval), median start and g, per cell</summary>\n\n")
	b.WriteString("| problem | mu | method | median loss [95% CI] | median start | g | g, seeds 1-5 | g, seeds 6-10 | above start |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %g | %s | %s [%s, %s] | %s | %s | %s | %s | %s |\n", r.Problem, r.Mu, r.Method, sig(r.MedianLoss), sig(r.LossCILow), sig(r.LossCIHigh),
			sig(r.MedianStart), sig(r.MedianGap), sig(r.PickGap), sig(r.JudgeGap), yesNo(r.AboveStart))
	}
	b.WriteString("\n</details>")
	return b.String(), nil
}

// writeAcceptance judges each round of the rules table by the declared acceptance: at least
// 80% of its cells pass, every cell passes loosely, and no cell ends above its start.
func writeAcceptance(b *strings.Builder, rules []studies.RuleRow) {
	var rounds []string
	type tally struct{ cells, pass, loose, above int }
	byRound := map[string]*tally{}
	for _, r := range rules {
		if r.Method == "" {
			continue
		}
		t := byRound[r.Round]
		if t == nil {
			t = &tally{}
			byRound[r.Round] = t
			rounds = append(rounds, r.Round)
		}
		t.cells++
		if r.Pass {
			t.pass++
		}
		if r.Loose {
			t.loose++
		}
		if r.AboveStart {
			t.above++
		}
	}
	if len(rounds) == 0 {
		return
	}
	b.WriteString("\nAcceptance (at least 80% of the cells pass, every cell passes loosely, none ends above its start):\n\n")
	for _, round := range rounds {
		t := byRound[round]
		verdict := "holds"
		if 5*t.pass < 4*t.cells || t.loose < t.cells || t.above > 0 {
			verdict = "fails"
		}
		fmt.Fprintf(b, "- %s: %d of %d cells pass (%.0f%%), %d pass loosely, %d end above the start: %s.\n",
			round, t.pass, t.cells, 100*float64(t.pass)/float64(t.cells), t.loose, t.above, verdict)
	}
}

// yesNo is a boolean as a table cell.
func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// writeWins summarises the table by method: the cells in which each method was picked, and
// the ranges of n, d and the SNR ceiling over them.
func writeWins(b *strings.Builder, rows []studies.PrivateRow) {
	type wins struct {
		cells                  []string
		minN, maxN, minD, maxD int
		minSNR, maxSNR         float64
	}
	var order []string
	by := map[string]*wins{}
	total := 0
	for _, r := range rows {
		if !r.Picked {
			continue
		}
		total++
		w := by[r.Method]
		if w == nil {
			w = &wins{minN: r.Users, maxN: r.Users, minD: r.D, maxD: r.D, minSNR: r.SNRCeiling, maxSNR: r.SNRCeiling}
			by[r.Method] = w
			order = append(order, r.Method)
		}
		w.cells = append(w.cells, fmt.Sprintf("%s at mu %g", r.Problem, r.Mu))
		w.minN, w.maxN, w.minD, w.maxD = min(w.minN, r.Users), max(w.maxN, r.Users), min(w.minD, r.D), max(w.maxD, r.D)
		w.minSNR, w.maxSNR = min(w.minSNR, r.SNRCeiling), max(w.maxSNR, r.SNRCeiling)
	}
	slices.SortStableFunc(order, func(a, c string) int { return len(by[c].cells) - len(by[a].cells) })
	fmt.Fprintf(b, "\nWhere each method is picked (seeds 1-5), of %d cells:\n\n", total)
	for _, m := range order {
		w := by[m]
		fmt.Fprintf(b, "- `%s`: %d (n %d-%d, d %d-%d, SNR ceiling %s-%s): %s.\n", m, len(w.cells), w.minN, w.maxN, w.minD, w.maxD,
			sig(w.minSNR), sig(w.maxSNR), strings.Join(w.cells, ", "))
	}
}
