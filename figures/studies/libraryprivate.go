package studies

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/private"
)

// The library's private-tuner study (experiments' -suite=library-private, declared in
// docs/library.md, "The library's private tuner, declared before its runs"): each figure
// libraryPrivatePrefix+PROBLEM holds every private method at mu in {0.5, 1, 2} (configs
// "mu=M") on seeds 1-10. In each cell (problem, mu) the picked method has the smallest
// median normalised gap g on seeds 1-5; every method and every candidate rule
// (private.CandidateRules) is judged on seeds 6-10.
const (
	// libraryPrivatePrefix names the study's figures, libraryAutoPrefix those of dp-auto
	// (the one call with the chosen rule) on the same problems.
	libraryPrivatePrefix = "library-private-"
	libraryAutoPrefix    = "library-auto-"
	// LibraryPrivateFile is its table of methods, LibraryPrivateRulesFile its leave-one-out
	// choice of rule; both are written beside DefaultsFile.
	LibraryPrivateFile      = "library-private.csv"
	LibraryPrivateRulesFile = "library-private-rules.csv"
	// pickSeeds is the last seed on which the best method of a cell is picked; later seeds
	// judge.
	pickSeeds = 5
)

// The declared bars of a judged cell: a rule's median g at most passRatio times the picked
// method's plus passSlack (loosely: looseRatio and looseSlack), and its median loss not
// above the median start.
const (
	passRatio, passSlack   = 1.10, 0.02
	looseRatio, looseSlack = 1.5, 0.05
)

// PrivateRow is one method in one cell of the study (library-private.csv).
type PrivateRow struct {
	Problem string  `csv:"problem"`
	Mu      float64 `csv:"mu"`
	Method  string  `csv:"method"`
	Users   int     `csv:"n_users"`
	D       int     `csv:"d"`
	Budget  int     `csv:"budget"`
	// SNRCeiling is private.Facts.SNRCeiling of the cell, the candidate rules' statistic;
	// LogLoss is private.Facts.LogLoss, the second round's.
	SNRCeiling float64 `csv:"snr_ceiling"`
	LogLoss    bool    `csv:"log_loss"`
	FStar      float64 `csv:"f_star"`
	Runs       int     `csv:"runs"`
	// MedianLoss is the median final loss over every seed, with its 95% interval;
	// MedianStart the median start (the seed's DP-GIBO theta0) over the same seeds.
	MedianLoss  float64 `csv:"median_loss"`
	LossCILow   float64 `csv:"loss_ci_low"`
	LossCIHigh  float64 `csv:"loss_ci_high"`
	MedianStart float64 `csv:"median_start"`
	// MedianGap is the median of g = (loss - f*)/(start - f*) over every seed; PickGap and
	// JudgeGap over seeds 1-5 and 6-10.
	MedianGap float64 `csv:"median_g"`
	PickGap   float64 `csv:"median_g_pick"`
	JudgeGap  float64 `csv:"median_g_judge"`
	// JudgeLoss and JudgeStart are the median final loss and start on seeds 6-10;
	// AboveStart says that the median loss over every seed lies above the median start.
	JudgeLoss  float64 `csv:"median_loss_judge"`
	JudgeStart float64 `csv:"median_start_judge"`
	AboveStart bool    `csv:"ends_above_start"`
	// Picked marks the cell's picked method.
	Picked bool `csv:"picked"`
}

// RuleRow is one held-out cell of the leave-one-problem-out choice of rule
// (library-private-rules.csv), the choice on the nine (HeldOut AllProblems), or one cell of
// the new problems judged with the rule chosen on the nine (round "new": through the runs of
// the method it chooses; round "new, dp-auto's runs": through dp-auto's own). HeldOut is the
// cell's problem.
type RuleRow struct {
	Round   string `csv:"round"`
	HeldOut string `csv:"held_out"`
	// Rule is the chosen rule; TrainCells, TrainPass and TrainLoose its cells, passing
	// cells and loosely passing cells on the problems it was chosen on.
	Rule       string `csv:"rule"`
	TrainCells int    `csv:"train_cells"`
	TrainPass  int    `csv:"train_pass"`
	TrainLoose int    `csv:"train_loose"`
	// Mu, Method, Gap, PickedGap, Pass and Loose judge one held-out cell: the method the
	// rule chose, its median g on seeds 6-10, the picked method's, and the bars.
	Mu         float64 `csv:"mu"`
	Method     string  `csv:"method"`
	Gap        float64 `csv:"median_g_judge"`
	Picked     string  `csv:"picked"`
	PickedGap  float64 `csv:"picked_median_g_judge"`
	AboveStart bool    `csv:"ends_above_start"`
	Pass       bool    `csv:"pass"`
	Loose      bool    `csv:"loose"`
}

// libraryNine are the library study's problems, on which the first round's rule is chosen;
// libraryNew those new to it, on which it is judged; libraryRound2 the second round's, on
// which the rule chosen on the first round's thirteen is judged (docs/library.md).
var (
	libraryNine   = []string{"grouplasso", "gpreg", "svr", "bowl", "ridge", "logreg", "wine", "digits", "toy"}
	libraryNew    = []string{"anes96", "randhie", "bowl20", "ridge12"}
	libraryRound2 = []string{"modechoice", "grouplasso5", "bowl10", "toy60"}
)

// autoMethod is the name of the library's one call in the harness (private.Auto).
var (
	autoMethod   = private.Auto{}.Info().Name
	dpgiboMethod = private.DPGIBO.String()
)

// logLossTask is the task whose per-user loss is a classifier's clamped log loss (it
// implements tasks.LogLosser), the fact private.Facts.LogLoss states.
const logLossTask = "logreg"

// secondRoundRules are the second round's candidates (docs/library.md, "The library's
// private tuner, second round"), declared before its runs, in this order: the first
// round's (private.CandidateRules), then ByLoss{LogLoss: L, Other: R} for L in dp-rnm,
// dp-select-geometric, dp-select-negbin and R each of the first round's.
func secondRoundRules() []private.Rule {
	first := private.CandidateRules()
	out := slices.Clone(first)
	for _, l := range []private.Candidate{private.ReportNoisyMin, private.GeometricSelection, private.NegBinSelection} {
		for _, r := range first {
			out = append(out, private.ByLoss{LogLoss: l, Other: r})
		}
	}
	return out
}

// privateCell is one (problem, mu) of the study.
type privateCell struct {
	problem string
	mu      float64
	facts   private.Facts
	rows    map[string]PrivateRow // by method
	picked  string
}

// judge returns how method fares in the cell: its median g on seeds 6-10 against the picked
// method's, whether it passes, passes loosely, and ends above the start.
func (c privateCell) judge(method string) (row PrivateRow, pass, loose, above bool, ok bool) {
	row, ok = c.rows[method]
	if !ok {
		return row, false, false, false, false
	}
	pick := c.rows[c.picked].JudgeGap
	above = row.JudgeLoss > row.JudgeStart
	pass = row.JudgeGap <= passRatio*pick+passSlack && !above
	loose = row.JudgeGap <= looseRatio*pick+looseSlack && !above
	return row, pass, loose, above, true
}

// libraryPrivate tabulates every figure of the study in res: one row per problem, mu and
// method, in the figures' order. It needs DP-GIBO's runs (their starts) and f* in every
// cell.
func libraryPrivate(res *verdict.Results) ([]PrivateRow, error) {
	cells, err := privateCells(res)
	if err != nil {
		return nil, err
	}
	var out []PrivateRow
	for _, c := range cells {
		for _, r := range c.rows {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b PrivateRow) int {
		return cmp.Or(cmp.Compare(problemIndex(cells, a.Problem), problemIndex(cells, b.Problem)), cmp.Compare(a.Mu, b.Mu),
			cmp.Compare(methodIndex(res, a.Method), methodIndex(res, b.Method)))
	})
	return out, nil
}

// problemIndex is the position of problem among cells.
func problemIndex(cells []privateCell, problem string) int {
	return slices.IndexFunc(cells, func(c privateCell) bool { return c.problem == problem })
}

// methodIndex is the position of the method's first curve in the study's figures.
func methodIndex(res *verdict.Results, method string) int {
	i := 0
	for _, fig := range res.Figures {
		if !strings.HasPrefix(fig, libraryPrivatePrefix) {
			continue
		}
		for _, c := range res.CurvesOf(fig) {
			if c.Method == method {
				return i
			}
			i++
		}
	}
	return i
}

// privateCells reads the study's cells from res.
func privateCells(res *verdict.Results) ([]privateCell, error) {
	groups, err := studyCellCurves(res)
	if err != nil {
		return nil, err
	}
	var cells []privateCell
	for _, g := range groups {
		cell, err := newPrivateCell(res, g.problem, g.mu, g.curves)
		if err != nil {
			return nil, fmt.Errorf("figure %s%s, mu = %v: %w", libraryPrivatePrefix, g.problem, g.mu, err)
		}
		cells = append(cells, cell)
	}
	return cells, nil
}

// cellCurves are the curves of one judgeable (problem, mu) cell of the study.
type cellCurves struct {
	problem string
	mu      float64
	curves  []*verdict.Curve
}

// studyCellCurves groups the study's curves in res by problem and mu, in the figures' order
// and by increasing mu, leaving out cells that cannot be judged (judgeable).
func studyCellCurves(res *verdict.Results) ([]cellCurves, error) {
	var out []cellCurves
	for _, fig := range res.Figures {
		problem, ok := strings.CutPrefix(fig, libraryPrivatePrefix)
		if !ok {
			continue
		}
		// dp-auto runs in a figure of its own per problem (libraryAutoPrefix), added after the
		// rule was chosen; its curves join the problem's cells.
		settings, err := figureSettings(res.Dir, fig)
		if err != nil {
			return nil, err
		}
		curves := res.CurvesOf(fig)
		if auto := res.CurvesOf(libraryAutoPrefix + problem); len(auto) > 0 {
			autoSettings, err := figureSettings(res.Dir, libraryAutoPrefix+problem)
			if err != nil {
				return nil, err
			}
			curves = append(curves, auto...)
			maps.Copy(settings, autoSettings)
		}
		byMu := map[float64][]*verdict.Curve{}
		var mus []float64
		for _, c := range curves {
			s, ok := settings[c.Config]
			if !ok {
				return nil, fmt.Errorf("figure %s: config %q is the label of no block of its manifest", c.Figure, c.Config)
			}
			mu := s.mu
			if _, seen := byMu[mu]; !seen {
				mus = append(mus, mu)
			}
			byMu[mu] = append(byMu[mu], c)
		}
		slices.Sort(mus)
		for _, mu := range mus {
			if judgeable(res, byMu[mu]) {
				out = append(out, cellCurves{problem, mu, byMu[mu]})
			}
		}
	}
	return out, nil
}

// judgeable reports whether a cell's curves can be judged: f* is known for them and they
// have runs after the seeds the pick uses (a run with fewer seeds, or before its f* is
// computed, gives no rows).
func judgeable(res *verdict.Results, curves []*verdict.Curve) bool {
	for _, c := range curves {
		if _, ok := res.FStar.Lookup(c); !ok || len(c.Runs) == 0 || c.Runs[len(c.Runs)-1].Seed <= pickSeeds {
			return false
		}
	}
	return true
}

// newPrivateCell tabulates the curves of one cell.
func newPrivateCell(res *verdict.Results, problem string, mu float64, curves []*verdict.Curve) (privateCell, error) {
	var gibo *verdict.Curve
	budget := 0
	for _, c := range curves {
		switch c.Method {
		case private.DPGIBO.String():
			gibo = c
		case private.ReportNoisyMin.String():
			// dp-rnm evaluates exactly its budget.
			for _, r := range c.Runs {
				budget = max(budget, r.Evals)
			}
		}
	}
	if gibo == nil || budget == 0 {
		return privateCell{}, fmt.Errorf("the study needs dpgibo's runs (their starts) and dp-rnm's (the budget)")
	}
	fstar, ok := res.FStar.Lookup(gibo)
	if !ok {
		return privateCell{}, fmt.Errorf("no f* for %s d=%d on %s", gibo.Task, gibo.D, gibo.Data)
	}
	start := map[int]float64{}
	for _, r := range gibo.Runs {
		start[r.Seed] = r.Start
	}
	facts := private.Facts{Users: gibo.NUsers, Dim: gibo.D, Mu: mu, Evals: budget, LogLoss: gibo.Task == logLossTask}
	cell := privateCell{problem: problem, mu: mu, facts: facts, rows: map[string]PrivateRow{}}
	bestPick := math.Inf(1)
	for _, c := range curves {
		row := PrivateRow{Problem: problem, Mu: mu, Method: c.Method, Users: c.NUsers, D: c.D, Budget: budget,
			SNRCeiling: facts.SNRCeiling(), LogLoss: facts.LogLoss, FStar: fstar, Runs: len(c.Runs)}
		var losses, starts, gaps, pickGaps, judgeGaps, judgeLosses, judgeStarts []float64
		for _, r := range c.Runs {
			s, ok := start[r.Seed]
			if !ok || math.IsNaN(s) {
				return privateCell{}, fmt.Errorf("%s seed %d has no dpgibo start", c.Method, r.Seed)
			}
			g := (r.Loss - fstar) / (s - fstar)
			losses, starts, gaps = append(losses, r.Loss), append(starts, s), append(gaps, g)
			if r.Seed <= pickSeeds {
				pickGaps = append(pickGaps, g)
			} else {
				judgeGaps, judgeLosses, judgeStarts = append(judgeGaps, g), append(judgeLosses, r.Loss), append(judgeStarts, s)
			}
		}
		if len(pickGaps) == 0 || len(judgeGaps) == 0 {
			return privateCell{}, fmt.Errorf("%s needs runs on seeds 1-%d and after", c.Method, pickSeeds)
		}
		row.MedianLoss, row.MedianStart, row.MedianGap = stats.Median(losses), stats.Median(starts), stats.Median(gaps)
		row.LossCILow, row.LossCIHigh, _ = stats.MedianCI(losses, 0.95)
		row.PickGap, row.JudgeGap = stats.Median(pickGaps), stats.Median(judgeGaps)
		row.JudgeLoss, row.JudgeStart = stats.Median(judgeLosses), stats.Median(judgeStarts)
		row.AboveStart = row.MedianLoss > row.MedianStart
		cell.rows[c.Method] = row
		// dp-auto is judged, never picked: it runs one of the others.
		if c.Method != autoMethod && row.PickGap < bestPick {
			bestPick, cell.picked = row.PickGap, c.Method
		}
	}
	row := cell.rows[cell.picked]
	row.Picked = true
	cell.rows[cell.picked] = row
	return cell, nil
}

// ruleScore is a rule's record on a set of cells: passing and loosely passing cells, and
// the sum of its g minus the picked method's.
type ruleScore struct {
	cells, pass, loose int
	excess             float64
}

// better reports whether s ranks before o by the declared criterion (ties: the earlier rule,
// so never better).
func (s ruleScore) better(o ruleScore) bool {
	if s.pass != o.pass {
		return s.pass > o.pass
	}
	if s.loose != o.loose {
		return s.loose > o.loose
	}
	return s.excess/float64(s.cells) < o.excess/float64(o.cells)
}

// score judges rule on cells.
func score(rule private.Rule, cells []privateCell) (ruleScore, error) {
	var s ruleScore
	for _, c := range cells {
		m := rule.Choose(c.facts).Method.String()
		row, pass, loose, _, ok := c.judge(m)
		if !ok {
			return s, fmt.Errorf("%s at mu = %v has no runs of %s, which rule %v chooses", c.problem, c.mu, m, rule)
		}
		s.cells++
		if pass {
			s.pass++
		}
		if loose {
			s.loose++
		}
		s.excess += row.JudgeGap - c.rows[c.picked].JudgeGap
	}
	return s, nil
}

// chooseRule returns the candidate rule the declared criterion ranks first on cells.
func chooseRule(candidates []private.Rule, cells []privateCell) (private.Rule, ruleScore, error) {
	var best private.Rule
	var bestScore ruleScore
	for _, r := range candidates {
		s, err := score(r, cells)
		if err != nil {
			return nil, s, err
		}
		if best == nil || s.better(bestScore) {
			best, bestScore = r, s
		}
	}
	return best, bestScore, nil
}

// ruleName is how the study's tables name a rule.
func ruleName(r private.Rule) string {
	switch r := r.(type) {
	case private.Always:
		return "always " + r.Method.String()
	case private.ByCeiling:
		return fmt.Sprintf("%v below ceiling %g, else %v", r.Below, r.Cut, r.Above)
	case private.ByLoss:
		return fmt.Sprintf("%v for a log loss, else %s", r.LogLoss, ruleName(r.Other))
	case private.ByCurrency:
		return fmt.Sprintf("at (epsilon, delta): %s; at mu-GDP: %s", ruleName(r.EpsDelta), ruleName(r.GDP))
	}
	return fmt.Sprint(r)
}

// libraryPrivateRules runs the declared choices of rule on the study's cells. First round:
// the problems of libraryNine leave-one-problem-out, the rule chosen on all nine, and that
// rule, and dp-auto where it ran, judged on libraryNew (round "new"). Second round
// : secondRoundRules chosen on the first round's thirteen problems, and
// judged on libraryRound2.
func libraryPrivateRules(res *verdict.Results) ([]RuleRow, error) {
	nine := libraryNine
	cells, err := privateCells(res)
	if err != nil {
		return nil, err
	}
	var train, fresh, second []privateCell
	for _, c := range cells {
		switch {
		case slices.Contains(nine, c.problem):
			train = append(train, c)
		case slices.Contains(libraryNew, c.problem):
			fresh = append(fresh, c)
		case slices.Contains(libraryRound2, c.problem):
			second = append(second, c)
		default:
			return nil, fmt.Errorf("problem %s is in no round of the study", c.problem)
		}
	}
	for _, p := range nine {
		if !slices.ContainsFunc(train, func(c privateCell) bool { return c.problem == p }) {
			return nil, nil // the choice needs every one of the nine
		}
	}
	judgeRows := func(round string, rule private.Rule, s ruleScore, cells []privateCell, method func(privateCell) string) []RuleRow {
		var out []RuleRow
		for _, c := range cells {
			m := method(c)
			row, pass, loose, above, ok := c.judge(m)
			if !ok {
				continue
			}
			out = append(out, RuleRow{Round: round, HeldOut: c.problem, Rule: ruleName(rule), TrainCells: s.cells, TrainPass: s.pass, TrainLoose: s.loose,
				Mu: c.mu, Method: m, Gap: row.JudgeGap, Picked: c.picked, PickedGap: c.rows[c.picked].JudgeGap, AboveStart: above, Pass: pass, Loose: loose})
		}
		return out
	}
	out, err := leaveOneOut("leave-one-out", private.CandidateRules(), nine, train, judgeRows)
	if err != nil {
		return nil, err
	}
	rule, s, err := chooseRule(private.CandidateRules(), train)
	if err != nil {
		return nil, err
	}
	out = append(out, RuleRow{Round: "nine", HeldOut: AllProblems, Rule: ruleName(rule), TrainCells: s.cells, TrainPass: s.pass, TrainLoose: s.loose})
	out = append(out, judgeRows("new", rule, s, fresh, chosenBy(rule))...)
	out = append(out, judgeRows("new, dp-auto's runs", rule, s, fresh, func(privateCell) string { return autoMethod })...)
	if len(fresh) != 3*len(libraryNew) {
		return out, nil // the second round chooses on all thirteen
	}
	first := rule
	thirteen := append(slices.Clone(train), fresh...)
	loo, err := leaveOneOut(roundTwoLOO, secondRoundRules(), append(slices.Clone(nine), libraryNew...), thirteen, judgeRows)
	if err != nil {
		return nil, err
	}
	out = append(out, loo...)
	rule, s, err = chooseRule(secondRoundRules(), thirteen)
	if err != nil {
		return nil, err
	}
	out = append(out, RuleRow{Round: roundTwoChoice, HeldOut: AllProblems, Rule: ruleName(rule), TrainCells: s.cells, TrainPass: s.pass, TrainLoose: s.loose})
	out = append(out, judgeRows(roundTwoNew, rule, s, second, chosenBy(rule))...)
	fs, err := score(first, thirteen)
	if err != nil {
		return nil, err
	}
	out = append(out, judgeRows(roundTwoFirstRule, first, fs, second, chosenBy(first))...)
	out = append(out, judgeRows(roundTwoAuto, rule, s, second, func(privateCell) string { return autoMethod })...)
	return out, nil
}

// leaveOneOut chooses among candidates on cells without each of problems in turn and judges
// the chosen rule on that problem's cells (rows of round, by judge).
func leaveOneOut(round string, candidates []private.Rule, problems []string, cells []privateCell,
	judge func(string, private.Rule, ruleScore, []privateCell, func(privateCell) string) []RuleRow) ([]RuleRow, error) {
	var out []RuleRow
	for _, p := range problems {
		var rest, held []privateCell
		for _, c := range cells {
			if c.problem == p {
				held = append(held, c)
			} else {
				rest = append(rest, c)
			}
		}
		if len(held) == 0 {
			continue
		}
		rule, s, err := chooseRule(candidates, rest)
		if err != nil {
			return nil, err
		}
		out = append(out, judge(round, rule, s, held, chosenBy(rule))...)
	}
	return out, nil
}

// The rounds of the second round's rows in library-private-rules.csv: leave-one-problem-out
// on the first round's thirteen problems (for information), the choice on all thirteen,
// that rule judged on libraryRound2 through the runs of the methods it chooses, the first
// round's rule judged there for the declared comparison, and dp-auto's own runs there with
// the second round's rule (for information, where they exist).
const (
	roundTwoLOO       = "second: leave-one-out"
	roundTwoChoice    = "second: thirteen"
	roundTwoNew       = "second: new"
	roundTwoFirstRule = "second: new, first round's rule"
	roundTwoAuto      = "second: new, dp-auto's runs"
)

// chosenBy returns the method rule chooses in a cell.
func chosenBy(rule private.Rule) func(privateCell) string {
	return func(c privateCell) string { return rule.Choose(c.facts).Method.String() }
}
