package studies

import (
	"fmt"
	"slices"
	"strings"

	"dpgibo/figures/claims"
	"dpgibo/figures/stats"
	"dpgibo/figures/verdict"
	"dpgibo/internal/records"
)

// equivalencePrefix names the figures of a design study: figure equivalencePrefix+NAME holds
// the runs of NAME's DP-GIBO curves with the candidate batch design, at the same settings and
// seeds; referencePrefix+NAME (or NAME itself, when absent) the runs with the reference
// design they are judged against. precisionPrefix names those of the svr precision study:
// figure precisionPrefix+NAME holds NAME's svr curves (every method) computed with
// single-precision cross products, judged against NAME itself. implementationPrefix names
// those of the implementation study of TPE and CMA-ES: figure implementationPrefix+NAME
// holds NAME's curves of the project's own tpe and cmaes, judged against NAME's runs of
// goptuna's (the methods' names before the change). revisionPrefix names those of a study
// of a method's new revision (baselines.Info.Revision): figure revisionPrefix+NAME
// holds NAME's curves of the revised methods, judged against NAME's runs of the previous
// revision.
const (
	equivalencePrefix    = "design-"
	referencePrefix      = "joint-"
	precisionPrefix      = "f32-"
	implementationPrefix = "own-"
	revisionPrefix       = "rev-"
)

// equivalenceMargin is the study's margin in units of G0: the new design is non-inferior at a
// setting when the upper 95% limit of the paired Hodges-Lehmann difference of final losses
// (new - old) is below equivalenceMargin x G0. Declared before the study ran.
const equivalenceMargin = 0.10

// EquivalenceRow is one sweep value of a design study (design-equivalence.csv).
type EquivalenceRow struct {
	Figure string `csv:"figure"`
	Task   string `csv:"task"`
	Config string `csv:"config"`
	D      int    `csv:"d"`
	Method string `csv:"method"`
	// Pairs is the number of seeds run with both designs.
	Pairs int `csv:"pairs"`
	// MedianOld and MedianNew are the median final losses; G0 the setting's start gap and
	// Margin = equivalenceMargin x G0.
	MedianOld float64 `csv:"median_old"`
	MedianNew float64 `csv:"median_new"`
	G0        float64 `csv:"g0"`
	Margin    float64 `csv:"margin"`
	// Estimate, CILow, CIHigh: the Hodges-Lehmann estimate of new - old (paired by seed) and
	// its 95% Walsh interval.
	Estimate float64 `csv:"estimate"`
	CILow    float64 `csv:"ci_low"`
	CIHigh   float64 `csv:"ci_high"`
	// NonInferior is CIHigh < Margin.
	NonInferior bool `csv:"non_inferior"`
	// DesignShareOld and DesignShareNew are the median over seeds of design seconds over
	// total seconds of the runs (from the timings; empty when absent).
	DesignShareOld records.OptFloat `csv:"design_share_old"`
	DesignShareNew records.OptFloat `csv:"design_share_new"`
}

// equivalence judges every design, precision and implementation study in res: each curve of
// a figure design-NAME against the curve of joint-NAME (else NAME), and each curve of
// f32-NAME, own-NAME or rev-NAME against that of NAME, with the same config, task, data, d and method, paired by seed. shares maps
// a figure name to its runs' design shares by curve key and seed (may be nil).
func equivalence(res *verdict.Results, shares map[string]map[string][]float64) ([]EquivalenceRow, error) {
	var out []EquivalenceRow
	for _, fig := range res.Figures {
		var ref string
		base, ok := strings.CutPrefix(fig, equivalencePrefix)
		if ok {
			ref = referencePrefix + base
			if !slices.Contains(res.Figures, ref) {
				ref = base
			}
		} else if base, ok = strings.CutPrefix(fig, precisionPrefix); ok {
			ref = base
		} else if base, ok = strings.CutPrefix(fig, implementationPrefix); ok {
			ref = base
		} else if base, ok = strings.CutPrefix(fig, revisionPrefix); ok {
			ref = base
		} else {
			continue
		}

		for _, c := range res.CurvesOf(fig) {
			s := claims.Side{Task: c.Task, Data: c.Data, Method: c.Method, Config: c.Config, D: c.D}
			old := res.Find(ref, s)
			if old == nil {
				continue // the paper figure has not been run
			}
			g0, err := res.G0(ref, old)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", fig, c.Config, err)
			}
			oldLoss := map[int]float64{}
			for _, r := range old.Runs {
				oldLoss[r.Seed] = r.Loss
			}
			d, vo, vn := pairedFinals(oldLoss, c.Runs)
			if len(d) < 2 {
				continue
			}
			t, err := pairedHL(d)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", fig, c.Config, err)
			}

			row := EquivalenceRow{Figure: base, Task: c.Task, Config: c.Config, D: c.D, Method: c.Method, Pairs: len(d),
				MedianOld: stats.Median(vo), MedianNew: stats.Median(vn), G0: g0, Margin: equivalenceMargin * g0,
				Estimate: t.Estimate, CILow: t.CILow, CIHigh: t.CIHigh}
			row.NonInferior = row.CIHigh < row.Margin
			key := shareKey(c.Task, c.Config, c.D, c.Method)
			if v := shares[ref][key]; len(v) > 0 {
				row.DesignShareOld = records.Some(stats.Median(v))
			}
			if v := shares[fig][key]; len(v) > 0 {
				row.DesignShareNew = records.Some(stats.Median(v))
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// pairedFinals pairs runs with the reference final losses ref by seed (seeds absent from ref
// are left out): the differences run - reference and both losses, in the order of runs.
func pairedFinals(ref map[int]float64, runs []verdict.Run) (d, vRef, vRun []float64) {
	for _, r := range runs {
		if o, ok := ref[r.Seed]; ok {
			d = append(d, r.Loss-o)
			vRef, vRun = append(vRef, o), append(vRun, r.Loss)
		}
	}
	return d, vRef, vRun
}

// pairedHL is the two-sided Wilcoxon signed-rank test of the paired differences d at Level:
// its Hodges-Lehmann estimate and interval. When every difference is 0 (the two sides gave
// the same runs) the estimate and interval are 0.
func pairedHL(d []float64) (stats.TestResult, error) {
	if !slices.ContainsFunc(d, func(x float64) bool { return x != 0 }) {
		return stats.TestResult{}, nil
	}
	return stats.WilcoxonSignedRank(d, stats.TwoSided, verdict.Level)
}

// shareKey names a curve of a figure in designShares: one task, config, d and method.
func shareKey(task, config string, d int, method string) string {
	return fmt.Sprintf("%s/%s/%d/%s", task, config, d, method)
}

// designShares returns, per figure and curve (shareKey), the design share of each run in
// the timings.
func designShares(timings []records.Timing) map[string]map[string][]float64 {
	out := map[string]map[string][]float64{}
	for _, t := range timings {
		if t.TotalSeconds <= 0 {
			continue
		}
		for _, fig := range strings.Split(t.Figures, ";") {
			if out[fig] == nil {
				out[fig] = map[string][]float64{}
			}
			key := shareKey(t.Task, t.Config, t.D, t.Method)
			out[fig][key] = append(out[fig][key], t.DesignSeconds/t.TotalSeconds)
		}
	}
	return out
}
