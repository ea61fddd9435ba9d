package studies

import (
	"fmt"
	"slices"

	"dpgibo/private"
)

// The choice of dp-auto's rule in the low-SNR study (docs/library.md, "Choosing dp-auto's
// rule"), after DP-GIBO's default is chosen: for each held-out round, at each target apart,
// among the round's candidate rules that name only methods the target offers, the rule the
// first round's criterion ranks first on the cells of the rounds before it (most passing,
// then most loosely passing, then the smallest mean G above the reference's, then the
// earlier), a rule's G in a cell being that of the arm running the method it chooses there.

// LowSNRRulesFile is the table of the choice: leaving each training problem out (judged on
// it), on every training problem, and the chosen rule through the arms on the held-out
// cells (for information: dp-auto's own runs judge it, low-snr-acceptance.csv).
const LowSNRRulesFile = "low-snr-rules.csv"

// Rounds of LowSNRRuleRow: the held-out round's first, its choice leaving one problem out,
// on all its problems to choose on, and judged through the arms on its own.
var lowSNRRuleRounds = [lowSNRRounds + 1][3]string{
	1: {"leave-one-out", "training", "held out, through the arms"},
	2: {"second round: leave-one-out", "second round: training and first held-out round", "second round: held out, through the arms"},
}

// lowSNRRoundRules are the candidate rules of each held-out round, before the filter by the
// methods a target offers: the second round's rules of the private-tuner study for the
// first; for the second, declared after the first failed (logistic5, a log loss on which
// DP-GIBO is best), those and ByLoss with each of DP-GIBO, its safe release and its hybrid
// for a log loss.
func lowSNRRoundRules(round int) []private.Rule {
	out := secondRoundRules()
	if round < 2 {
		return out
	}
	for _, l := range []private.Candidate{private.DPGIBO, private.SafeDPGIBO, private.HybridDPGIBO} {
		for _, r := range private.CandidateRules() {
			out = append(out, private.ByLoss{LogLoss: l, Other: r})
		}
	}
	return out
}

// LowSNRRuleRow is one choice of rule at a target, judged on one cell (low-snr-rules.csv).
type LowSNRRuleRow struct {
	Target  string `csv:"target"`
	Round   string `csv:"round"`
	HeldOut string `csv:"held_out"`
	// Rule is the chosen rule; TrainCells, TrainPass and TrainLoose its training cells,
	// passing and loosely passing.
	Rule       string `csv:"rule"`
	TrainCells int    `csv:"train_cells"`
	TrainPass  int    `csv:"train_pass"`
	TrainLoose int    `csv:"train_loose"`
	// Problem, Mu, Arm, G, Reference, ReferenceG, AboveStart and Pass judge one cell: the
	// arm the rule runs there, its G on the judging seeds, the reference's, and the bars.
	Problem    string  `csv:"problem"`
	Mu         float64 `csv:"mu"`
	Arm        string  `csv:"arm"`
	G          float64 `csv:"g_judge"`
	Reference  string  `csv:"reference"`
	ReferenceG float64 `csv:"reference_g_judge"`
	AboveStart bool    `csv:"ends_above_start"`
	Pass       bool    `csv:"pass"`
}

// ruleMethods are the methods rule may choose.
func ruleMethods(rule private.Rule) []private.Candidate {
	switch r := rule.(type) {
	case private.Always:
		return []private.Candidate{r.Method}
	case private.ByCeiling:
		return []private.Candidate{r.Below, r.Above}
	case private.ByLoss:
		return append(ruleMethods(r.Other), r.LogLoss)
	case private.ByCurrency:
		return append(ruleMethods(r.EpsDelta), ruleMethods(r.GDP)...)
	}
	panic(fmt.Sprintf("studies: rule %T names no methods the study knows", rule))
}

// ruleArm is the arm of cell that runs the method rule chooses there: DP-GIBO's chosen
// default for DP-GIBO, the method's own runs otherwise.
func ruleArm(rule private.Rule, c lowSNRCell, defaultArm string) string {
	m := rule.Choose(c.facts).Method
	if m == private.DPGIBO {
		return defaultArm
	}
	return m.String()
}

// judgeArm judges arm in c against the reference, the arm best by G on the picking seeds
// (dp-auto left out): whether it passes, passes loosely, and its G above the reference's.
func judgeArm(c lowSNRCell, arm string) (row LowSNRRuleRow, loose bool, err error) {
	ref, refG, err := c.reference()
	if err != nil {
		return row, false, err
	}
	r, ok := c.rows[arm]
	if !ok {
		return row, false, fmt.Errorf("%s (%s, mu = %v): no runs of %s", c.problem, c.target, c.mu, arm)
	}
	row = LowSNRRuleRow{Target: c.target, Problem: c.problem, Mu: c.mu, Arm: arm, G: r.JudgeG, Reference: ref, ReferenceG: refG,
		AboveStart: r.AboveStart, Pass: passes(r, refG)}
	loose = r.JudgeG <= looseRatio*refG+looseSlack && !r.AboveStart
	return row, loose, nil
}

// scoreLowSNRRule judges rule on cells.
func scoreLowSNRRule(rule private.Rule, cells []lowSNRCell, defaultArm string) (ruleScore, error) {
	var s ruleScore
	for _, c := range cells {
		row, loose, err := judgeArm(c, ruleArm(rule, c, defaultArm))
		if err != nil {
			return s, err
		}
		s.cells++
		if row.Pass {
			s.pass++
		}
		if loose {
			s.loose++
		}
		s.excess += row.G - row.ReferenceG
	}
	return s, nil
}

// lowSNRRuleCandidates are the rules of list that name only methods offered in cells (every
// arm a method's at the target).
func lowSNRRuleCandidates(list []private.Rule, cells []lowSNRCell) []private.Rule {
	offered := func(m private.Candidate) bool {
		for _, c := range cells {
			if _, ok := c.rows[m.String()]; !ok {
				return false
			}
		}
		return true
	}
	var out []private.Rule
	for _, r := range list {
		if !slices.ContainsFunc(ruleMethods(r), func(m private.Candidate) bool { return !offered(m) }) {
			out = append(out, r)
		}
	}
	return out
}

// chooseLowSNRRule returns the candidate rule the criterion ranks first on cells.
func chooseLowSNRRule(candidates []private.Rule, cells []lowSNRCell, defaultArm string) (private.Rule, ruleScore, error) {
	var best private.Rule
	var bestScore ruleScore
	for _, r := range candidates {
		s, err := scoreLowSNRRule(r, cells, defaultArm)
		if err != nil {
			return nil, s, err
		}
		if best == nil || s.better(bestScore) {
			best, bestScore = r, s
		}
	}
	return best, bestScore, nil
}

// lowSNRRules chooses dp-auto's rule for each held-out round at each target on the cells of
// the rounds before it that are not flagged, with the round's DP-GIBO default (the choice's
// row on all its problems): leaving each problem out (judged on it), then on all of them,
// and judges that rule through the arms on the round's own cells.
func lowSNRRules(cells []lowSNRCell, choice []LowSNRChoiceRow) ([]LowSNRRuleRow, error) {
	var out []LowSNRRuleRow
	for round := 1; round <= lowSNRRounds; round++ {
		i := slices.IndexFunc(choice, func(r LowSNRChoiceRow) bool { return r.Round == round && r.HeldOut == AllProblems })
		if i < 0 {
			continue
		}
		rows, err := lowSNRRoundRule(cells, round, choice[i].Chosen)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// lowSNRRoundRule chooses dp-auto's rule for round at each target, with DP-GIBO's default
// defaultArm.
func lowSNRRoundRule(cells []lowSNRCell, round int, defaultArm string) ([]LowSNRRuleRow, error) {
	labels := lowSNRRuleRounds[round]
	var out []LowSNRRuleRow
	for _, target := range []string{targetEpsDelta, targetGDP} {
		var atTarget []lowSNRCell
		for _, c := range cells {
			if c.target == target {
				atTarget = append(atTarget, c)
			}
		}
		train, problems, held, _ := roundCells(atTarget, round)
		if len(train) == 0 {
			continue
		}
		candidates := lowSNRRuleCandidates(lowSNRRoundRules(round), train)
		judge := func(label, heldOut string, rule private.Rule, s ruleScore, judged []lowSNRCell) error {
			for _, c := range judged {
				row, _, err := judgeArm(c, ruleArm(rule, c, defaultArm))
				if err != nil {
					return err
				}
				row.Round, row.HeldOut, row.Rule = label, heldOut, ruleName(rule)
				row.TrainCells, row.TrainPass, row.TrainLoose = s.cells, s.pass, s.loose
				out = append(out, row)
			}
			return nil
		}
		for _, p := range problems {
			var rest, left []lowSNRCell
			for _, c := range train {
				if c.problem == p {
					left = append(left, c)
				} else {
					rest = append(rest, c)
				}
			}
			rule, s, err := chooseLowSNRRule(candidates, rest, defaultArm)
			if err != nil {
				return nil, err
			}
			if err := judge(labels[0], p, rule, s, left); err != nil {
				return nil, err
			}
		}
		rule, s, err := chooseLowSNRRule(candidates, train, defaultArm)
		if err != nil {
			return nil, err
		}
		out = append(out, LowSNRRuleRow{Target: target, Round: labels[1], HeldOut: AllProblems, Rule: ruleName(rule),
			TrainCells: s.cells, TrainPass: s.pass, TrainLoose: s.loose})
		if err := judge(labels[2], AllProblems, rule, s, held); err != nil {
			return nil, err
		}
	}
	return out, nil
}
