package studies

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"dpgibo/accounting"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/private"
)

// The low-SNR study (experiments' -suite=low-snr, declared in docs/library.md, "DP-GIBO at
// low SNR, declared before its runs"). A training problem P has the committed figure
// libraryPrivatePrefix+P (today's methods, seeds 1-10) and lowSNRTrainPrefix+P (DP-GIBO's
// candidates, the mu-GDP target's methods, dp-auto at its target revision); a held-out
// problem P has lowSNRHeldOutPrefix+P (every method, seeds 1-60), or lowSNRRound2Prefix+P
// for one of the second round (declared after the first failed). A cell is a (problem,
// target, mu); an arm is a method with its own config (DP-GIBO's candidates are arms of
// dpgibo). Round k's choices are made on the cells of the rounds before it and judged on its
// own: round 1 on the training problems (round 0), round 2 on those and round 1's.
const (
	lowSNRTrainPrefix   = "low-snr-train-"
	lowSNRHeldOutPrefix = "low-snr-"
	lowSNRRound2Prefix  = "low-snr-round2-"
	// lowSNRRounds is the number of held-out rounds.
	lowSNRRounds = 2
	// LowSNRFile is the study's table of arms, LowSNRChoiceFile its choice of DP-GIBO's
	// default (leave one problem out, and on every training problem), LowSNRAcceptanceFile
	// dp-auto's acceptance on the held-out cells.
	LowSNRFile           = "low-snr.csv"
	LowSNRChoiceFile     = "low-snr-choice.csv"
	LowSNRAcceptanceFile = "low-snr-acceptance.csv"
	// lowSNRTrainPick is the last training seed that picks (seeds 1-10 as the committed
	// runs); held-out problems pick on 1 to lowSNRHalfSeeds.
	lowSNRTrainPick = pickSeeds
	// lowSNRLogLossBar is the target's bar on log-loss cells: the default's G at most this
	// times the best other method's; lowSNRMargin the declared margin elsewhere, on the
	// median ratio of G to today's.
	lowSNRLogLossBar = 1.5
	lowSNRMargin     = 1.10
	// lowSNRGFloor floors G before a ratio or a logarithm: a median below f* (f* is the best
	// known value, not the optimum) or at it would divide by zero or take the logarithm of
	// a non-positive number. It is far below every G that decides anything.
	lowSNRGFloor = 1e-3
)

// Targets of the study: the primary, the (epsilon(mu), 1e-5)-DP of mu-GDP, and mu-GDP.
const (
	targetEpsDelta = "eps-delta"
	targetGDP      = "gdp"
)

// lowSNRRow is one arm in one cell of the low-SNR study (low-snr.csv).
type lowSNRRow struct {
	Problem string `csv:"problem"`
	HeldOut bool   `csv:"held_out"`
	// Round is the problem's: 0 training, 1 and 2 the held-out rounds.
	Round   int     `csv:"round"`
	LogLoss bool    `csv:"log_loss"`
	Flagged bool    `csv:"flagged"`
	Target  string  `csv:"target"`
	Mu      float64 `csv:"mu"`
	// Ceiling is DP-GIBO's SNR ceiling in the cell (private.Facts.SNRCeiling), a public
	// fact.
	Ceiling float64 `csv:"snr_ceiling"`
	// Arm is the method, followed by its own config's label for DP-GIBO's candidates.
	Arm   string  `csv:"arm"`
	FStar float64 `csv:"f_star"`
	Runs  int     `csv:"runs"`
	// PickG and JudgeG are G on the picking and the judging seeds; JudgeLoss and
	// JudgeStart the median final loss and start on the judging seeds, and AboveStart
	// whether the first lies above the second.
	PickG      float64 `csv:"g_pick"`
	JudgeG     float64 `csv:"g_judge"`
	JudgeLoss  float64 `csv:"median_loss_judge"`
	JudgeStart float64 `csv:"median_start_judge"`
	AboveStart bool    `csv:"ends_above_start"`
}

// lowSNRCell is one (problem, target, mu) of the study, its arms' rows by arm.
type lowSNRCell struct {
	problem         string
	round           int // 0 training, else the held-out round
	logLoss         bool
	flagged         bool
	target          string
	mu              float64
	rows            map[string]lowSNRRow
	arms            []string // in the figures' order
	candidates      []string // DP-GIBO's: today's first, then the candidates in declared order
	pickLast, judge int      // the last picking seed, and the number of judging seeds
	// facts are the public facts a rule of dp-auto reads in the cell, the target's currency
	// among them.
	facts private.Facts
}

// bestOther is the arm best by G on the picking seeds among those that pass keep, and false
// when none does.
func (c lowSNRCell) bestOther(keep func(arm string) bool) (string, bool) {
	best, found := "", false
	for _, a := range c.arms {
		if keep(a) && (!found || c.rows[a].PickG < c.rows[best].PickG) {
			best, found = a, true
		}
	}
	return best, found
}

// reference is the arm that judges c: the best by G on the picking seeds, dp-auto left out;
// refG its G on the judging seeds.
func (c lowSNRCell) reference() (ref string, refG float64, err error) {
	ref, ok := c.bestOther(func(a string) bool { return a != autoMethod })
	if !ok {
		return "", 0, fmt.Errorf("%s (%s, mu = %v): no method besides %s", c.problem, c.target, c.mu, autoMethod)
	}
	return ref, c.rows[ref].JudgeG, nil
}

// isCandidate reports whether arm is one of DP-GIBO's candidates (today's included).
func (c lowSNRCell) isCandidate(arm string) bool { return slices.Contains(c.candidates, arm) }

// readLowSNRCells reads the study's cells from res: every problem with a low-SNR figure (a
// training one only beside its library-private figure), in the figures' order (training
// first, then the held-out rounds in turn), each target and mu.
func readLowSNRCells(res *verdict.Results) ([]lowSNRCell, error) {
	type problem struct {
		name  string
		round int
	}
	var train, held []problem
	for _, fig := range res.Figures {
		if p, ok := strings.CutPrefix(fig, lowSNRTrainPrefix); ok {
			train = append(train, problem{p, 0})
		} else if p, ok := strings.CutPrefix(fig, lowSNRRound2Prefix); ok {
			held = append(held, problem{p, 2})
		} else if p, ok := strings.CutPrefix(fig, lowSNRHeldOutPrefix); ok {
			held = append(held, problem{p, 1})
		}
	}
	slices.SortStableFunc(held, func(a, b problem) int { return cmp.Compare(a.round, b.round) })
	var out []lowSNRCell
	for _, p := range slices.Concat(train, held) {
		figs := []string{lowSNRTrainPrefix + p.name, libraryPrivatePrefix + p.name}
		switch {
		case p.round == 1:
			figs = []string{lowSNRHeldOutPrefix + p.name}
		case p.round == 2:
			figs = []string{lowSNRRound2Prefix + p.name}
		case len(res.CurvesOf(libraryPrivatePrefix+p.name)) == 0:
			// A training figure without the committed runs it is read beside (a run's own
			// folder): the problem has no cell here.
			continue
		}
		cells, err := problemCells(res, p.name, p.round, figs)
		if err != nil {
			return nil, fmt.Errorf("low-SNR study, problem %s: %w", p.name, err)
		}
		out = append(out, cells...)
	}
	return out, nil
}

// lowSNRArm is one curve of a problem as an arm at a target.
type lowSNRArm struct {
	arm, target string
	mu          float64
	curve       *verdict.Curve
}

// problemCells builds one problem's cells from its figures figs.
func problemCells(res *verdict.Results, problem string, round int, figs []string) ([]lowSNRCell, error) {
	var arms []lowSNRArm
	for _, fig := range figs {
		curves := res.CurvesOf(fig)
		if len(curves) == 0 {
			return nil, fmt.Errorf("no curves of figure %s", fig)
		}
		settings, err := figureSettings(res.Dir, fig)
		if err != nil {
			return nil, err
		}
		for _, c := range curves {
			s, ok := settings[c.Config]
			if !ok {
				return nil, fmt.Errorf("figure %s: config %q is the label of no block of its manifest", fig, c.Config)
			}
			arm := c.Method
			if s.config != nil {
				arm += " " + s.config.Label()
			}
			switch {
			case s.blockLabel == algocfg.GDPBlockLabel:
				arms = append(arms, lowSNRArm{arm, targetGDP, s.mu, c})
			case c.Method == autoMethod && strings.HasPrefix(fig, libraryPrivatePrefix):
				// dp-auto's committed revisions are not the study's.
			default:
				arms = append(arms, lowSNRArm{arm, targetEpsDelta, s.mu, c})
				if !readsCurrency(c.Method) {
					// The same runs are the method's at mu-GDP.
					arms = append(arms, lowSNRArm{arm, targetGDP, s.mu, c})
				}
			}
		}
	}
	pickLast, judge := lowSNRTrainPick, lowSNRTrainPick
	if round > 0 {
		pickLast, judge = lowSNRHalfSeeds, lowSNRHalfSeeds
	}
	var out []lowSNRCell
	for _, target := range []string{targetEpsDelta, targetGDP} {
		var mus []float64
		for _, a := range arms {
			if a.target == target && !slices.Contains(mus, a.mu) {
				mus = append(mus, a.mu)
			}
		}
		slices.Sort(mus)
		for _, mu := range mus {
			cell := lowSNRCell{problem: problem, round: round, target: target, mu: mu, rows: map[string]lowSNRRow{}, pickLast: pickLast, judge: judge}
			var today *verdict.Curve
			curves := map[string]*verdict.Curve{}
			for _, a := range arms {
				if a.target != target || a.mu != mu {
					continue
				}
				if _, dup := curves[a.arm]; dup {
					// A method that reads no currency, run in the mu-GDP block too: one arm.
					continue
				}
				curves[a.arm] = a.curve
				cell.arms = append(cell.arms, a.arm)
				if a.curve.Method == dpgiboMethod {
					cell.candidates = append(cell.candidates, a.arm)
					if a.arm == dpgiboMethod {
						today = a.curve
					}
				}
			}
			if today == nil {
				return nil, fmt.Errorf("%s at mu = %v: no runs of today's DP-GIBO (their starts)", target, mu)
			}
			// Today's DP-GIBO first, then the candidates as the figures list them.
			slices.SortStableFunc(cell.candidates, func(a, b string) int { return cmp.Compare(boolInt(a != dpgiboMethod), boolInt(b != dpgiboMethod)) })
			fstar, ok := res.FStar.Lookup(today)
			if !ok {
				return nil, fmt.Errorf("no f* for %s d=%d on %s", today.Task, today.D, today.Data)
			}
			cell.logLoss = today.Task == logLossTask
			facts, err := lowSNRFacts(cell, today, curves)
			if err != nil {
				return nil, err
			}
			cell.facts = facts
			starts := map[int]float64{}
			var all []float64
			for _, r := range today.Runs {
				starts[r.Seed] = r.Start
				all = append(all, r.Start)
			}
			cell.flagged = stats.Median(all)-fstar <= lowSNRFlagShare*math.Abs(fstar)
			for _, arm := range cell.arms {
				row, err := lowSNRArmRow(cell, arm, curves[arm], fstar, starts)
				if err != nil {
					return nil, fmt.Errorf("%s at mu = %v: %w", target, mu, err)
				}
				cell.rows[arm] = row
			}
			out = append(out, cell)
		}
	}
	return out, nil
}

// lowSNRFacts are the public facts of cell, whose today's DP-GIBO runs as today and whose
// arms run as curves: the budget is what dp-rnm evaluates (exactly its budget), the
// currency that of the cell's target.
func lowSNRFacts(cell lowSNRCell, today *verdict.Curve, curves map[string]*verdict.Curve) (private.Facts, error) {
	f := private.Facts{Users: today.NUsers, Dim: today.D, Mu: cell.mu, LogLoss: cell.logLoss}
	rnm, ok := curves[private.ReportNoisyMin.String()]
	if !ok {
		return f, fmt.Errorf("%s at mu = %v: no runs of %v (the budget)", cell.target, cell.mu, private.ReportNoisyMin)
	}
	for _, r := range rnm.Runs {
		f.Evals = max(f.Evals, r.Evals)
	}
	if cell.target == targetEpsDelta {
		eps, err := accounting.EpsilonForDelta(cell.mu, accounting.DefaultDelta)
		if err != nil {
			return f, err
		}
		f.EpsDelta = accounting.EpsDelta{Epsilon: eps, Delta: accounting.DefaultDelta}
	}
	return f, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readsCurrency reports whether method runs at a guarantee read in a currency (the
// selections and dp-auto), so that its runs at the primary target are not its mu-GDP ones.
func readsCurrency(method string) bool {
	m, ok := registry.Lookup(method)
	c, reads := m.(interface{ ReadsCurrency() bool })
	return ok && reads && c.ReadsCurrency()
}

// lowSNRArmRow is arm's row in cell: G on the picking seeds (1 to cell.pickLast) and on the
// judging seeds (the next cell.judge), medians of losses and of today's DP-GIBO's starts.
func lowSNRArmRow(cell lowSNRCell, arm string, c *verdict.Curve, fstar float64, starts map[int]float64) (lowSNRRow, error) {
	row := lowSNRRow{Problem: cell.problem, HeldOut: cell.round > 0, Round: cell.round, LogLoss: cell.logLoss, Flagged: cell.flagged, Target: cell.target,
		Mu: cell.mu, Ceiling: cell.facts.SNRCeiling(), Arm: arm, FStar: fstar, Runs: len(c.Runs)}
	var pickLoss, pickStart, judgeLoss, judgeStart []float64
	for _, r := range c.Runs {
		s, ok := starts[r.Seed]
		if !ok || math.IsNaN(s) {
			return row, fmt.Errorf("%s seed %d has no start of today's DP-GIBO", arm, r.Seed)
		}
		switch {
		case r.Seed <= cell.pickLast:
			pickLoss, pickStart = append(pickLoss, r.Loss), append(pickStart, s)
		case r.Seed <= cell.pickLast+cell.judge:
			judgeLoss, judgeStart = append(judgeLoss, r.Loss), append(judgeStart, s)
		}
	}
	if len(pickLoss) == 0 || len(judgeLoss) == 0 {
		return row, fmt.Errorf("%s has %d picking and %d judging seeds", arm, len(pickLoss), len(judgeLoss))
	}
	g := func(loss, start []float64) float64 {
		return (stats.Median(loss) - fstar) / (stats.Median(start) - fstar)
	}
	row.PickG, row.JudgeG = g(pickLoss, pickStart), g(judgeLoss, judgeStart)
	row.JudgeLoss, row.JudgeStart = stats.Median(judgeLoss), stats.Median(judgeStart)
	row.AboveStart = row.JudgeLoss > row.JudgeStart
	return row, nil
}

// lowSNR tabulates every cell of the study in res, arms in the figures' order.
func lowSNR(cells []lowSNRCell) []lowSNRRow {
	var out []lowSNRRow
	for _, c := range cells {
		for _, a := range c.arms {
			out = append(out, c.rows[a])
		}
	}
	return out
}

// LowSNRChoiceRow is one choice of DP-GIBO's default by the declared criterion
// (low-snr-choice.csv) for a held-out round: on every problem of the rounds before it but
// HeldOut (AllProblems: on all of them), judged on HeldOut's cells.
type LowSNRChoiceRow struct {
	Round   int    `csv:"round"`
	HeldOut string `csv:"held_out"`
	Chosen  string `csv:"chosen"`
	// Problems are the training problems of the choice; TrainAboveStart the chosen arm's
	// training cells whose median ends above the start; TrainWorstLogLoss its worst G over
	// the best other method's on the log-loss cells; TrainElsewhereHigh the upper end of the
	// 95% interval of the median log(G / today's G) elsewhere.
	Problems           int     `csv:"problems"`
	TrainAboveStart    int     `csv:"train_above_start"`
	TrainWorstLogLoss  float64 `csv:"train_worst_logloss_ratio"`
	TrainElsewhereHigh float64 `csv:"train_elsewhere_log_ratio_high"`
	// HeldOutAboveStart, HeldOutWorstLogLoss and HeldOutWorstElsewhere judge the choice on
	// the held-out problem's cells (0 where it has none of the kind): cells above the start,
	// the worst log-loss ratio, and the worst G over today's elsewhere.
	HeldOutAboveStart     int     `csv:"held_out_above_start"`
	HeldOutWorstLogLoss   float64 `csv:"held_out_worst_logloss_ratio"`
	HeldOutWorstElsewhere float64 `csv:"held_out_worst_elsewhere_ratio"`
}

// candidateStanding is how a candidate fares on a set of cells, by the declared criterion.
type candidateStanding struct {
	arm            string
	aboveStart     int
	worstLogLoss   float64 // 0 without log-loss cells
	elsewhereHigh  float64 // upper end of the interval of the median log ratio; -Inf without cells
	elsewhereWorst float64 // the largest G ratio to today's elsewhere; 0 without cells
}

// stand judges arm on cells (training or held out): DP-GIBO's other candidates and dp-auto
// are not "other methods".
func stand(cells []lowSNRCell, arm string) (candidateStanding, error) {
	s := candidateStanding{arm: arm, elsewhereHigh: math.Inf(-1)}
	var logRatios []float64
	for _, c := range cells {
		row, ok := c.rows[arm]
		if !ok {
			return s, fmt.Errorf("candidate %s has no runs on %s (%s, mu = %v)", arm, c.problem, c.target, c.mu)
		}
		if row.AboveStart {
			s.aboveStart++
		}
		if c.logLoss {
			other, ok := c.bestOther(func(a string) bool { return !c.isCandidate(a) && a != autoMethod })
			if !ok {
				return s, fmt.Errorf("%s (%s, mu = %v): no other method", c.problem, c.target, c.mu)
			}
			s.worstLogLoss = max(s.worstLogLoss, floorG(row.JudgeG)/floorG(c.rows[other].JudgeG))
			continue
		}
		if c.target != targetEpsDelta {
			// DP-GIBO's runs are the same at both targets: count each once elsewhere.
			continue
		}
		ratio := floorG(row.JudgeG) / floorG(c.rows[dpgiboMethod].JudgeG)
		logRatios = append(logRatios, math.Log(ratio))
		s.elsewhereWorst = max(s.elsewhereWorst, ratio)
	}
	switch {
	case len(logRatios) == 0:
	case !slices.ContainsFunc(logRatios, func(x float64) bool { return x != 0 }):
		s.elsewhereHigh = 0
	default:
		t, err := stats.WilcoxonSignedRank(logRatios, stats.TwoSided, verdict.Level)
		if err != nil {
			return s, err
		}
		s.elsewhereHigh = t.CIHigh
	}
	return s, nil
}

// floorG is G floored at lowSNRGFloor.
func floorG(g float64) float64 { return max(g, lowSNRGFloor) }

// chooseDefault applies the declared criterion to the candidates on cells: a candidate
// qualifies when its median is above the start in no cell and, unless it is today's
// DP-GIBO, it is within the margin elsewhere (the upper end of the interval of the median
// log ratio of its G to today's at most log lowSNRMargin); of those, the smallest worst
// log-loss ratio wins, ties to the earlier in the declared order. When none qualifies,
// today's DP-GIBO stays.
func chooseDefault(cells []lowSNRCell) (candidateStanding, error) {
	if len(cells) == 0 {
		return candidateStanding{}, fmt.Errorf("no training cells")
	}
	var best, today candidateStanding
	found := false
	for _, arm := range cells[0].candidates {
		s, err := stand(cells, arm)
		if err != nil {
			return s, err
		}
		if arm == dpgiboMethod {
			today = s
		}
		if qualifies(s) && (!found || s.worstLogLoss < best.worstLogLoss) {
			best, found = s, true
		}
	}
	if !found {
		return today, nil
	}
	return best, nil
}

// LowSNRCandidatesFile is the table of how each of DP-GIBO's candidates stands on every
// training problem by the declared criterion (low-snr-candidates.csv).
const LowSNRCandidatesFile = "low-snr-candidates.csv"

// LowSNRCandidateRow is one candidate on every problem of a set that is not flagged (the
// training problems, on which the choice is made, or the held-out ones, on which it is
// judged): its cells above the start, its worst log-loss ratio, the upper end of the 95%
// interval of the median log ratio of its G to today's elsewhere and the largest such
// ratio, and whether it qualifies by the criterion (today's DP-GIBO needs no margin).
type LowSNRCandidateRow struct {
	// Set is the problems: one of lowSNRSets.
	Set            string  `csv:"set"`
	Arm            string  `csv:"arm"`
	Problems       int     `csv:"problems"`
	AboveStart     int     `csv:"above_start"`
	WorstLogLoss   float64 `csv:"worst_logloss_ratio"`
	ElsewhereHigh  float64 `csv:"elsewhere_log_ratio_high"`
	ElsewhereWorst float64 `csv:"elsewhere_worst_ratio"`
	Qualifies      bool    `csv:"qualifies"`
}

// setCells are the cells of cells in the rounds from to to that are not flagged, and their
// problems in order.
func setCells(cells []lowSNRCell, from, to int) (set []lowSNRCell, problems []string) {
	for _, c := range cells {
		if c.round >= from && c.round <= to && !c.flagged {
			set = append(set, c)
			if !slices.Contains(problems, c.problem) {
				problems = append(problems, c.problem)
			}
		}
	}
	return set, problems
}

// lowSNRSets names the sets of problems of LowSNRCandidateRow by held-out round: the
// problems its choice is made on, and its own.
var lowSNRSets = [lowSNRRounds + 1][2]string{1: {"training", "held out"}, 2: {"training and first held-out round", "second held-out round"}}

// roundCells are round's own cells and those of the rounds before it, on which its choices
// are made (none until a cell of the round just before it exists), each not flagged, with
// their problems.
func roundCells(cells []lowSNRCell, round int) (train []lowSNRCell, trainProblems []string, held []lowSNRCell, heldProblems []string) {
	if last, _ := setCells(cells, round-1, round-1); len(last) > 0 {
		train, trainProblems = setCells(cells, 0, round-1)
	}
	held, heldProblems = setCells(cells, round, round)
	return train, trainProblems, held, heldProblems
}

// lowSNRCandidates stands each of DP-GIBO's candidates on each round's cells to choose on,
// then on its own.
func lowSNRCandidates(cells []lowSNRCell) ([]LowSNRCandidateRow, error) {
	var out []LowSNRCandidateRow
	for round := 1; round <= lowSNRRounds; round++ {
		train, problems, held, heldProblems := roundCells(cells, round)
		for i, set := range [2]struct {
			cells    []lowSNRCell
			problems int
		}{{train, len(problems)}, {held, len(heldProblems)}} {
			if len(set.cells) == 0 {
				continue
			}
			for _, arm := range set.cells[0].candidates {
				s, err := stand(set.cells, arm)
				if err != nil {
					return nil, err
				}
				out = append(out, LowSNRCandidateRow{Set: lowSNRSets[round][i], Arm: arm, Problems: set.problems, AboveStart: s.aboveStart,
					WorstLogLoss: s.worstLogLoss, ElsewhereHigh: s.elsewhereHigh, ElsewhereWorst: s.elsewhereWorst, Qualifies: qualifies(s)})
			}
		}
	}
	return out, nil
}

// qualifies reports whether a candidate standing s qualifies: above the start in no cell
// and, unless it is today's DP-GIBO, within the margin elsewhere.
func qualifies(s candidateStanding) bool {
	return s.aboveStart == 0 && (s.arm == dpgiboMethod || s.elsewhereHigh <= math.Log(lowSNRMargin))
}

// lowSNRChoice chooses DP-GIBO's default for each held-out round on the cells of the rounds
// before it, leaving one problem out at a time (each judged on the problem left out), then
// on all of them.
func lowSNRChoice(cells []lowSNRCell) ([]LowSNRChoiceRow, error) {
	var out []LowSNRChoiceRow
	for round := 1; round <= lowSNRRounds; round++ {
		train, problems, _, _ := roundCells(cells, round)
		if len(train) == 0 {
			continue
		}
		for _, p := range append(slices.Clone(problems), AllProblems) {
			var in, left []lowSNRCell
			for _, c := range train {
				if c.problem == p {
					left = append(left, c)
				} else {
					in = append(in, c)
				}
			}
			chosen, err := chooseDefault(in)
			if err != nil {
				return nil, err
			}
			row := LowSNRChoiceRow{Round: round, HeldOut: p, Chosen: chosen.arm,
				TrainAboveStart: chosen.aboveStart, TrainWorstLogLoss: chosen.worstLogLoss, TrainElsewhereHigh: chosen.elsewhereHigh}
			if p == AllProblems {
				row.Problems = len(problems)
			} else {
				row.Problems = len(problems) - 1
				judged, err := stand(left, chosen.arm)
				if err != nil {
					return nil, err
				}
				row.HeldOutAboveStart, row.HeldOutWorstLogLoss, row.HeldOutWorstElsewhere = judged.aboveStart, judged.worstLogLoss, judged.elsewhereWorst
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// LowSNRAcceptanceRow judges dp-auto in one held-out cell (low-snr-acceptance.csv): the
// reference is the arm best by G on seeds 1-30 (dp-auto left out); the cell passes when
// dp-auto's G on seeds 31-60 is at most lowSNRPassRatio times the reference's plus
// lowSNRPassSlack and its median loss is not above the median start. Flagged cells are
// listed and not counted; ArmsPassing counts the arms that would pass in dp-auto's place.
type LowSNRAcceptanceRow struct {
	Round       int     `csv:"round"`
	Problem     string  `csv:"problem"`
	Target      string  `csv:"target"`
	Mu          float64 `csv:"mu"`
	Flagged     bool    `csv:"flagged"`
	Reference   string  `csv:"reference"`
	ReferenceG  float64 `csv:"reference_g_judge"`
	AutoG       float64 `csv:"auto_g_judge"`
	AboveStart  bool    `csv:"auto_ends_above_start"`
	Pass        bool    `csv:"pass"`
	ArmsPassing int     `csv:"arms_passing"`
	Arms        int     `csv:"arms"`
}

// passes reports whether row meets the bar against the reference's G.
func passes(row lowSNRRow, refG float64) bool {
	return row.JudgeG <= lowSNRPassRatio*refG+lowSNRPassSlack && !row.AboveStart
}

// lowSNRAcceptance judges dp-auto in every held-out cell.
func lowSNRAcceptance(cells []lowSNRCell) ([]LowSNRAcceptanceRow, error) {
	var out []LowSNRAcceptanceRow
	for _, c := range cells {
		if c.round == 0 {
			continue
		}
		auto, ok := c.rows[autoMethod]
		if !ok {
			return nil, fmt.Errorf("%s (%s, mu = %v): no runs of %s", c.problem, c.target, c.mu, autoMethod)
		}
		ref, refG, err := c.reference()
		if err != nil {
			return nil, err
		}
		row := LowSNRAcceptanceRow{Round: c.round, Problem: c.problem, Target: c.target, Mu: c.mu, Flagged: c.flagged, Reference: ref, ReferenceG: refG,
			AutoG: auto.JudgeG, AboveStart: auto.AboveStart, Pass: passes(auto, refG), Arms: len(c.arms) - 1}
		for _, a := range c.arms {
			if a != autoMethod && passes(c.rows[a], refG) {
				row.ArmsPassing++
			}
		}
		out = append(out, row)
	}
	return out, nil
}
