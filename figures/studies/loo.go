package studies

import (
	"fmt"
	"math"
	"slices"

	"dpgibo/experiments/algocfg"
	"dpgibo/private"
)

// The leave-one-problem-out study of algo's defaults (declared in docs/library.md before
// it ran): the candidates are LibraryVariant (the current defaults) and its rule variants
// (configs LibraryVariant+",rule=NAME"); for each problem, the candidate ranked first on
// the other problems is judged on it.
const (
	// LOOFile is the study's table, written beside DefaultsFile.
	LOOFile = "defaults-loo.csv"
	// AllProblems is LOORow.HeldOut of the row that ranks the candidates on every problem:
	// the study's choice of default.
	AllProblems = "none"
)

// LOORow is one held-out problem of the leave-one-problem-out study (defaults-loo.csv), or
// the choice on every problem (HeldOut AllProblems).
type LOORow struct {
	HeldOut string `csv:"held_out"`
	// Chosen is the candidate ranked first on the other problems (on every problem for
	// AllProblems); Problems is their number, TrainAboveStart on how many of them its
	// median final loss lies above its median start, TrainWorst its largest ratio to
	// hand-tuned there and TrainMeanLog its mean log ratio.
	Chosen          string  `csv:"chosen"`
	Problems        int     `csv:"problems"`
	TrainAboveStart int     `csv:"train_above_start"`
	TrainWorst      float64 `csv:"train_worst_ratio"`
	TrainMeanLog    float64 `csv:"train_mean_log_ratio"`
	// HeldOutRatio and HeldOutAboveStart are the chosen candidate's ratio to hand-tuned
	// on the held-out problem and whether it ended above its start there (zero for
	// AllProblems); Pass is HeldOutRatio <= DefaultsRatio and not HeldOutAboveStart.
	HeldOutRatio      float64 `csv:"held_out_ratio"`
	HeldOutAboveStart bool    `csv:"held_out_above_start"`
	Pass              bool    `csv:"pass"`
}

// isCandidate reports whether a defaults variant is a candidate of the leave-one-out
// study: the current defaults or one of their rule variants (not revision 1).
func isCandidate(variant string) bool {
	if variant == LibraryVariant {
		return true
	}
	for rule := range algocfg.DefaultsRules {
		if variant == algocfg.Label("", "", 0, private.DPGIBO.String(), nil, algocfg.Config{Defaults: algocfg.DefaultsLibrary, Rule: rule}) {
			return true
		}
	}
	return false
}

// defaultsLeaveOneOut runs the study on the library study's rows: every candidate must have a row
// on every problem. The rows come per held-out problem in the order of rows, then the
// AllProblems row.
func defaultsLeaveOneOut(rows []DefaultsRow) ([]LOORow, error) {
	byCand := map[string]map[string]DefaultsRow{}
	var problems, cands []string
	for _, r := range rows {
		if !slices.Contains(problems, r.Problem) {
			problems = append(problems, r.Problem)
		}
		if !isCandidate(r.Variant) {
			continue
		}
		if byCand[r.Variant] == nil {
			byCand[r.Variant] = map[string]DefaultsRow{}
			cands = append(cands, r.Variant)
		}
		byCand[r.Variant][r.Problem] = r
	}
	if len(cands) == 0 || len(problems) < 2 {
		return nil, nil
	}
	for _, c := range cands {
		for _, p := range problems {
			if _, ok := byCand[c][p]; !ok {
				return nil, fmt.Errorf("leave-one-out: candidate %s has no row on problem %s", c, p)
			}
		}
	}
	var out []LOORow
	for _, held := range append(slices.Clone(problems), AllProblems) {
		var train []string
		for _, p := range problems {
			if p != held {
				train = append(train, p)
			}
		}
		best, bestScore := "", looScore{}
		for _, c := range cands {
			if sc := scoreOn(byCand[c], train); best == "" || sc.less(bestScore) {
				best, bestScore = c, sc
			}
		}
		row := LOORow{HeldOut: held, Chosen: best, Problems: len(train), TrainAboveStart: bestScore.aboveStart,
			TrainWorst: bestScore.worst, TrainMeanLog: bestScore.meanLog}
		if held != AllProblems {
			r := byCand[best][held]
			row.HeldOutRatio, row.HeldOutAboveStart, row.Pass = r.Ratio, r.AboveStart, r.Passes()
		}
		out = append(out, row)
	}
	return out, nil
}

// Passes reports whether the row meets the leave-one-out study's acceptance: a ratio at
// most DefaultsRatio and a median final loss not above the median start.
func (r DefaultsRow) Passes() bool { return r.Ratio <= DefaultsRatio && !r.AboveStart }

// VariantRecord is the number of rows of variant that pass (DefaultsRow.Passes) and the
// number of its rows.
func VariantRecord(rows []DefaultsRow, variant string) (pass, count int) {
	for _, r := range rows {
		if r.Variant == variant {
			count++
			if r.Passes() {
				pass++
			}
		}
	}
	return pass, count
}

// HeldOutRecord is the leave-one-out study's record: how many held-out problems pass, how
// many were held out, and the choice on every problem (the AllProblems row's).
func HeldOutRecord(loo []LOORow) (pass, held int, chosen string) {
	for _, r := range loo {
		if r.HeldOut == AllProblems {
			chosen = r.Chosen
			continue
		}
		held++
		if r.Pass {
			pass++
		}
	}
	return pass, held, chosen
}

// looScore ranks a candidate on a set of problems: fewest medians above their start, then
// the smallest worst ratio, then the smallest mean log ratio.
type looScore struct {
	aboveStart     int
	worst, meanLog float64
}

func (a looScore) less(b looScore) bool {
	switch {
	case a.aboveStart != b.aboveStart:
		return a.aboveStart < b.aboveStart
	case a.worst != b.worst:
		return a.worst < b.worst
	}
	return a.meanLog < b.meanLog
}

func scoreOn(rows map[string]DefaultsRow, problems []string) looScore {
	sc := looScore{worst: math.Inf(-1)}
	for _, p := range problems {
		r := rows[p]
		if r.AboveStart {
			sc.aboveStart++
		}
		sc.worst = max(sc.worst, r.Ratio)
		sc.meanLog += math.Log(r.Ratio) / float64(len(problems))
	}
	return sc
}
