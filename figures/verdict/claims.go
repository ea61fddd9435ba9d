package verdict

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"dpgibo/baselines/registry"
	"dpgibo/data"
	"dpgibo/figures/claims"
	"dpgibo/figures/stats"
	"dpgibo/internal/records"
)

// ClaimRow is one judged claim (claims.csv), beside its statement. The first five columns
// (claim, figure, statement, verdict, evidence) are the file's contract.
type ClaimRow struct {
	Claim  string `csv:"claim"`
	Figure string `csv:"figure"`
	// Statement is the statement the claim tests, in words: the paper's sentence, or the
	// project's own statement.
	Statement string `csv:"statement"`
	// Verdict is reproduced, not reproduced, inconclusive, not specific or not yet run.
	Verdict  string `csv:"verdict"`
	Evidence string `csv:"evidence"`
	Test     string `csv:"test"`
	N        int    `csv:"n"`
	// Margin is delta on the metric's scale (empty for a plain direction or a trend).
	Margin records.OptFloat `csv:"margin"`
	// Estimate, CILow, CIHigh: Hodges-Lehmann estimate of a - b and its interval (at the
	// last checkpoint for a Throughout claim; empty for a trend).
	Estimate records.OptFloat `csv:"estimate"`
	CILow    records.OptFloat `csv:"ci_low"`
	CIHigh   records.OptFloat `csv:"ci_high"`
	// PValue is the one-sided p-value in the claimed direction, PHolm its Holm adjustment
	// over the figure's claim tests; POppositeHolm the same for the opposite direction.
	PValue        records.OptFloat `csv:"p_value"`
	PHolm         records.OptFloat `csv:"p_holm"`
	POppositeHolm records.OptFloat `csv:"p_opposite_holm"`
	// PZeroMargin is, for a margin claim, the one-sided p of a - b < 0 (or of the claimed
	// direction at zero margin), outside the Holm family: how the sides compare without the
	// margin's allowance.
	PZeroMargin records.OptFloat `csv:"p_zero_margin"`
	// ControlP is, for a margin claim, the do-nothing control: the opposite-direction p of
	// the claim with side A replaced by each run's start loss, times the figure's number of
	// claim tests; the control is refuted (the claim can fail) when it is <= Alpha.
	ControlP records.OptFloat `csv:"control_p"`
	// AttainP is, for a claim that one side is better by a margin, the attainability control:
	// the claim's p with the side it says is better replaced by f* (an oracle), times the
	// figure's number of claim tests. Above Alpha, no method could satisfy the claim at these
	// seeds: the claim is inconclusive (margin unattainable) whatever its own test says.
	AttainP records.OptFloat `csv:"attain_p"`
	// Specificity lists, for a claim with contrasts, each substitute method and whether it
	// also reproduces the claim (p x k <= Alpha).
	Specificity string `csv:"specificity"`
	// Counts is false for a claim shown beside its statement without deciding it (Aside).
	Counts bool   `csv:"counts"`
	Aside  string `csv:"aside"`
	// StatementID names the statement (statements.csv); SourceSection is the paper's section
	// and SourceSentence the paper's sentence, both empty for the project's own statements.
	StatementID    string `csv:"statement_id"`
	SourceSection  string `csv:"source_section"`
	SourceSentence string `csv:"source_sentence"`
	// StandIn says the claim is judged on substitute data: one of its curves ran on the
	// generated CT-slice stand-in (data.StandinLabel).
	StandIn bool `csv:"stand_in"`
}

// Verdicts.
const (
	Reproduced    = "reproduced"
	NotReproduced = "not reproduced"
	Inconclusive  = "inconclusive"
	NotSpecific   = "not specific"
	NotYetRun     = "not yet run"
	NotTestable   = "not testable"
)

// CurvesOf returns the curves of figure fig, in order.
func (r *Results) CurvesOf(fig string) []*Curve { return curvesOf(r, fig) }

// Find returns the curve of figure fig that s selects (its task and data when set, method,
// config and d), or nil.
func (r *Results) Find(fig string, s claims.Side) *Curve { return newFigureData(r, fig).find(s) }

// G0 is the start gap of the setting of curve c of figure fig, the median over seeds of
// f(theta0) - f*: the unit of the claims' margins.
func (r *Results) G0(fig string, c *Curve) (float64, error) { return newFigureData(r, fig).G0(c) }

// figureData is one figure's curves with what the claims need of them.
type figureData struct {
	res    *Results
	curves []*Curve
}

func newFigureData(res *Results, fig string) *figureData {
	return &figureData{res: res, curves: curvesOf(res, fig)}
}

// find returns the curve selected by s (ignoring At, Minus and FromD).
func (f *figureData) find(s claims.Side) *Curve {
	for _, c := range f.curves {
		if c.Method == s.Method && c.Config == s.Config && c.D == s.D &&
			(s.Task == "" || c.Task == s.Task) && (s.Data == "" || c.Data == s.Data) {
			return c
		}
	}
	return nil
}

// startCurve returns the curve whose iteration-0 rows give the theta0 losses of c's setting:
// c itself when it reports them, else the figure's curve of a local method at the same task,
// data and d, in the registry's order (DP-GIBO's, then GIBO's): every local method starts
// from the runner's theta0 of the seed.
func (f *figureData) startCurve(c *Curve) *Curve {
	if len(c.Runs) > 0 && !math.IsNaN(c.Runs[0].Start) {
		return c
	}
	for _, info := range registry.Methods() {
		if !info.Local {
			continue
		}
		m := info.Name
		for _, o := range f.curves {
			if o.Method == m && o.Task == c.Task && o.Data == c.Data && o.D == c.D &&
				len(o.Runs) > 0 && !math.IsNaN(o.Runs[0].Start) {
				return o
			}
		}
	}
	return nil
}

// starts returns seed -> theta0 loss of c's setting.
func (f *figureData) starts(c *Curve) (map[int]float64, error) {
	src := f.startCurve(c)
	if src == nil {
		return nil, fmt.Errorf("no theta0 for %s %s d=%d (no run of the setting reports iteration 0)", c.Method, c.Config, c.D)
	}
	out := map[int]float64{}
	for _, r := range src.Runs {
		out[r.Seed] = r.Start
	}
	return out, nil
}

// fstar returns the f* of c's setting.
func (f *figureData) fstar(c *Curve) (float64, error) {
	v, ok := f.res.FStar.Lookup(c)
	if !ok {
		return 0, fmt.Errorf("no f* for %s/%s d=%d (n_users %d, n_train %d) in fstar.csv", c.Task, c.Data, c.D, c.NUsers, c.NTrain)
	}
	return v, nil
}

// G0 returns the start gap of c's setting: the median over seeds of f(theta0) - f*, which no
// method's outcome changes.
func (f *figureData) G0(c *Curve) (float64, error) {
	fs, err := f.fstar(c)
	if err != nil {
		return 0, err
	}
	starts, err := f.starts(c)
	if err != nil {
		return 0, err
	}
	gaps := make([]float64, 0, len(starts))
	for _, v := range starts {
		gaps = append(gaps, v-fs)
	}
	g := stats.Median(gaps)
	if !(g > 0) {
		return 0, fmt.Errorf("start gap G0 = %g of %s/%s d=%d is not positive", g, c.Task, c.Data, c.D)
	}
	return g, nil
}

// checkpoints returns K = floor(E/(d+1)), E the fewest final evaluations over the curves.
func checkpoints(d int, cs ...*Curve) int {
	fewest := math.MaxInt
	for _, c := range cs {
		for _, r := range c.Runs {
			fewest = min(fewest, r.Evals)
		}
	}
	return fewest / (d + 1)
}

// lossesAt returns seed -> loss of c read at at (AtFinal, AtStart or AtHalf) or, when
// checkpoint > 0, at evaluation count checkpoint.
func (f *figureData) lossesAt(c *Curve, at string, checkpoint int) (map[int]float64, error) {
	if at == claims.AtStart {
		return f.starts(c)
	}
	if at == claims.AtOracle {
		fs, err := f.fstar(c)
		if err != nil {
			return nil, err
		}
		out := map[int]float64{}
		for _, r := range c.Runs {
			out[r.Seed] = fs
		}
		return out, nil
	}
	if at == claims.AtEnd {
		at = claims.AtFinal
	}
	if at == claims.AtHalf {
		k := checkpoints(c.D, c)
		if k < 2 {
			return nil, fmt.Errorf("%s d=%d has fewer than two checkpoints", c.Method, c.D)
		}
		checkpoint = (k + 1) / 2 * (c.D + 1)
	} else if at != claims.AtFinal {
		return nil, fmt.Errorf("unknown At %q", at)
	}
	out := map[int]float64{}
	for _, r := range c.Runs {
		if checkpoint == 0 {
			out[r.Seed] = r.Loss
			continue
		}
		if v, ok := r.LossAt(checkpoint); ok {
			out[r.Seed] = v
		}
	}
	return out, nil
}

// values returns seed -> value of side s under metric (checkpoint > 0 overrides a final
// read), the curve of s at D, and the scale of a margin on this metric (G0 for loss, 1 for
// regret, 0 when no margin applies).
func (f *figureData) values(s claims.Side, metric string, checkpoint int) (map[int]float64, *Curve, float64, error) {
	c := f.find(s)
	if c == nil {
		return nil, nil, 0, fmt.Errorf("no runs of %s", s)
	}
	base, scale, err := f.metricValues(c, s, metric, checkpoint)
	if err != nil {
		return nil, c, 0, err
	}
	if s.FromD == 0 {
		return base, c, scale, nil
	}
	from := s
	from.D, from.FromD = s.FromD, 0
	fc := f.find(from)
	if fc == nil {
		return nil, c, 0, fmt.Errorf("no runs of %s", from)
	}
	fromValues, _, err := f.metricValues(fc, from, metric, checkpoint)
	if err != nil {
		return nil, c, 0, err
	}
	out := map[int]float64{}
	for seed, v := range base {
		if w, ok := fromValues[seed]; ok {
			out[seed] = v - w
		}
	}
	return out, c, scale, nil
}

// metricValues is values for one d.
func (f *figureData) metricValues(c *Curve, s claims.Side, metric string, checkpoint int) (map[int]float64, float64, error) {
	if metric == claims.MetricEvals {
		out := map[int]float64{}
		for _, r := range c.Runs {
			out[r.Seed] = float64(r.Evals)
		}
		return out, 0, nil
	}
	losses, err := f.lossesAt(c, s.At, checkpoint)
	if err != nil {
		return nil, 0, err
	}
	g0, g0err := f.G0(c)
	if s.Minus != "" {
		ms := claims.Side{Task: c.Task, Data: c.Data, Method: s.Minus, D: c.D, At: s.At}
		if s.MinusAt != "" {
			ms.At = s.MinusAt
		}
		mc := f.find(ms)
		if mc == nil {
			return nil, 0, fmt.Errorf("no runs of %s", ms)
		}
		minus, err := f.lossesAt(mc, ms.At, checkpoint)
		if err != nil {
			return nil, 0, err
		}
		diff := map[int]float64{}
		for seed, v := range losses {
			if w, ok := minus[seed]; ok {
				diff[seed] = v - w
			}
		}
		losses = diff
	}
	switch metric {
	case claims.MetricLoss:
		return losses, g0, nil // a missing G0 leaves scale 0: margin claims report it
	case claims.MetricRegret, claims.MetricLogGap:
		if g0err != nil {
			return nil, 0, g0err
		}
		if metric == claims.MetricLogGap && s.Minus != "" {
			return nil, 0, fmt.Errorf("metric %q of a difference (%s)", metric, s)
		}
		fs := 0.0
		if s.Minus == "" { // f* cancels in a difference
			if fs, err = f.fstar(c); err != nil {
				return nil, 0, err
			}
		}
		out := map[int]float64{}
		for seed, v := range losses {
			out[seed] = (v - fs) / g0
			if metric == claims.MetricLogGap {
				out[seed] = math.Log(max(out[seed], claims.GapFloor))
			}
		}
		return out, 1, nil
	}
	return nil, 0, fmt.Errorf("unknown metric %q", metric)
}

// pairedSides reports whether sides a and b are paired by seed: the same task, data and d (and
// FromD), and methods whose runs at one seed share theta0 and random streams (the same
// method under two configs, or DP-GIBO against GIBO). Runs at two d share neither data nor
// theta0 and are never paired.
func pairedSides(a, b claims.Side, ca, cb *Curve) bool {
	if ca.Task != cb.Task || ca.Data != cb.Data || a.D != b.D || a.FromD != b.FromD || a.Minus != b.Minus {
		return false
	}
	return pairedByDesign(a.Method, b.Method)
}

// test runs the design's rank test of a - b - shift against alt on the seed maps.
func test(xa, xb map[int]float64, isPaired bool, shift float64, alt stats.Alternative) (stats.TestResult, string, error) {
	if isPaired {
		var d []float64
		for _, seed := range sortedSeeds(xa) {
			if v, ok := xb[seed]; ok {
				d = append(d, xa[seed]-v-shift)
			}
		}
		res, err := stats.WilcoxonSignedRank(d, alt, Level)
		return res, "wilcoxon-signed-rank", err
	}
	var va, vb []float64
	for _, seed := range sortedSeeds(xa) {
		va = append(va, xa[seed]-shift)
	}
	for _, seed := range sortedSeeds(xb) {
		vb = append(vb, xb[seed])
	}
	res, err := stats.MannWhitney(va, vb, alt, Level)
	return res, "mann-whitney", err
}

func sortedSeeds(m map[int]float64) []int {
	out := make([]int, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	sort.Ints(out)
	return out
}

// judged is a claim's test before Holm's adjustment.
type judged struct {
	claim      claims.Claim
	rows       []comparison // the claim's rows of comparisons.csv
	pFor       float64
	pAgainst   float64
	pZero      float64 // margin claims: p in the claimed direction at zero margin
	test       string
	n          int
	margin     float64
	estimate   records.OptFloat
	lo, hi     records.OptFloat
	note       string // why the claim could not be tested, if it could not
	tested     bool
	checkpoint int  // Throughout: the number of checkpoints judged
	bothBelow  bool // a not-worse claim whose sides' median gaps to f* are both below delta
}

// pairTest is the outcome of a claim's tests at one reading of its sides.
type pairTest struct {
	pFor, pAgainst, pZero float64
	margin                float64
	rows                  []comparison
	base                  stats.TestResult // two-sided, zero shift: the estimate and interval
	test                  string
	n                     int
	bothBelow             bool
}

// judgePair tests claim cl (not a trend) reading both sides at checkpoint (0: as declared).
func (f *figureData) judgePair(cl claims.Claim, checkpoint int) (pairTest, error) {
	var pt pairTest
	xa, ca, scale, err := f.values(cl.A, cl.Metric, checkpoint)
	if err != nil {
		return pt, err
	}
	xb, cb, _, err := f.values(cl.B, cl.Metric, checkpoint)
	if err != nil {
		return pt, err
	}
	if cl.Margin > 0 && scale == 0 {
		if _, g0err := f.G0(ca); g0err != nil {
			return pt, fmt.Errorf("margin needs G0: %w", g0err)
		}
		return pt, fmt.Errorf("a margin on metric %q", cl.Metric)
	}
	if cl.Kind == claims.NotWorse && cl.Margin > 0 {
		pt.bothBelow = f.belowMargin(cl.A, ca, xa, cl.Metric, cl.Margin*scale) && f.belowMargin(cl.B, cb, xb, cl.Metric, cl.Margin*scale)
	}
	isPaired := pairedSides(cl.A, cl.B, ca, cb)
	if !enough(xa, xb, isPaired) {
		return pt, fmt.Errorf("too few runs to compare %s with %s", cl.A, cl.B)
	}
	delta := cl.Margin * scale
	pt.margin = delta
	run := func(shift float64, alt stats.Alternative) (stats.TestResult, error) {
		res, name, err := test(xa, xb, isPaired, shift, alt)
		if err != nil {
			return res, fmt.Errorf("claim %s: %w", cl.ID, err)
		}
		pt.test, pt.n = name, res.N
		return res, nil
	}
	row := func(res stats.TestResult, shift float64, alt stats.Alternative) comparison {
		return comparison{
			Figure: ca.Figure, Task: ca.Task, Data: ca.Data, D: cl.A.D,
			MethodA: cl.A.String(), ConfigA: cl.A.Config, MethodB: cl.B.String(), ConfigB: cl.B.Config,
			Metric: metricName(cl.Metric), Test: pt.test, Alternative: altName(alt), Margin: shift,
			N: res.N, Exact: res.Exact, Estimate: res.Estimate + shift,
			CILow: records.Some(res.CILow + shift), CIHigh: records.Some(res.CIHigh + shift),
			PValue: res.PValue, Claim: cl.ID,
		}
	}
	switch cl.Kind {
	case claims.Lower, claims.Higher, claims.NotWorse:
		threshold, forAlt, againstAlt := delta, stats.Less, stats.Greater
		switch cl.Kind {
		case claims.Lower:
			threshold = -delta
		case claims.Higher:
			forAlt, againstAlt = stats.Greater, stats.Less
		}
		f, err := run(threshold, forAlt)
		if err != nil {
			return pt, err
		}
		g, err := run(threshold, againstAlt)
		if err != nil {
			return pt, err
		}
		pt.pFor, pt.pAgainst = f.PValue, g.PValue
		pt.rows = []comparison{row(f, threshold, forAlt)}
		if delta > 0 {
			z, err := run(0, forAlt)
			if err != nil {
				return pt, err
			}
			pt.pZero = z.PValue
		}
	case claims.Equivalent:
		upper, err := run(delta, stats.Less) // a - b < +delta
		if err != nil {
			return pt, err
		}
		lower, err := run(-delta, stats.Greater) // a - b > -delta
		if err != nil {
			return pt, err
		}
		beyondUp, err := run(delta, stats.Greater)
		if err != nil {
			return pt, err
		}
		beyondDown, err := run(-delta, stats.Less)
		if err != nil {
			return pt, err
		}
		pt.pFor = math.Max(upper.PValue, lower.PValue)
		pt.pAgainst = math.Min(1, 2*math.Min(beyondUp.PValue, beyondDown.PValue))
		pt.rows = []comparison{row(upper, delta, stats.Less), row(lower, -delta, stats.Greater)}
		zero, err := run(0, stats.TwoSided)
		if err != nil {
			return pt, err
		}
		pt.pZero = zero.PValue
	default:
		return pt, fmt.Errorf("claim %s: unknown kind %v", cl.ID, cl.Kind)
	}
	pt.base, err = run(0, stats.TwoSided)
	return pt, err
}

// belowMargin reports whether side s (values x of curve c under metric) has a median gap to
// f* below delta: then a margin of delta cannot tell it from a method at f*. Sides read as
// differences (Minus, FromD) or as evaluation counts have no gap and report false.
func (f *figureData) belowMargin(s claims.Side, c *Curve, x map[int]float64, metric string, delta float64) bool {
	if s.Minus != "" || s.FromD != 0 || len(x) == 0 {
		return false
	}
	gaps := make([]float64, 0, len(x))
	for _, v := range x {
		gaps = append(gaps, v)
	}
	switch metric {
	case claims.MetricLoss:
		fs, err := f.fstar(c)
		if err != nil {
			return false
		}
		for i := range gaps {
			gaps[i] -= fs
		}
	case claims.MetricRegret:
	default:
		return false
	}
	return stats.Median(gaps) < delta
}

// enough reports whether the seed maps can be compared: at least two pairs with a non-zero
// difference when paired, at least two values each otherwise.
func enough(xa, xb map[int]float64, isPaired bool) bool {
	if !isPaired {
		return len(xa) >= 2 && len(xb) >= 2
	}
	nonzero := 0
	for seed, v := range xa {
		if w, ok := xb[seed]; ok && v != w {
			nonzero++
		}
	}
	return nonzero >= 2
}

func metricName(m string) string {
	if m == claims.MetricLoss {
		return "loss"
	}
	return m
}

// judge runs the claim's test(s) on the figure's curves.
func (f *figureData) judge(cl claims.Claim) (judged, error) {
	j := judged{claim: cl}
	if cl.Kind == claims.Trend {
		return f.judgeTrend(cl, j)
	}
	if !cl.Throughout {
		pt, err := f.judgePair(cl, 0)
		if err != nil {
			j.note = err.Error()
			return j, nil
		}
		j.fill(pt)
		return j, nil
	}
	ca, cb := f.find(cl.A), f.find(cl.B)
	if ca == nil || cb == nil {
		j.note = fmt.Sprintf("no runs of %s or %s", cl.A, cl.B)
		return j, nil
	}
	k := checkpoints(cl.A.D, ca, cb)
	if k < 1 {
		j.note = "no checkpoint after the start"
		return j, nil
	}
	// Intersection-union: reproduced only if the claim holds at every checkpoint (p = the
	// largest); refuted if it fails at some checkpoint (Bonferroni over the K checkpoints).
	pAgainst := 1.0
	var last pairTest
	for e := 1; e <= k; e++ {
		pt, err := f.judgePair(cl, e*(cl.A.D+1))
		if err != nil {
			j.note = fmt.Sprintf("checkpoint %d: %v", e, err)
			return j, nil
		}
		j.pFor = math.Max(j.pFor, pt.pFor)
		j.pZero = math.Max(j.pZero, pt.pZero)
		pAgainst = math.Min(pAgainst, pt.pAgainst)
		j.rows = append(j.rows, pt.rows...)
		last = pt
	}
	pFor, pZero, rows := j.pFor, j.pZero, j.rows
	j.fill(last)
	j.pFor, j.pZero, j.pAgainst = pFor, pZero, math.Min(1, float64(k)*pAgainst)
	j.rows = rows
	j.checkpoint = k
	for i := range j.rows {
		j.rows[i].Alternative += fmt.Sprintf(" (checkpoint %d of %d)", i/(len(j.rows)/k)+1, k)
	}
	return j, nil
}

// fill copies one test's outcome into j.
func (j *judged) fill(pt pairTest) {
	j.tested = true
	j.pFor, j.pAgainst, j.pZero = pt.pFor, pt.pAgainst, pt.pZero
	j.rows = pt.rows
	j.test, j.n, j.margin, j.bothBelow = pt.test, pt.n, pt.margin, pt.bothBelow
	j.estimate, j.lo, j.hi = records.Some(pt.base.Estimate), records.Some(pt.base.CILow), records.Some(pt.base.CIHigh)
}

// judgeTrend runs Page's L test along the claim's configs, the seeds present in every
// config as blocks.
func (f *figureData) judgeTrend(cl claims.Claim, j judged) (judged, error) {
	var along []map[int]float64
	var first *Curve
	for _, cfg := range cl.Configs {
		s := cl.Along
		s.Config = cfg
		v, c, _, err := f.values(s, cl.Metric, 0)
		if err != nil {
			j.note = err.Error()
			return j, nil
		}
		if first == nil {
			first = c
		}
		along = append(along, v)
	}
	var data [][]float64
	for _, seed := range sortedSeeds(along[0]) {
		block := make([]float64, len(along))
		ok := true
		for i := range along {
			v, present := along[i][seed]
			ok = ok && present
			block[i] = v
		}
		if ok {
			data = append(data, block)
		}
	}
	if len(data) < 2 {
		j.note = "fewer than two seeds present in every config of " + cl.Along.Method
		return j, nil
	}
	forAlt, againstAlt := stats.Greater, stats.Less
	if !cl.Increasing {
		forAlt, againstAlt = stats.Less, stats.Greater
	}
	fr, err := stats.PageL(data, forAlt)
	if err != nil {
		return j, fmt.Errorf("claim %s: %w", cl.ID, err)
	}
	g, err := stats.PageL(data, againstAlt)
	if err != nil {
		return j, fmt.Errorf("claim %s: %w", cl.ID, err)
	}
	row := comparison{
		Figure: first.Figure, Task: first.Task, Data: first.Data, D: first.D,
		MethodA: first.Method, ConfigA: strings.Join(cl.Configs, " < "), MethodB: first.Method,
		Metric: metricName(cl.Metric), Test: "page-L", Alternative: altName(forAlt),
		N: fr.N, Exact: fr.Exact, Estimate: fr.Statistic, PValue: fr.PValue, Claim: cl.ID,
	}
	j.rows = []comparison{row}
	j.pFor, j.pAgainst = fr.PValue, g.PValue
	j.tested = true
	j.test = "page-L"
	j.n = fr.N
	return j, nil
}

// controls are a judged claim's do-nothing and specificity outcomes.
type controls struct {
	controlP     records.OptFloat
	refuted      bool // the do-nothing control is refuted (or the claim has none)
	attainP      records.OptFloat
	attainable   bool // an oracle at f* satisfies the claim (or the claim has no such control)
	substitutes  []string
	specific     bool
	controlNotes []string
}

// control runs the do-nothing and specificity controls of a tested claim; k is the figure's
// number of claim tests.
func (f *figureData) control(j judged, k int) controls {
	cl := j.claim
	out := controls{refuted: true, specific: true, attainable: true}
	if cl.IsDirectionalMargin() {
		f.attainability(cl, k, &out)
	}
	if cl.IsMargin() {
		ctl := cl
		if cl.A.Minus != "" && cl.A.MinusAt == "" {
			// Doing nothing is the private method staying at theta0 while the subtracted one
			// runs as declared.
			ctl.A.MinusAt = cl.A.At
			if ctl.A.MinusAt == claims.AtFinal {
				ctl.A.MinusAt = claims.AtEnd
			}
		}
		ctl.A.At = claims.AtStart
		out.controlP, out.refuted = f.judgeControl(ctl, k, false, "do-nothing", &out.controlNotes)
	}
	type substitute struct {
		name  string
		claim claims.Claim
	}
	var subs []substitute
	for _, m := range cl.Contrast {
		sub := cl
		sub.Contrast, sub.ContrastConfigs = nil, nil
		subject, other := &sub.A, &sub.B
		if cl.ContrastB {
			subject, other = &sub.B, &sub.A
		}
		if other.Method == subject.Method {
			other.Method = m
		}
		subject.Method = m
		for _, side := range []*claims.Side{&sub.A, &sub.B} {
			if side.Method == m && f.find(*side) == nil {
				side.Config = "" // the substitute does not sweep the config
			}
		}
		subs = append(subs, substitute{m, sub})
	}
	for _, c := range cl.ContrastConfigs {
		sub := cl
		sub.Contrast, sub.ContrastConfigs = nil, nil
		sub.A.Config = c
		subs = append(subs, substitute{c, sub})
	}
	for _, su := range subs {
		m, sub := su.name, su.claim
		sj, err := f.judge(sub)
		verdict := "untestable"
		if err == nil && sj.tested {
			verdict = "no"
			if sj.pFor*float64(k) <= Alpha {
				verdict = "yes"
				if sub.IsMargin() || sub.IsDirectionalMargin() {
					if c := f.control(sj, k); !c.refuted {
						verdict = "no (its do-nothing control is not refuted)"
					} else if !c.attainable {
						verdict = "no (its margin is unattainable)"
					}
				}
			}
		}
		if verdict == "yes" {
			out.specific = false
		}
		out.substitutes = append(out.substitutes, m+": "+verdict)
	}
	return out
}

// attainability runs the attainability control of a claim that one side is better by a
// margin: the side it says is better (A for Lower, B for Higher) is replaced by f* and the
// claim judged again at one reading; it is attainable when that p x k <= Alpha. A side read as
// a difference (Minus, FromD) has no oracle: the control does not apply.
func (f *figureData) attainability(cl claims.Claim, k int, out *controls) {
	oracle := cl
	oracle.Contrast, oracle.ContrastConfigs = nil, nil
	better := &oracle.A
	if cl.Kind == claims.Higher {
		better = &oracle.B
	}
	if better.Minus != "" || better.FromD != 0 || cl.Metric == claims.MetricEvals {
		return
	}
	better.At = claims.AtOracle
	out.attainP, out.attainable = f.judgeControl(oracle, k, true, "attainability", &out.controlNotes)
}

// judgeControl judges a control claim at one reading (not Throughout) and returns its p x k,
// in the claim's direction (forward) or the opposite one, and whether that is <= Alpha. A
// control that cannot be tested is not passed and adds a note naming it (what).
func (f *figureData) judgeControl(ctl claims.Claim, k int, forward bool, what string, notes *[]string) (records.OptFloat, bool) {
	ctl.Throughout = false
	cj, err := f.judge(ctl)
	if err != nil || !cj.tested {
		note := cj.note
		if err != nil {
			note = err.Error()
		}
		*notes = append(*notes, what+" control not testable: "+note)
		return records.OptFloat{}, false
	}
	p := cj.pAgainst
	if forward {
		p = cj.pFor
	}
	p = math.Min(1, p*float64(k))
	return records.Some(p), p <= Alpha
}

// judgeAll judges every claim of figure fig with Holm's adjustment over the figure's tested
// claims, and runs their controls.
func judgeAll(res *Results, fig string, claims []claims.Claim) ([]judged, []float64, []float64, []controls, error) {
	f := newFigureData(res, fig)
	js := make([]judged, len(claims))
	for i, cl := range claims {
		j, err := f.judge(cl)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		js[i] = j
	}
	var pf, pa []float64
	var tested []int
	for i, j := range js {
		if j.tested {
			pf, pa = append(pf, j.pFor), append(pa, j.pAgainst)
			tested = append(tested, i)
		}
	}
	hf, ha := stats.Holm(pf), stats.Holm(pa)
	pHolm, pAgainstHolm := make([]float64, len(js)), make([]float64, len(js))
	for n, i := range tested {
		pHolm[i], pAgainstHolm[i] = hf[n], ha[n]
	}
	ctl := make([]controls, len(js))
	for _, i := range tested {
		ctl[i] = f.control(js[i], len(tested))
	}
	return js, pHolm, pAgainstHolm, ctl, nil
}

// Judge judges every claim of statements whose figure is in res, with Holm's adjustment
// over each figure's tested claims. It returns one row per claim (claims of figures not in
// res as "not yet run"), one row per statement, and the claims' test rows of
// comparisons.csv, in declaration order.
//
// A statement with a counted claim on the curves of a declared seed raise (claims.SeedRaises)
// says so (StatementRow.SeedsRaised), and where the seeds before the raise gave it another
// verdict, that verdict is kept in StatementRow.SupersededVerdict.
func Judge(res *Results, statements []claims.Statement) ([]ClaimRow, []StatementRow, []comparison, error) {
	if err := claims.Check(statements); err != nil {
		return nil, nil, nil, err
	}
	rows, sts, cmps, err := judgeDeclaredFirst(res, statements)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, raise := range claims.SeedRaises {
		before, ok := beforeRaise(res, raise)
		if !ok {
			continue
		}
		_, old, _, err := judgeDeclaredFirst(before, statements)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("the verdicts before the seed raise of %s: %w", raise.Figure, err)
		}
		note := fmt.Sprintf("%s: %d to %d seeds", raise.Figure, raise.From, raise.To)
		if raise.Task != "" {
			note = fmt.Sprintf("%s (%s %s): %d to %d seeds", raise.Figure, raise.Task, strings.Join(raise.Methods, ", "), raise.From, raise.To)
		}
		for i, st := range statements {
			if !readsRaise(st, statements, raise) {
				continue
			}
			sts[i].SeedsRaised = note
			if old[i].Verdict != sts[i].Verdict {
				sts[i].SupersededVerdict = old[i].Verdict
			}
		}
	}
	return rows, sts, cmps, nil
}

// beforeRaise returns res with the raised curves of raise cut to their seeds before it, and
// whether any run was cut.
func beforeRaise(res *Results, raise claims.SeedRaise) (*Results, bool) {
	out := &Results{Figures: res.Figures, FStar: res.FStar}
	cut := false
	for _, c := range res.Curves {
		if c.Figure != raise.Figure || raise.Task != "" && c.Task != raise.Task || raise.Methods != nil && !slices.Contains(raise.Methods, c.Method) {
			out.Curves = append(out.Curves, c)
			continue
		}
		nc := *c
		nc.Runs = nil
		for _, r := range c.Runs {
			if r.Seed <= raise.From {
				nc.Runs = append(nc.Runs, r)
			}
		}
		cut = cut || len(nc.Runs) < len(c.Runs)
		out.Curves = append(out.Curves, &nc)
	}
	return out, cut
}

// readsRaise reports whether a counted claim of st, its own or one it refers to, reads the
// raised curves.
func readsRaise(st claims.Statement, statements []claims.Statement, raise claims.SeedRaise) bool {
	for _, c := range st.Claims {
		if c.Aside == "" && raise.Reads(c) {
			return true
		}
	}
	for _, other := range statements {
		for _, c := range other.Claims {
			if slices.Contains(st.Refs, c.ID) && c.Aside == "" && raise.Reads(c) {
				return true
			}
		}
	}
	return false
}

// judgeDeclaredFirst is Judge on res without the seed raises.
func judgeDeclaredFirst(res *Results, statements []claims.Statement) ([]ClaimRow, []StatementRow, []comparison, error) {
	// Post-hoc statements and readings never move a declared verdict: the declared
	// statements are judged alone, and the late ones (with their own claims in their figures'
	// Holm families) in a second pass, from which only their rows are kept.
	var declared []claims.Statement
	readings := map[string]bool{}
	for _, st := range statements {
		if st.Late() {
			readings[st.ID] = true
		} else {
			declared = append(declared, st)
		}
	}
	if len(readings) == 0 {
		return judgeAllStatements(res, statements)
	}
	rows, sts, cmps, err := judgeAllStatements(res, declared)
	if err != nil {
		return nil, nil, nil, err
	}
	allRows, allSts, allCmps, err := judgeAllStatements(res, statements)
	if err != nil {
		return nil, nil, nil, err
	}
	readingClaims := map[string]bool{}
	for _, st := range statements {
		if readings[st.ID] {
			for _, c := range st.Claims {
				readingClaims[c.ID] = true
			}
		}
	}
	var outRows []ClaimRow
	var outSts []StatementRow
	var outCmps []comparison
	i, j := 0, 0
	for _, st := range statements {
		// Rows come out in the statements' order, each statement's claims in its order.
		n := len(st.Claims)
		if readings[st.ID] {
			outRows = append(outRows, allRows[i:i+n]...)
		} else {
			outRows = append(outRows, rows[j:j+n]...)
			j += n
		}
		i += n
	}
	k := 0
	for idx, st := range statements {
		if readings[st.ID] {
			outSts = append(outSts, allSts[idx])
		} else {
			outSts = append(outSts, sts[k])
			k++
		}
	}
	outCmps = append(outCmps, cmps...)
	for _, c := range allCmps {
		if readingClaims[c.Claim] {
			outCmps = append(outCmps, c)
		}
	}
	return outRows, outSts, outCmps, nil
}

// judgeAllStatements judges statements, each claim in its figure's Holm family of every claim given.
func judgeAllStatements(res *Results, statements []claims.Statement) ([]ClaimRow, []StatementRow, []comparison, error) {
	byFigure := map[string][]claims.Claim{}
	aside := map[string]bool{} // claims shown beside their statement, not counted
	byID := map[string]claims.Claim{}
	for _, st := range statements {
		for _, cl := range st.Claims {
			byFigure[cl.Figure] = append(byFigure[cl.Figure], cl)
			aside[cl.ID] = cl.Aside != ""
			byID[cl.ID] = cl
		}
	}
	type outcome struct {
		row  ClaimRow
		cmps []comparison
	}
	done := map[string]outcome{}
	for fig, claims := range byFigure {
		if !slices.Contains(res.Figures, fig) {
			continue
		}
		js, pHolm, pAgainstHolm, ctl, err := judgeAll(res, fig, claims)
		if err != nil {
			return nil, nil, nil, err
		}
		k := 0
		for _, j := range js {
			if j.tested {
				k++
			}
		}
		for i, j := range js {
			row := claimRow(j, pHolm[i], pAgainstHolm[i], ctl[i], k)
			var cmps []comparison
			for _, r := range j.rows {
				r.PHolm = pHolm[i]
				cmps = append(cmps, r)
				row.StandIn = row.StandIn || r.Data == data.StandinLabel
			}
			done[j.claim.ID] = outcome{row, cmps}
		}
	}
	var rows []ClaimRow
	var sts []StatementRow
	var cmps []comparison
	for _, st := range statements {
		var stRows []ClaimRow
		for _, cl := range st.Claims {
			o, ok := done[cl.ID]
			if !ok {
				o.row = ClaimRow{Claim: cl.ID, Figure: cl.Figure, Verdict: NotYetRun,
					Evidence: "no committed run of " + cl.Figure}
			}
			o.row.Statement, o.row.StatementID, o.row.SourceSection = st.Sentence, st.ID, st.Source
			if st.Paper() {
				o.row.SourceSentence = st.Sentence
			}
			o.row.Counts, o.row.Aside = cl.Aside == "", cl.Aside
			stRows = append(stRows, o.row)
			cmps = append(cmps, o.cmps...)
		}
		all := slices.Clone(stRows)
		for _, id := range st.Refs {
			o, ok := done[id]
			if !ok {
				o.row = ClaimRow{Claim: id, Verdict: NotYetRun}
			}
			o.row.Counts = !aside[id]
			all = append(all, o.row)
		}
		rows = append(rows, stRows...)
		sr := statementRow(st, all)
		if sr.Verdict != NotTestable {
			var conds []string
			for _, r := range all {
				if r.Counts {
					for _, c := range claims.Conditions(byID[r.Claim]) {
						if !slices.Contains(conds, c) {
							conds = append(conds, c)
						}
					}
				}
			}
			if sr.StandInDecides {
				conds = append(conds, "the synthetic CT-slice stand-in")
			}
			sr.Conditions = strings.Join(conds, "; ")
		}
		sts = append(sts, sr)
	}
	return rows, sts, cmps, nil
}

// claimRow writes one judged claim.
func claimRow(j judged, pHolm, pAgainstHolm float64, ctl controls, k int) ClaimRow {
	row := ClaimRow{Claim: j.claim.ID, Figure: j.claim.Figure, Verdict: Inconclusive}
	if !j.tested {
		row.Evidence = "not tested: " + j.note
		return row
	}
	row.Test, row.N = j.test, j.n
	if j.claim.Kind != claims.Trend {
		row.Estimate, row.CILow, row.CIHigh = j.estimate, j.lo, j.hi
	}
	if j.margin > 0 {
		row.Margin = records.Some(j.margin)
		row.PZeroMargin = records.Some(j.pZero)
	}
	row.PValue, row.PHolm, row.POppositeHolm = records.Some(j.pFor), records.Some(pHolm), records.Some(pAgainstHolm)
	row.ControlP, row.AttainP = ctl.controlP, ctl.attainP
	row.Specificity = strings.Join(ctl.substitutes, "; ")
	switch {
	case !ctl.attainable:
		row.Verdict = Inconclusive
	case pHolm <= Alpha && !ctl.refuted:
		row.Verdict = Inconclusive
	case pHolm <= Alpha && !ctl.specific:
		row.Verdict = NotSpecific
	case pHolm <= Alpha:
		row.Verdict = Reproduced
	case pAgainstHolm <= Alpha:
		row.Verdict = NotReproduced
	}
	row.Evidence = evidence(j, pHolm, pAgainstHolm, k, ctl)
	return row
}

// evidence writes a claim's test in words.
func evidence(j judged, pHolm, pAgainstHolm float64, k int, ctl controls) string {
	var b strings.Builder
	if j.test == "page-L" {
		fmt.Fprintf(&b, "Page's L over %d seeds, L = %g", j.n, j.rows[0].Estimate)
	} else {
		what := "pairs"
		if j.test == "mann-whitney" {
			what = "runs in all"
		}
		where := ""
		if j.checkpoint > 0 {
			where = fmt.Sprintf(" at the last of %d checkpoints", j.checkpoint)
		}
		fmt.Fprintf(&b, "%s, %d %s; %s of a - b%s: HL %.4g, %.0f%% CI [%.4g, %.4g]",
			j.test, j.n, what, metricName(j.claim.Metric), where, j.estimate.Value, 100*Level, j.lo.Value, j.hi.Value)
		if j.margin > 0 {
			fmt.Fprintf(&b, ", margin %.4g; zero-margin p = %.3g", j.margin, j.pZero)
		}
	}
	fmt.Fprintf(&b, "; p = %.3g, Holm p = %.3g over %d claim tests; opposite direction Holm p = %.3g", j.pFor, pHolm, k, pAgainstHolm)
	if j.checkpoint > 0 {
		fmt.Fprintf(&b, " (p: the largest over %d checkpoints; opposite: the smallest x %d)", j.checkpoint, j.checkpoint)
	}
	if ctl.controlP.Valid {
		state := "refuted"
		if !ctl.refuted {
			state = "NOT refuted: the claim cannot fail at this margin"
		}
		fmt.Fprintf(&b, "; do-nothing control p x k = %.3g, %s", ctl.controlP.Value, state)
	}
	if ctl.attainP.Valid {
		if ctl.attainable {
			fmt.Fprintf(&b, "; attainability control (the better side at f*) p x k = %.3g, attainable", ctl.attainP.Value)
		} else {
			fmt.Fprintf(&b, "; attainability control (the better side at f*) p x k = %.3g: margin unattainable, no method could satisfy the claim at these seeds", ctl.attainP.Value)
		}
	}
	if j.bothBelow {
		b.WriteString("; both sides' median gaps to f* are below the margin: the claim only says A is within the margin of f*")
	}
	if j.claim.Metric == claims.MetricLogGap {
		scale := "log-gap rule for \"substantially\""
		if j.claim.Margin != claims.SubstantialMargin {
			scale = "log-gap scale"
		}
		when := "declared before this figure ran"
		if claims.LogGapPostHoc(j.claim.Figure) {
			when = "post hoc: chosen after the results were seen"
		}
		fmt.Fprintf(&b, "; %s (%s)", scale, when)
	}
	for _, n := range ctl.controlNotes {
		b.WriteString("; " + n)
	}
	if len(ctl.substitutes) > 0 {
		fmt.Fprintf(&b, "; substitutes reproduce it: %s", strings.Join(ctl.substitutes, ", "))
	}
	return b.String()
}
