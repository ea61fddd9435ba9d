package verdict

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"dpgibo/figures/claims"
	"dpgibo/figures/verdict/verdicttest"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/records"
)

func results(t *testing.T, rows []records.Row) *Results {
	t.Helper()
	curves, err := Curves(rows)
	if err != nil {
		t.Fatal(err)
	}
	res := &Results{Curves: curves, FStar: FStarTable{}}
	seen := map[string]bool{}
	for _, c := range curves {
		if !seen[c.Figure] {
			seen[c.Figure] = true
			res.Figures = append(res.Figures, c.Figure)
		}
	}
	return res
}

func TestCurvesKeepLastRowAndRejectNaN(t *testing.T) {
	res := results(t, verdicttest.RowsOf("f", "dpgibo", "", 2, 0.3, 0.1, 0.2))
	if len(res.Curves) != 1 {
		t.Fatalf("%d curves, want 1", len(res.Curves))
	}
	got := res.Curves[0].Losses()
	if len(got) != 3 || got[0] != 0.3 || got[1] != 0.1 || got[2] != 0.2 {
		t.Fatalf("final losses %v, want [0.3 0.1 0.2]", got)
	}
	_, err := Curves(verdicttest.RowsOf("f", "dpgibo", "", 2, 0.3, math.NaN()))
	if err == nil || !strings.Contains(err.Error(), "seed 2") {
		t.Fatalf("NaN final loss: error %v, want one naming seed 2", err)
	}
}

func TestSummariseMedianCIAndEvals(t *testing.T) {
	losses := verdicttest.Seq(12, func(i int) float64 { return float64(i + 1) }) // 1..12
	s := summarise(results(t, verdicttest.RowsOf("f", "gibo", "", 5, losses...)))
	if len(s) != 1 {
		t.Fatalf("%d rows", len(s))
	}
	r := s[0]
	if r.NSeeds != 12 || r.Median != 6.5 || r.Mean != 6.5 {
		t.Fatalf("n %d median %g mean %g, want 12, 6.5, 6.5", r.NSeeds, r.Median, r.Mean)
	}
	// n = 12: the 95% order-statistic interval is [x_(3), x_(10)], coverage 1 - 2 P(Bin <= 2).
	if r.CILow != 3 || r.CIHigh != 10 || math.Abs(r.CICoverage-0.96142578125) > 1e-12 {
		t.Fatalf("CI [%g, %g] coverage %g, want [3, 10] 0.96142578125", r.CILow, r.CIHigh, r.CICoverage)
	}
	if r.MedianEvals != 65 { // evals 10..120
		t.Fatalf("median evals %g, want 65", r.MedianEvals)
	}
	wantSE := math.Sqrt(13.0) / math.Sqrt(12) // sd of 1..12 is sqrt(13)
	if math.Abs(r.StdErr-wantSE) > 1e-12 {
		t.Fatalf("std err %g, want %g", r.StdErr, wantSE)
	}
	if r.FStar.Valid {
		t.Fatal("f* set without fstar.csv")
	}
}

func TestPairedByDesign(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"dpgibo", "gibo", true}, {"gibo", "dpgibo", true}, {"dpgibo", "dpgibo", true}, {"random", "random", true},
		{"dpgibo", "random", false}, {"ucb", "random", false}, {"gibo", "tpe", false}} {
		if got := pairedByDesign(c.a, c.b); got != c.want {
			t.Errorf("pairedByDesign(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// judge judges claims as one statement's and returns the claim rows.
func judge(t *testing.T, res *Results, cls ...claims.Claim) []ClaimRow {
	t.Helper()
	rows, _, _, err := Judge(res, []claims.Statement{{ID: "t", Source: "test", Sentence: "test", Claims: cls}})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// withFStar sets f* of every curve's setting so that G0 = 1 for verdicttest.RowsOf's start
// loss 99.
func withFStar(res *Results) *Results {
	for _, c := range res.Curves {
		res.FStar[fstarKey{c.Task, c.Data, c.D, c.NUsers, c.NTrain}] = 98
	}
	return res
}

// A clearly lower A, a tie and a clearly higher A: the three verdicts.
func TestJudgeVerdicts(t *testing.T) {
	n := 12
	var rows []records.Row
	rows = append(rows, verdicttest.RowsOf("f", "dpgibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("f", "gibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return 2 + 0.013*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("f", "random", "", 5, verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64((i*7)%n) + 0.0001 })...)...)
	res := results(t, rows)
	got, sts, tests, err := Judge(res, []claims.Statement{{ID: "t", Source: "test", Sentence: "test", Claims: []claims.Claim{
		{ID: "lower", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}},
		{ID: "wrong-way", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "gibo", D: 5}, B: claims.Side{Method: "dpgibo", D: 5}},
		{ID: "tie", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "random", D: 5}},
		{ID: "missing", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "ucb", D: 5}, B: claims.Side{Method: "random", D: 5}},
		{ID: "other-figure", Figure: "g", Kind: claims.Lower, A: claims.Side{Method: "ucb", D: 5}, B: claims.Side{Method: "random", D: 5}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"lower": Reproduced, "wrong-way": NotReproduced, "tie": Inconclusive, "missing": Inconclusive, "other-figure": NotYetRun}
	if len(got) != len(want) {
		t.Fatalf("%d claim rows, want %d", len(got), len(want))
	}
	for _, r := range got {
		if r.Verdict != want[r.Claim] {
			t.Errorf("claim %s: verdict %q, want %q (%s)", r.Claim, r.Verdict, want[r.Claim], r.Evidence)
		}
	}
	if len(sts) != 1 || sts[0].Verdict != NotReproduced {
		t.Errorf("statement: %+v, want not reproduced (one claim is)", sts)
	}
	// Paired exact Wilcoxon with 12 positive differences: one-sided p = 2^-12, Holm over
	// the three tested claims multiplies the smallest by 3.
	if r := got[0]; math.Abs(r.PValue.Value-1.0/4096) > 1e-15 || math.Abs(r.PHolm.Value-3.0/4096) > 1e-15 {
		t.Errorf("lower: p %g Holm %g, want %g and %g", r.PValue.Value, r.PHolm.Value, 1.0/4096, 3.0/4096)
	}
	if r := got[0]; r.Test != "wilcoxon-signed-rank" || got[2].Test != "mann-whitney" {
		t.Errorf("tests %s, %s: want paired Wilcoxon for DP-GIBO vs GIBO and Mann-Whitney against random", r.Test, got[2].Test)
	}
	if len(tests) != 3 {
		t.Errorf("%d claim test rows, want 3 (one per tested claim)", len(tests))
	}
}

// Swapping A and B (Lower for Higher, and Lower(A, B) against Lower(B, A)) mirrors the
// verdict: the p of one direction is the p against the other.
func TestSwappingSidesMirrorsTheVerdict(t *testing.T) {
	n := 12
	rows := append(verdicttest.RowsOf("f", "dpgibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64(i) })...),
		verdicttest.RowsOf("f", "random", "", 5, verdicttest.Seq(n, func(i int) float64 { return 1.05 + 0.01*float64((i*5)%n) })...)...)
	res := withFStar(results(t, rows))
	a, b := claims.Side{Method: "dpgibo", D: 5}, claims.Side{Method: "random", D: 5}
	mirror := map[string]string{Reproduced: NotReproduced, NotReproduced: Reproduced, Inconclusive: Inconclusive}
	for _, c := range []struct {
		one, other claims.Claim
		same       bool // the two say the same thing (else: opposite things)
	}{
		{claims.Claim{ID: "x", Figure: "f", Kind: claims.Lower, A: a, B: b}, claims.Claim{ID: "y", Figure: "f", Kind: claims.Lower, A: b, B: a}, false},
		{claims.Claim{ID: "x", Figure: "f", Kind: claims.Lower, A: a, B: b}, claims.Claim{ID: "y", Figure: "f", Kind: claims.Higher, A: a, B: b}, false},
		{claims.Claim{ID: "x", Figure: "f", Kind: claims.Lower, A: a, B: b}, claims.Claim{ID: "y", Figure: "f", Kind: claims.Higher, A: b, B: a}, true},
		{claims.Claim{ID: "x", Figure: "f", Kind: claims.Higher, Margin: 0.01, A: b, B: a}, claims.Claim{ID: "y", Figure: "f", Kind: claims.Lower, Margin: 0.01, A: a, B: b}, true},
	} {
		x, y := judge(t, res, c.one)[0], judge(t, res, c.other)[0]
		if x.Verdict == Inconclusive && c.one.Margin == 0 {
			t.Fatalf("%s: inconclusive; the data are built for a clear verdict", x.Evidence)
		}
		want, pY := mirror[y.Verdict], y.POppositeHolm.Value
		if c.same {
			want, pY = y.Verdict, y.PValue.Value
		}
		if x.Verdict != want || math.Abs(x.PValue.Value-pY) > 1e-12 {
			t.Errorf("%v(%s, %s) %q p %g against %v(%s, %s) %q (p %g, opposite %g): want the %s verdict", c.one.Kind, c.one.A, c.one.B, x.Verdict, x.PValue.Value,
				c.other.Kind, c.other.A, c.other.B, y.Verdict, y.PValue.Value, y.POppositeHolm.Value, map[bool]string{true: "same", false: "mirrored"}[c.same])
		}
	}
}

// Holm runs over one figure's claims only: a claim added to another figure changes nothing.
func TestHolmFamilyIsPerFigure(t *testing.T) {
	n := 10
	var rows []records.Row
	for _, fig := range []string{"f", "g"} {
		rows = append(rows, verdicttest.RowsOf(fig, "dpgibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return float64(i) })...)...)
		rows = append(rows, verdicttest.RowsOf(fig, "gibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return float64(i) + 0.5 + 0.01*float64(i%3) })...)...)
	}
	res := results(t, rows)
	one := []claims.Claim{{ID: "f1", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}}}
	two := append(one,
		claims.Claim{ID: "g1", Figure: "g", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}},
		claims.Claim{ID: "g2", Figure: "g", Kind: claims.Higher, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}})
	a, b := judge(t, res, one...), judge(t, res, two...)
	if a[0].PHolm != b[0].PHolm || a[0].Verdict != b[0].Verdict {
		t.Fatalf("claim f1 changed when claims of figure g were added: %+v vs %+v", a[0], b[0])
	}
	if b[1].PHolm.Value != 2*b[1].PValue.Value {
		t.Fatalf("g1: Holm p %g, want twice %g (smallest of two)", b[1].PHolm.Value, b[1].PValue.Value)
	}
}

// A margin claim, delta = Margin x G0 (G0 = 1 here): A is 0.05 worse than B at every seed.
// Not worse by more than 0.1: reproduced; by more than 0.01: not reproduced. The evidence
// keeps the zero-margin p and the do-nothing control.
func TestNotWorseMargin(t *testing.T) {
	n := 12
	b := verdicttest.Seq(n, func(i int) float64 { return 1 + 0.02*float64(i) })
	a := verdicttest.Seq(n, func(i int) float64 { return b[i] + 0.05 + 0.001*float64(i%4) })
	res := withFStar(results(t, append(verdicttest.RowsOf("f", "dpgibo", "", 5, a...), verdicttest.RowsOf("f", "gibo", "", 5, b...)...)))
	mk := func(id string, m float64) claims.Claim {
		return claims.Claim{ID: id, Figure: "f", Kind: claims.NotWorse, Margin: m, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}}
	}
	got := judge(t, res, mk("wide", 0.10), mk("narrow", 0.01))
	if got[0].Verdict != Reproduced || got[1].Verdict != NotReproduced {
		t.Fatalf("verdicts %q and %q, want reproduced and not reproduced:\n%s\n%s", got[0].Verdict, got[1].Verdict, got[0].Evidence, got[1].Evidence)
	}
	if e := got[0].Estimate.Value; e < 0.05 || e > 0.06 {
		t.Fatalf("estimate %g, want a - b of about 0.05 (unshifted)", e)
	}
	if got[0].Margin.Value != 0.1 || !got[0].PZeroMargin.Valid || got[0].PZeroMargin.Value < 0.5 {
		t.Fatalf("margin %+v, zero-margin p %+v: want 0.1 and a large p (A is worse at zero margin)", got[0].Margin, got[0].PZeroMargin)
	}
	if !got[0].ControlP.Valid || got[0].ControlP.Value > Alpha {
		t.Fatalf("do-nothing control %+v: starting at 99 is far beyond the margin and must be refuted", got[0].ControlP)
	}
}

// A margin wider than the start gap cannot fail: doing nothing passes it too, so the claim
// is inconclusive however significant its own test.
func TestDoNothingControlBlocksAMarginThatCannotFail(t *testing.T) {
	n := 12
	b := verdicttest.Seq(n, func(i int) float64 { return 1 + 0.02*float64(i) })
	a := verdicttest.Seq(n, func(i int) float64 { return b[i] + 0.001*float64(i%4+1) })
	res := withFStar(results(t, append(verdicttest.RowsOf("f", "dpgibo", "", 5, a...), verdicttest.RowsOf("f", "gibo", "", 5, b...)...)))
	cl := claims.Claim{ID: "huge", Figure: "f", Kind: claims.NotWorse, Margin: 200, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}}
	got := judge(t, res, cl)[0]
	if got.Verdict != Inconclusive || !strings.Contains(got.Evidence, "NOT refuted") {
		t.Fatalf("verdict %q (%s): want inconclusive with the control not refuted", got.Verdict, got.Evidence)
	}
	if got.PHolm.Value > Alpha {
		t.Fatalf("the claim's own test (Holm p %g) should be significant", got.PHolm.Value)
	}
}

// A claim that a contrasted method reproduces too is not specific and does not count; its
// statement is then decided by its other claims.
func TestSpecificity(t *testing.T) {
	n := 12
	var rows []records.Row
	for _, m := range []string{"dpgibo", "gibo"} {
		rows = append(rows, verdicttest.RowsOf("f", m, "", 5, verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64(i) })...)...)
	}
	rows = append(rows, verdicttest.RowsOf("f", "random", "", 5, verdicttest.Seq(n, func(i int) float64 { return 50 + 0.01*float64(i) })...)...)
	res := withFStar(results(t, rows))
	progress := func(id, m string) claims.Claim {
		return claims.Claim{ID: id, Figure: "f", Kind: claims.Lower, Margin: 0.1, A: claims.Side{Method: m, D: 5},
			B: claims.Side{Method: m, D: 5, At: claims.AtStart}, Contrast: []string{"gibo", "random"}}
	}
	got := judge(t, res, progress("dp", "dpgibo"))[0]
	if got.Verdict != NotSpecific || !strings.Contains(got.Specificity, "gibo: yes") || !strings.Contains(got.Specificity, "random: yes") {
		t.Fatalf("verdict %q, specificity %q: every method leaves theta0 = 99, so none is specific", got.Verdict, got.Specificity)
	}
	below := claims.Claim{ID: "below", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "random", D: 5}}
	_, sts, _, err := Judge(res, []claims.Statement{{ID: "s", Source: "test", Sentence: "s", Claims: []claims.Claim{progress("dp", "dpgibo"), below}}})
	if err != nil {
		t.Fatal(err)
	}
	if sts[0].Verdict != Reproduced || !strings.Contains(sts[0].Reason, "not specific") {
		t.Fatalf("statement %+v: want reproduced by its specific claim, the other noted", sts[0])
	}
}

// "Throughout": the claim must hold at every checkpoint k(d+1); one checkpoint where it fails
// is enough to keep it from reproducing.
func TestThroughoutChecksEveryCheckpoint(t *testing.T) {
	d, n := 1, 12
	var rows []records.Row
	// Checkpoints at 2, 4, 6 evaluations. dpgibo is below random at 4 and 6 but not at 2.
	for seed := 1; seed <= n; seed++ {
		eps := 0.001 * float64(seed)
		for e, l := range map[int]float64{0: 99, 2: 5 + eps, 4: 1 + eps, 6: 0.5 + eps} {
			rows = append(rows, records.Row{Figure: "f", Task: "gpreg", Data: "synthetic", Method: "dpgibo", D: d, Seed: seed, Iter: e / 2, Evals: e, Loss: l})
		}
		for e := 1; e <= 6; e++ {
			rows = append(rows, records.Row{Figure: "f", Task: "gpreg", Data: "synthetic", Method: "random", D: d, Seed: seed, Iter: e, Evals: e, Loss: 3 + eps})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Method != b.Method {
			return a.Method < b.Method
		}
		if a.Seed != b.Seed {
			return a.Seed < b.Seed
		}
		return a.Evals < b.Evals
	})
	res := results(t, rows)
	a, b := claims.Side{Method: "dpgibo", D: d}, claims.Side{Method: "random", D: d}
	final := judge(t, res, claims.Claim{ID: "final", Figure: "f", Kind: claims.Lower, A: a, B: b})[0]
	through := judge(t, res, claims.Claim{ID: "through", Figure: "f", Kind: claims.Lower, A: a, B: b, Throughout: true})[0]
	if final.Verdict != Reproduced {
		t.Fatalf("final: %q (%s)", final.Verdict, final.Evidence)
	}
	if through.Verdict != NotReproduced || !strings.Contains(through.Evidence, "3 checkpoints") {
		t.Fatalf("throughout: %q (%s), want not reproduced over 3 checkpoints", through.Verdict, through.Evidence)
	}
}

func TestEquivalentAndTrend(t *testing.T) {
	n := 12
	base := verdicttest.Seq(n, func(i int) float64 { return 1 + 0.1*float64((i*5)%n) })
	var rows []records.Row
	for k, cfg := range []string{"x=1", "x=2", "x=3"} {
		v := make([]float64, n)
		for i := range v {
			v[i] = base[i] + 0.002*float64(k) + 0.0001*float64(i%3)
		}
		rows = append(rows, verdicttest.RowsOf("f", "dpgibo", cfg, 5, v...)...)
	}
	res := withFStar(results(t, rows))
	along := claims.Side{Method: "dpgibo", D: 5}
	got := judge(t, res,
		claims.Claim{ID: "eq", Figure: "f", Kind: claims.Equivalent, Margin: 0.1, A: claims.Side{Method: "dpgibo", Config: "x=1", D: 5}, B: claims.Side{Method: "dpgibo", Config: "x=2", D: 5}},
		claims.Claim{ID: "up", Figure: "f", Kind: claims.Trend, Along: along, Configs: []string{"x=1", "x=2", "x=3"}, Increasing: true},
		claims.Claim{ID: "down", Figure: "f", Kind: claims.Trend, Along: along, Configs: []string{"x=1", "x=2", "x=3"}})
	want := []string{Reproduced, Reproduced, NotReproduced}
	for i, r := range got {
		if r.Verdict != want[i] {
			t.Errorf("claim %s: %q, want %q (%s)", r.Claim, r.Verdict, want[i], r.Evidence)
		}
	}
}

// Normalised regret needs f*; runs at two d are never paired.
func TestRegretNeedsFStarAndAcrossDIsUnpaired(t *testing.T) {
	rows := append(verdicttest.RowsOf("f", "random", "", 2, 0.5, 0.6, 0.7), verdicttest.RowsOf("f", "random", "", 20, 0.8, 0.9, 1.0)...)
	res := results(t, rows)
	cl := claims.Claim{ID: "gap", Figure: "f", Kind: claims.Higher, Metric: claims.MetricRegret, A: claims.Side{Method: "random", D: 20}, B: claims.Side{Method: "random", D: 2}}
	if got := judge(t, res, cl)[0]; got.Verdict != Inconclusive || !strings.Contains(got.Evidence, "no f*") {
		t.Fatalf("without f*: %q %q", got.Verdict, got.Evidence)
	}
	withFStar(res)
	if got := judge(t, res, cl)[0]; got.Test != "mann-whitney" {
		t.Fatalf("across d: test %q, want mann-whitney", got.Test)
	}
}

func TestStatementsWellFormed(t *testing.T) {
	sts := claims.Statements()
	if err := claims.Check(sts); err != nil {
		t.Fatal(err)
	}
	paper := 0
	for _, st := range sts {
		if st.Paper() {
			paper++
		}
		for _, c := range st.Claims {
			if c.Kind == claims.Trend && len(c.Configs) < 3 {
				t.Errorf("claim %s: a trend needs at least three configs", c.ID)
			}
			if c.Kind != claims.Trend && c.A == c.B {
				t.Errorf("claim %s compares a side with itself", c.ID)
			}
		}
	}
	if paper < 30 {
		t.Errorf("%d paper statements: the scope (captions, introduction, section 4, discussion, appendix) has more", paper)
	}
	bad := append(slices.Clone(sts), claims.Statement{ID: "x", Source: "s", Sentence: "s", Refs: []string{"no-such-claim"}})
	if err := claims.Check(bad); err == nil {
		t.Error("a reference to an undeclared claim was accepted")
	}
}

// The claims hash pins what is judged, not the words.
func TestClaimsHashPinsJudgedContent(t *testing.T) {
	sts := []claims.Statement{{ID: "s", Source: "x", Sentence: "one", Claims: []claims.Claim{
		{ID: "c", Figure: "f", Kind: claims.NotWorse, Margin: 0.1, A: claims.Side{Method: "dpgibo", D: 2}, B: claims.Side{Method: "gibo", D: 2}}}}}
	h := claims.Hash("f", sts)
	if h == "" || claims.Hash("g", sts) != "" {
		t.Fatalf("hash %q for f, %q for a figure without claims", h, claims.Hash("g", sts))
	}
	sts[0].Sentence = "other words"
	if claims.Hash("f", sts) != h {
		t.Error("the wording changed the hash")
	}
	sts[0].Claims[0].Margin = 0.2
	if claims.Hash("f", sts) == h {
		t.Error("a new margin kept the hash")
	}
}

// Outputs of a folder, written into it, are not figure CSVs: reading the folder again
// gives the same bytes.
func TestOutputsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	var rows []records.Row
	rows = append(rows, verdicttest.RowsOf("fig1", "dpgibo", "", 2, verdicttest.Seq(10, func(i int) float64 { return 0.2 + 0.001*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("fig1", "gibo", "", 2, verdicttest.Seq(10, func(i int) float64 { return 0.21 + 0.001*float64(i) })...)...)
	b, err := records.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fig1.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	write := func() []string {
		res, err := ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		files, err := Outputs(res)
		if err != nil {
			t.Fatal(err)
		}
		paths, err := records.WriteFiles(dir, files)
		if err != nil {
			t.Fatal(err)
		}
		return paths
	}
	if paths := write(); len(paths) != len(Files) {
		t.Fatalf("wrote %v", paths)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	write()
	second, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	if string(first) != string(second) {
		t.Fatal("summary.csv changed on a second pass")
	}
	sum, err := records.ReadFile[SummaryRow](filepath.Join(dir, "summary.csv"))
	if err != nil || len(sum) != 2 || sum[0].Method != "dpgibo" {
		t.Fatalf("summary.csv: %v %+v", err, sum)
	}
}

// A run's SNR is its mean over iterations of grad_norm / (noise_scale sqrt(d)); the summary
// reports the median over seeds, and runs without privacy noise have none.
func TestSummaryDiagnostics(t *testing.T) {
	var rows []records.Row
	for seed := 1; seed <= 3; seed++ {
		for it := 0; it <= 2; it++ {
			r := records.Row{Figure: "f", Task: "gpreg", Data: "synthetic", Method: "dpgibo", D: 4, Seed: seed, Iter: it, Loss: 1}
			if it > 0 {
				// SNR = grad / (0.5 * 2) = grad: iterations 1 and 2 give seed and 3*seed.
				r.GradNorm, r.NoiseScale = records.Some(float64(seed*(2*it-1))), records.Some(0.5)
				r.ClippedFrac = records.Some(0.1 * float64(it))
			}
			rows = append(rows, r)
			g := r
			g.Method, g.NoiseScale, g.NoiseNorm = "gibo", records.Some(0), records.Some(0)
			rows = append(rows, g)
		}
	}
	s := summarise(results(t, rows))
	if len(s) != 2 {
		t.Fatalf("%d rows", len(s))
	}
	// Means over iterations: 2*seed -> 2, 4, 6; median 4. Clipped: mean 0.15 for every seed.
	if !s[0].MedianSNR.Valid || s[0].MedianSNR.Value != 4 || math.Abs(s[0].MedianClippedFrac.Value-0.15) > 1e-15 {
		t.Fatalf("dpgibo: SNR %+v clipped %+v, want 4 and 0.15", s[0].MedianSNR, s[0].MedianClippedFrac)
	}
	if s[1].MedianSNR.Valid {
		t.Fatalf("gibo (no privacy noise) has an SNR %+v", s[1].MedianSNR)
	}
}

// A claim that one side is better by a margin that even an oracle at f* cannot meet is
// inconclusive (margin unattainable), never reproduced or not reproduced, whichever way its
// own test points; with a margin the oracle meets, the same data decide it.
func TestAttainabilityControl(t *testing.T) {
	n := 12
	// f* = 98, G0 = 1 (withFStar); B sits 0.05 above f*, A above B by 0.01-0.03.
	b := verdicttest.Seq(n, func(i int) float64 { return 98.05 + 0.001*float64(i) })
	a := verdicttest.Seq(n, func(i int) float64 { return b[i] + 0.01 + 0.002*float64(i%5) })
	res := withFStar(results(t, append(verdicttest.RowsOf("f", "random", "", 5, a...), verdicttest.RowsOf("f", "gibo", "", 5, b...)...)))
	for _, kind := range []claims.Kind{claims.Lower, claims.Higher} {
		// gibo said better than random by 0.1 G0, while random's gap is about 0.07: an
		// oracle in gibo's place is at most 0.07 better, so the claim cannot hold.
		cl := claims.Claim{ID: "unattainable", Figure: "f", Kind: kind, Margin: 0.1, A: claims.Side{Method: "gibo", D: 5}, B: claims.Side{Method: "random", D: 5}}
		if kind == claims.Higher {
			cl.A, cl.B = cl.B, cl.A
		}
		got := judge(t, res, cl)[0]
		if got.Verdict != Inconclusive || !got.AttainP.Valid || got.AttainP.Value <= Alpha || !strings.Contains(got.Evidence, "margin unattainable") {
			t.Errorf("%v: verdict %q, attain p %+v (%s): want inconclusive, margin unattainable", kind, got.Verdict, got.AttainP, got.Evidence)
		}
		if got.POppositeHolm.Value > Alpha {
			t.Errorf("%v: the opposite direction (Holm p %g) should be significant: the control must be what keeps it from 'not reproduced'", kind, got.POppositeHolm.Value)
		}
	}
	// On the log-gap scale the same data decide "gibo substantially below random" (gaps
	// 0.05 against 0.06-0.09: less than twice, so not reproduced) and the oracle meets it.
	sub := claims.Claim{ID: "substantially", Figure: "f", Kind: claims.Lower, Margin: claims.SubstantialMargin, Metric: claims.MetricLogGap,
		A: claims.Side{Method: "gibo", D: 5}, B: claims.Side{Method: "random", D: 5}}
	got := judge(t, res, sub)[0]
	if got.Verdict != NotReproduced || !got.AttainP.Valid || got.AttainP.Value > Alpha || !strings.Contains(got.Evidence, "post hoc") {
		t.Errorf("log-gap claim: verdict %q, attain p %+v (%s): want not reproduced, attainable, labelled post hoc", got.Verdict, got.AttainP, got.Evidence)
	}
	// A side at f* gives log(GapFloor), not -Inf.
	at := withFStar(results(t, append(verdicttest.RowsOf("f", "gibo", "", 5, verdicttest.Seq(n, func(int) float64 { return 98 })...),
		verdicttest.RowsOf("f", "random", "", 5, a...)...)))
	got = judge(t, at, sub)[0]
	if got.Verdict != Reproduced || math.IsInf(got.Estimate.Value, 0) {
		t.Errorf("gibo at f*: verdict %q, estimate %v: want reproduced with a finite log-gap difference", got.Verdict, got.Estimate.Value)
	}
}

// The specificity control can replace side B's method (the statement's subject is B) or
// A's config.
func TestSpecificityOfSideBAndOfConfigs(t *testing.T) {
	n := 12
	var rows []records.Row
	for _, m := range []string{"ucb", "gibo"} {
		rows = append(rows, verdicttest.RowsOf("f", m, "", 5, verdicttest.Seq(n, func(i int) float64 { return 98.5 + 0.01*float64(i) })...)...)
	}
	rows = append(rows, verdicttest.RowsOf("f", "random", "", 5, verdicttest.Seq(n, func(i int) float64 { return 98.5 + 0.011*float64(i) })...)...)
	for k, c := range []string{"eps=0.3", "eps=0.5", "eps=2"} {
		rows = append(rows, verdicttest.RowsOf("f", "dpgibo", c, 5, verdicttest.Seq(n, func(i int) float64 { return 98.2 + 0.01*float64(i) + 0.001*float64(k*(i%3)) })...)...)
	}
	res := withFStar(results(t, rows))
	noBetter := claims.Claim{ID: "ucb-no-better", Figure: "f", Kind: claims.NotWorse, Margin: 0.1, A: claims.Side{Method: "random", D: 5},
		B: claims.Side{Method: "ucb", D: 5}, Contrast: []string{"gibo"}, ContrastB: true}
	got := judge(t, res, noBetter)[0]
	if got.Verdict != NotSpecific || !strings.Contains(got.Specificity, "gibo: yes") {
		t.Errorf("verdict %q, specificity %q: gibo in ucb's place passes too", got.Verdict, got.Specificity)
	}
	like := claims.Claim{ID: "like", Figure: "f", Kind: claims.Equivalent, Margin: 0.1, A: claims.Side{Method: "dpgibo", Config: "eps=0.3", D: 5},
		B: claims.Side{Method: "dpgibo", Config: "eps=0.5", D: 5}, ContrastConfigs: []string{"eps=2"}}
	got = judge(t, res, like)[0]
	if got.Verdict != NotSpecific || !strings.Contains(got.Specificity, "eps=2: yes") {
		t.Errorf("verdict %q, specificity %q: eps=2 is like eps=0.5 too (%s)", got.Verdict, got.Specificity, got.Evidence)
	}
}

// A statement is tagged as resting on the stand-in only when its verdict changes without its
// claims on stand-in data: a stand-in claim that decides it (the only refuted one), or all its
// claims on the stand-in; not a stand-in claim beside others that decide the same way.
func TestStandInDecidesOnlyWhenTheVerdictMoves(t *testing.T) {
	st := claims.Statement{ID: "s", Source: "S", Sentence: "s"}
	row := func(id, v string, standIn bool) ClaimRow {
		return ClaimRow{Claim: id, Verdict: v, Counts: true, StandIn: standIn}
	}
	for _, c := range []struct {
		name  string
		rows  []ClaimRow
		want  string
		moves bool
	}{
		{"the stand-in claim alone refutes", []ClaimRow{row("a", Reproduced, false), row("b", NotReproduced, true)}, NotReproduced, true},
		{"every claim on the stand-in", []ClaimRow{row("a", Reproduced, true), row("b", Reproduced, true)}, Reproduced, true},
		{"the real-data claim refutes too", []ClaimRow{row("a", NotReproduced, false), row("b", NotReproduced, true)}, NotReproduced, false},
		{"both reproduced", []ClaimRow{row("a", Reproduced, false), row("b", Reproduced, true)}, Reproduced, false},
		{"no stand-in claim", []ClaimRow{row("a", Reproduced, false)}, Reproduced, false},
	} {
		got := statementRow(st, c.rows)
		if got.Verdict != c.want || got.StandInDecides != c.moves {
			t.Errorf("%s: verdict %s, stand-in decides %v; want %s, %v", c.name, got.Verdict, got.StandInDecides, c.want, c.moves)
		}
	}
}

// An inconclusive statement is undecidable as declared when a counted claim's do-nothing
// control cannot be refuted (p x k = 1), or when no claim is specific to it; not when a
// claim merely lacks seeds.
func TestUndecidableAsDeclared(t *testing.T) {
	st := claims.Statement{ID: "s", Source: "S", Sentence: "s"}
	claim := func(id, v string, control float64) ClaimRow {
		r := ClaimRow{Claim: id, Verdict: v, Counts: true}
		if control >= 0 {
			r.ControlP = records.Some(control)
		}
		return r
	}
	for _, c := range []struct {
		name string
		rows []ClaimRow
		want string // a substring of the reason, "" for none
	}{
		{"control cannot be refuted", []ClaimRow{claim("a", Reproduced, 0.001), claim("b", Inconclusive, 1)}, "control cannot be refuted"},
		{"control not refuted yet", []ClaimRow{claim("a", Reproduced, 0.001), claim("b", Inconclusive, 0.09)}, ""},
		{"no specific claim", []ClaimRow{claim("a", NotSpecific, -1)}, "not specific at any n"},
		{"a specific claim lacks seeds", []ClaimRow{claim("a", NotSpecific, -1), claim("b", Inconclusive, -1)}, ""},
		{"decided", []ClaimRow{claim("a", NotReproduced, 1), claim("b", Inconclusive, 1)}, ""},
	} {
		got := statementRow(st, c.rows)
		if (c.want == "") != (got.Undecidable == "") || !strings.Contains(got.Undecidable, c.want) {
			t.Errorf("%s: verdict %s, undecidable %q; want %q", c.name, got.Verdict, got.Undecidable, c.want)
		}
	}
}

// Post-hoc readings never move a declared verdict: judging the committed runs with and
// without them gives every declared statement and claim the same row.
func TestPostHocReadingsMoveNoDeclaredVerdict(t *testing.T) {
	artefacts.Check(t)
	res, err := ReadDir(filepath.Join("..", "..", "reproduction"))
	if err != nil {
		t.Fatal(err)
	}
	all := claims.Statements()
	var declared []claims.Statement
	for _, st := range all {
		if !st.Late() {
			declared = append(declared, st)
		}
	}
	if len(declared) == len(all) {
		t.Fatal("no post-hoc reading is declared; the test has nothing to check")
	}
	wantClaims, wantSts, _, err := Judge(res, declared)
	if err != nil {
		t.Fatal(err)
	}
	gotClaims, gotSts, _, err := Judge(res, all)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]ClaimRow{}
	for _, c := range gotClaims {
		byID[c.Claim] = c
	}
	for _, c := range wantClaims {
		if byID[c.Claim] != c {
			t.Errorf("claim %s moves when the post-hoc readings are judged: %+v, alone %+v", c.Claim, byID[c.Claim], c)
		}
	}
	stByID := map[string]StatementRow{}
	for _, s := range gotSts {
		stByID[s.StatementID] = s
	}
	for _, s := range wantSts {
		if stByID[s.StatementID] != s {
			t.Errorf("statement %s moves when the post-hoc readings are judged", s.StatementID)
		}
	}
}

// A declared seed raise: the verdict is judged on every seed, and the verdict of the seeds
// before the raise is kept beside it when it differs; a statement on other curves is not
// touched.
func TestSeedRaiseKeepsTheSupersededVerdict(t *testing.T) {
	defer func(r []claims.SeedRaise) { claims.SeedRaises = r }(claims.SeedRaises)
	claims.SeedRaises = []claims.SeedRaise{{Figure: "f", Methods: []string{"dpgibo", "gibo"}, From: 3, To: 12}}
	n := 12
	var rows []records.Row
	rows = append(rows, verdicttest.RowsOf("f", "dpgibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return 1 + 0.01*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("f", "gibo", "", 5, verdicttest.Seq(n, func(i int) float64 { return 2 + 0.013*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("f", "random", "", 5, verdicttest.Seq(n, func(i int) float64 { return 3 + 0.01*float64(i) })...)...)
	rows = append(rows, verdicttest.RowsOf("f", "tpe", "", 5, verdicttest.Seq(n, func(i int) float64 { return 4 + 0.01*float64(i) })...)...)
	sts := []claims.Statement{
		{ID: "raised", Source: "test", Sentence: "test", Claims: []claims.Claim{
			{ID: "lower", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "dpgibo", D: 5}, B: claims.Side{Method: "gibo", D: 5}}}},
		{ID: "apart", Source: "test", Sentence: "test", Claims: []claims.Claim{
			{ID: "apart-lower", Figure: "f", Kind: claims.Lower, A: claims.Side{Method: "random", D: 5}, B: claims.Side{Method: "tpe", D: 5}}}},
	}
	_, got, _, err := Judge(results(t, rows), sts)
	if err != nil {
		t.Fatal(err)
	}
	if r := got[0]; r.Verdict != Reproduced || r.SupersededVerdict != Inconclusive || !strings.Contains(r.SeedsRaised, "3 to 12 seeds") {
		t.Errorf("raised statement: verdict %q, superseded %q, raise %q; want reproduced, inconclusive before, 3 to 12 seeds", r.Verdict, r.SupersededVerdict, r.SeedsRaised)
	}
	if r := got[1]; r.SeedsRaised != "" || r.SupersededVerdict != "" {
		t.Errorf("a statement on curves not raised reads %q, %q", r.SeedsRaised, r.SupersededVerdict)
	}
	// Before the run that adds the seeds, nothing is superseded.
	_, got, _, err = Judge(results(t, slices.DeleteFunc(rows, func(r records.Row) bool { return r.Seed > 3 })), sts)
	if err != nil {
		t.Fatal(err)
	}
	if r := got[0]; r.Verdict != Inconclusive || r.SupersededVerdict != "" {
		t.Errorf("before the raise: verdict %q, superseded %q; want inconclusive and nothing superseded", r.Verdict, r.SupersededVerdict)
	}
}
