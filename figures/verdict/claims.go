package verdict

import (
	"fmt"
	"math"
	"strings"

	"dpgibo/experiments/records"
	"dpgibo/figures/stats"
)

// Kind is the form of a claim.
type Kind int

const (
	// Lower: A's metric is lower than B's (one-sided test of a - b).
	Lower Kind = iota
	// Higher: A's metric is higher than B's.
	Higher
	// NotWorse: A's metric exceeds B's by less than Margin times B's median (one-sided test of
	// a - b - Margin*median(B) < 0).
	NotWorse
	// Equivalent: A and B differ by less than Margin times B's median in either direction
	// (two one-sided tests; the larger p-value counts).
	Equivalent
	// Trend: along Configs (in order), the metric of Trend.Method increases (Increasing) or
	// decreases: Page's L test over the seeds as blocks.
	Trend
)

// Side selects one curve of a claim's figure. Task and Data may be empty when the figure
// has only one.
type Side struct {
	Task, Data, Method, Config string
	D                          int
}

func (s Side) String() string {
	out := s.Method
	if s.Config != "" {
		out += " " + s.Config
	}
	return fmt.Sprintf("%s d=%d", out, s.D)
}

// Claim is one statement about a figure and the test it rests on. Claims are declared in
// code (PaperClaims, PrivateClaims) before the runs whose results judge them.
type Claim struct {
	// ID is unique, e.g. fig1-dp-vs-random-d20.
	ID string
	// Figure is the figure whose CSV the claim is judged on.
	Figure string
	// Statement is the claim in words.
	Statement string
	Kind      Kind
	// A and B are the curves compared (Lower, Higher, NotWorse, Equivalent).
	A, B Side
	// Margin is relative to B's median (NotWorse, Equivalent).
	Margin float64
	// Metric is "loss" (final loss, the default), "evals" (final evaluations) or
	// "log_gap" (log(final loss - f*), which needs OUT/fstar.csv).
	Metric string
	// Along is the curve whose Config is swept (Trend; its Config is ignored); Configs are
	// the configs in the claimed order and Increasing the claimed direction.
	Along      Side
	Configs    []string
	Increasing bool
}

// ClaimRow is one judged claim (claims.csv).
type ClaimRow struct {
	Claim     string `csv:"claim"`
	Figure    string `csv:"figure"`
	Statement string `csv:"statement"`
	// Verdict is "reproduced", "not reproduced" or "inconclusive".
	Verdict string `csv:"verdict"`
	// Evidence summarises the test in words.
	Evidence string `csv:"evidence"`
	Test     string `csv:"test"`
	N        int    `csv:"n"`
	// Estimate, CILow, CIHigh: Hodges-Lehmann estimate of a - b and its interval (empty for a
	// trend or when the claim could not be tested).
	Estimate records.OptFloat `csv:"estimate"`
	CILow    records.OptFloat `csv:"ci_low"`
	CIHigh   records.OptFloat `csv:"ci_high"`
	// PValue is the one-sided p-value in the claimed direction, PHolm its Holm adjustment
	// over the figure's claim tests; POppositeHolm the same for the opposite direction.
	PValue        records.OptFloat `csv:"p_value"`
	PHolm         records.OptFloat `csv:"p_holm"`
	POppositeHolm records.OptFloat `csv:"p_opposite_holm"`
}

// Verdicts.
const (
	Reproduced    = "reproduced"
	NotReproduced = "not reproduced"
	Inconclusive  = "inconclusive"
)

// judged is a claim's test before Holm's adjustment.
type judged struct {
	claim      Claim
	rows       []Comparison // the claim's rows of comparisons.csv
	pFor       float64
	pAgainst   float64
	test       string
	n          int
	estimate   records.OptFloat
	lo, hi     records.OptFloat
	note       string // why the claim could not be tested, if it could not
	tested     bool
	metricName string
}

// find returns the curve of fig selected by s.
func find(curves []*Curve, s Side) *Curve {
	for _, c := range curves {
		if c.Method == s.Method && c.Config == s.Config && c.D == s.D &&
			(s.Task == "" || c.Task == s.Task) && (s.Data == "" || c.Data == s.Data) {
			return c
		}
	}
	return nil
}

// metricFunc returns the claim's metric over runs of c.
func metricFunc(res *Results, name string, c *Curve) (func(Run) float64, error) {
	switch name {
	case "", "loss":
		return lossOf, nil
	case "evals":
		return evalsOf, nil
	case "log_gap":
		fstar, ok := res.FStar.Lookup(c)
		if !ok {
			return nil, fmt.Errorf("no f* for %s/%s d=%d (n_users %d, n_train %d) in fstar.csv", c.Task, c.Data, c.D, c.NUsers, c.NTrain)
		}
		for _, r := range c.Runs {
			if r.Loss <= fstar {
				return nil, fmt.Errorf("f* = %g of %s/%s d=%d is not below the loss %g of seed %d", fstar, c.Task, c.Data, c.D, r.Loss, r.Seed)
			}
		}
		return func(r Run) float64 { return math.Log(r.Loss - fstar) }, nil
	}
	return nil, fmt.Errorf("unknown metric %q", name)
}

// judge runs the claim's test(s) on the figure's curves.
func judge(res *Results, curves []*Curve, cl Claim) (judged, error) {
	j := judged{claim: cl, metricName: cl.Metric}
	if j.metricName == "" {
		j.metricName = "loss"
	}
	if cl.Kind == Trend {
		return judgeTrend(res, curves, cl, j)
	}
	a, b := find(curves, cl.A), find(curves, cl.B)
	switch {
	case a == nil:
		j.note = "no runs of " + cl.A.String()
		return j, nil
	case b == nil:
		j.note = "no runs of " + cl.B.String()
		return j, nil
	case !testable(a, b):
		j.note = fmt.Sprintf("too few runs to compare %s with %s", cl.A, cl.B)
		return j, nil
	}
	ma, err := metricFunc(res, cl.Metric, a)
	if err != nil {
		j.note = err.Error()
		return j, nil
	}
	mb, err := metricFunc(res, cl.Metric, b)
	if err != nil {
		j.note = err.Error()
		return j, nil
	}
	var shift float64
	if cl.Kind == NotWorse || cl.Kind == Equivalent {
		shift = cl.Margin * stats.Median(values(b, mb))
	}
	run := func(shift float64, alt stats.Alternative) (Comparison, error) {
		cmp, err := testPairMetrics(a, b, ma, mb, shift, alt)
		cmp.Metric = j.metricName
		cmp.Claim = cl.ID
		return cmp, err
	}
	var forRows []Comparison
	switch cl.Kind {
	case Lower, NotWorse:
		f, err := run(shift, stats.Less)
		if err != nil {
			return j, err
		}
		g, err := run(shift, stats.Greater)
		if err != nil {
			return j, err
		}
		forRows = []Comparison{f}
		j.pFor, j.pAgainst = f.PValue, g.PValue
	case Higher:
		f, err := run(0, stats.Greater)
		if err != nil {
			return j, err
		}
		g, err := run(0, stats.Less)
		if err != nil {
			return j, err
		}
		forRows = []Comparison{f}
		j.pFor, j.pAgainst = f.PValue, g.PValue
	case Equivalent:
		upper, err := run(shift, stats.Less) // a - b < +margin
		if err != nil {
			return j, err
		}
		lower, err := run(-shift, stats.Greater) // a - b > -margin
		if err != nil {
			return j, err
		}
		beyondUp, err := run(shift, stats.Greater)
		if err != nil {
			return j, err
		}
		beyondDown, err := run(-shift, stats.Less)
		if err != nil {
			return j, err
		}
		forRows = []Comparison{upper, lower}
		j.pFor = math.Max(upper.PValue, lower.PValue)
		j.pAgainst = math.Min(1, 2*math.Min(beyondUp.PValue, beyondDown.PValue))
	default:
		return j, fmt.Errorf("claim %s: unknown kind %d", cl.ID, cl.Kind)
	}
	j.rows = forRows
	j.tested = true
	j.test = forRows[0].Test
	j.n = forRows[0].N
	// The estimate and interval of a - b without shift.
	base, err := testPairMetrics(a, b, ma, mb, 0, stats.TwoSided)
	if err != nil {
		return j, err
	}
	j.estimate, j.lo, j.hi = records.Some(base.Estimate), base.CILow, base.CIHigh
	return j, nil
}

// testPairMetrics is testPair with a metric per side.
func testPairMetrics(a, b *Curve, ma, mb func(Run) float64, shift float64, alt stats.Alternative) (Comparison, error) {
	wa := &Curve{Figure: a.Figure, Config: a.Config, Task: a.Task, Data: a.Data, Method: a.Method, D: a.D}
	wb := &Curve{Figure: b.Figure, Config: b.Config, Task: b.Task, Data: b.Data, Method: b.Method, D: b.D}
	for _, r := range a.Runs {
		wa.Runs = append(wa.Runs, Run{Seed: r.Seed, Loss: ma(r)})
	}
	for _, r := range b.Runs {
		wb.Runs = append(wb.Runs, Run{Seed: r.Seed, Loss: mb(r)})
	}
	return testPair(wa, wb, lossOf, shift, alt)
}

// judgeTrend runs Page's L test along the claim's configs, the seeds present in every
// config as blocks.
func judgeTrend(res *Results, curves []*Curve, cl Claim, j judged) (judged, error) {
	var along []*Curve
	for _, cfg := range cl.Configs {
		s := cl.Along
		s.Config = cfg
		c := find(curves, s)
		if c == nil {
			j.note = "no runs of " + s.String()
			return j, nil
		}
		along = append(along, c)
	}
	metric, err := metricFunc(res, cl.Metric, along[0])
	if err != nil {
		j.note = err.Error()
		return j, nil
	}
	at := make([]map[int]float64, len(along))
	for i, c := range along {
		at[i] = map[int]float64{}
		for _, r := range c.Runs {
			at[i][r.Seed] = metric(r)
		}
	}
	var data [][]float64
	for _, r := range along[0].Runs {
		block := make([]float64, len(along))
		ok := true
		for i := range along {
			v, present := at[i][r.Seed]
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
	f, err := stats.PageL(data, forAlt)
	if err != nil {
		return j, fmt.Errorf("claim %s: %w", cl.ID, err)
	}
	g, err := stats.PageL(data, againstAlt)
	if err != nil {
		return j, fmt.Errorf("claim %s: %w", cl.ID, err)
	}
	first := along[0]
	row := Comparison{
		Figure: first.Figure, Task: first.Task, Data: first.Data, D: first.D,
		MethodA: first.Method, ConfigA: strings.Join(cl.Configs, " < "), MethodB: first.Method,
		ConfigB: "", Metric: j.metricName, Test: "page-L", Alternative: altName(forAlt),
		N: f.N, Exact: f.Exact, Estimate: f.Statistic, PValue: f.PValue, Claim: cl.ID,
	}
	j.rows = []Comparison{row}
	j.pFor, j.pAgainst = f.PValue, g.PValue
	j.tested = true
	j.test = "page-L"
	j.n = f.N
	return j, nil
}

// Judge judges every claim whose figure is in res, with Holm's adjustment over each
// figure's tested claims. It returns the claims' rows and their tests' rows of
// comparisons.csv, in claim order.
func Judge(res *Results, claims []Claim) ([]ClaimRow, []Comparison, error) {
	present := map[string]bool{}
	for _, f := range res.Figures {
		present[f] = true
	}
	seen := map[string]bool{}
	var out []ClaimRow
	var cmps []Comparison
	byFigure := map[string][]int{}
	var js []judged
	for _, cl := range claims {
		if seen[cl.ID] {
			return nil, nil, fmt.Errorf("claim id %s declared twice", cl.ID)
		}
		seen[cl.ID] = true
		if !present[cl.Figure] {
			continue
		}
		j, err := judge(res, curvesOf(res, cl.Figure), cl)
		if err != nil {
			return nil, nil, err
		}
		byFigure[cl.Figure] = append(byFigure[cl.Figure], len(js))
		js = append(js, j)
	}
	pHolm := make([]float64, len(js))
	pAgainstHolm := make([]float64, len(js))
	family := map[string]int{} // tested claims per figure
	for _, idx := range byFigure {
		var pf, pa []float64
		var tested []int
		for _, i := range idx {
			if js[i].tested {
				pf = append(pf, js[i].pFor)
				pa = append(pa, js[i].pAgainst)
				tested = append(tested, i)
			}
		}
		hf, ha := stats.Holm(pf), stats.Holm(pa)
		if len(idx) > 0 {
			family[js[idx[0]].claim.Figure] = len(tested)
		}
		for k, i := range tested {
			pHolm[i], pAgainstHolm[i] = hf[k], ha[k]
		}
	}
	for i, j := range js {
		row := ClaimRow{Claim: j.claim.ID, Figure: j.claim.Figure, Statement: j.claim.Statement, Verdict: Inconclusive}
		if !j.tested {
			row.Evidence = "not tested: " + j.note
			out = append(out, row)
			continue
		}
		k := family[j.claim.Figure]
		row.Test, row.N = j.test, j.n
		row.Estimate, row.CILow, row.CIHigh = j.estimate, j.lo, j.hi
		row.PValue, row.PHolm, row.POppositeHolm = records.Some(j.pFor), records.Some(pHolm[i]), records.Some(pAgainstHolm[i])
		switch {
		case pHolm[i] <= Alpha:
			row.Verdict = Reproduced
		case pAgainstHolm[i] <= Alpha:
			row.Verdict = NotReproduced
		}
		row.Evidence = evidence(j, pHolm[i], pAgainstHolm[i], k)
		out = append(out, row)
		for _, r := range j.rows {
			r.PHolm = pHolm[i]
			cmps = append(cmps, r)
		}
	}
	return out, cmps, nil
}

// evidence writes a claim's test in words.
func evidence(j judged, pHolm, pAgainstHolm float64, k int) string {
	var b strings.Builder
	if j.test == "page-L" {
		fmt.Fprintf(&b, "Page's L over %d seeds, L = %g", j.n, j.rows[0].Estimate)
	} else {
		what := "pairs"
		if j.test == "mann-whitney" {
			what = "runs in all"
		}
		fmt.Fprintf(&b, "%s, %d %s; %s of a - b: HL %.4g, %.0f%% CI [%.4g, %.4g]",
			j.test, j.n, what, j.metricName, j.estimate.Value, 100*Level, j.lo.Value, j.hi.Value)
		if j.claim.Kind == NotWorse || j.claim.Kind == Equivalent {
			fmt.Fprintf(&b, ", margin %g x median(B) = %.4g", j.claim.Margin, j.rows[0].Margin)
		}
	}
	fmt.Fprintf(&b, "; p = %.3g, Holm p = %.3g over %d claim tests; opposite direction Holm p = %.3g", j.pFor, pHolm, k, pAgainstHolm)
	return b.String()
}
