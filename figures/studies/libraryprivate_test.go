package studies

import (
	"testing"

	"dpgibo/private"
)

// cellOf is a cell with the given judged gaps per method (starts 1, losses at their gap, so
// that no method ends above its start unless its gap exceeds 1), the first method picked.
func cellOf(problem string, users int, gaps map[string]float64, picked string) privateCell {
	c := privateCell{problem: problem, mu: 1, facts: private.Facts{Users: users, Dim: 4, Mu: 1, Evals: 100}, rows: map[string]PrivateRow{}, picked: picked}
	for m, g := range gaps {
		c.rows[m] = PrivateRow{Method: m, JudgeGap: g, JudgeLoss: g, JudgeStart: 1}
	}
	return c
}

func TestJudgeBars(t *testing.T) {
	c := cellOf("p", 10, map[string]float64{"dp-rnm": 0.2, "dpgibo": 0.2*1.1 + 0.02, "dpgibo-safe": 0.2*1.1 + 0.021, "dpgibo-hybrid": 1.2}, "dp-rnm")
	for _, tc := range []struct {
		method             string
		pass, loose, above bool
	}{
		{"dp-rnm", true, true, false},
		{"dpgibo", true, true, false},
		{"dpgibo-safe", false, true, false},
		{"dpgibo-hybrid", false, false, true},
	} {
		_, pass, loose, above, ok := c.judge(tc.method)
		if !ok || pass != tc.pass || loose != tc.loose || above != tc.above {
			t.Errorf("%s: pass %v loose %v above %v, want %v %v %v", tc.method, pass, loose, above, tc.pass, tc.loose, tc.above)
		}
	}
}

func TestChooseRule(t *testing.T) {
	// Few users (ceiling 10/(2 sqrt(19*4)) = 0.57): dp-rnm wins; many (ceiling 57): DP-GIBO
	// with the safe release. Only a rule that splits on the ceiling passes both.
	gaps := func(rnm, gibo float64) map[string]float64 {
		return map[string]float64{"dp-rnm": rnm, "dp-select-geometric": rnm + 0.3, "dp-select-negbin": rnm + 0.3,
			"dpgibo": gibo + 0.2, "dpgibo-safe": gibo, "dpgibo-hybrid": gibo + 0.3}
	}
	cells := []privateCell{
		cellOf("few", 10, gaps(0.1, 0.9), "dp-rnm"),
		cellOf("many", 1000, gaps(0.6, 0.05), "dpgibo-safe"),
	}
	rule, s, err := chooseRule(private.CandidateRules(), cells)
	if err != nil {
		t.Fatal(err)
	}
	want := private.ByCeiling{Cut: 2, Below: private.ReportNoisyMin, Above: private.SafeDPGIBO}
	if rule != want || s.pass != 2 || s.cells != 2 {
		t.Errorf("chose %v (%+v), want %v passing both cells", rule, s, want)
	}
}

// The second round's candidates: the first round's, then a log-loss split over each of
// them; where the winner follows the loss's kind and not the ceiling, only a split on the
// kind passes every cell.
func TestSecondRoundRules(t *testing.T) {
	rules := secondRoundRules()
	first := private.CandidateRules()
	if len(rules) != 4*len(first) || rules[len(first)] != (private.ByLoss{LogLoss: private.ReportNoisyMin, Other: first[0]}) {
		t.Fatalf("%d rules (want %d), the first split %v", len(rules), 4*len(first), rules[len(first)])
	}
	gaps := func(rnm, gibo float64) map[string]float64 {
		return map[string]float64{"dp-rnm": rnm, "dp-select-geometric": rnm + 0.3, "dp-select-negbin": rnm + 0.3,
			"dpgibo": gibo, "dpgibo-safe": gibo + 0.2, "dpgibo-hybrid": gibo + 0.3}
	}
	// Both kinds at both ceilings (10 and 1000 users).
	var cells []privateCell
	for _, users := range []int{10, 1000} {
		c := cellOf("log", users, gaps(0.1, 0.9), "dp-rnm")
		c.facts.LogLoss = true
		cells = append(cells, c, cellOf("smooth", users, gaps(0.8, 0.05), "dpgibo"))
	}
	rule, s, err := chooseRule(rules, cells)
	if err != nil {
		t.Fatal(err)
	}
	want := private.ByLoss{LogLoss: private.ReportNoisyMin, Other: private.Always{Method: private.DPGIBO}}
	if rule != want || s.pass != 4 {
		t.Errorf("chose %v (%+v), want %v passing all four cells", rule, s, want)
	}
	if got := ruleName(rule); got != "dp-rnm for a log loss, else always dpgibo" {
		t.Errorf("ruleName = %q", got)
	}
	// The first round's candidates cannot: no ceiling separates the kinds.
	if _, s, _ := chooseRule(first, cells); s.pass == 4 {
		t.Errorf("a first-round rule passes every cell (%+v)", s)
	}
}
