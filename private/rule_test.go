package private

import (
	"math"
	"strings"
	"testing"

	"dpgibo/accounting"
)

func TestSNRCeiling(t *testing.T) {
	// wine: n = 89, d = 13, budget 20(d+1) = 280, so T = 20: 89/(2 sqrt(260)) at mu = 1.
	f := Facts{Users: 89, Dim: 13, Mu: 1, Evals: 280}
	if got, want := f.SNRCeiling(), 89/(2*math.Sqrt(260)); math.Abs(got-want) > 1e-12 {
		t.Errorf("SNRCeiling = %v, want %v", got, want)
	}
	f.Mu = 2
	if got, want := f.SNRCeiling(), 89/math.Sqrt(260); math.Abs(got-want) > 1e-12 {
		t.Errorf("SNRCeiling at mu 2 = %v, want %v", got, want)
	}
	f.Evals = 281 // a budget between two batches counts whole iterations
	if got, want := f.SNRCeiling(), 89/math.Sqrt(260); math.Abs(got-want) > 1e-12 {
		t.Errorf("SNRCeiling at 281 evaluations = %v, want %v", got, want)
	}
}

func TestByCeiling(t *testing.T) {
	r := ByCeiling{Cut: 4, Below: ReportNoisyMin, Above: SafeDPGIBO}
	wine := Facts{Users: 89, Dim: 13, Mu: 1, Evals: 280} // ceiling 2.76
	if c := r.Choose(wine); c.Method != ReportNoisyMin || !strings.Contains(c.Reason, "below 4") {
		t.Errorf("ceiling 2.76, cut 4: %+v, want dp-rnm with a reason naming the cut", c)
	}
	wine.Mu = 2 // ceiling 5.52
	if c := r.Choose(wine); c.Method != SafeDPGIBO {
		t.Errorf("ceiling 5.52, cut 4: %+v, want dpgibo-safe", c)
	}
}

// ByCurrency reads the target's currency: an (epsilon, delta) target set, else mu-GDP.
func TestByCurrency(t *testing.T) {
	r := ByCurrency{EpsDelta: Always{Method: ReportNoisyMin}, GDP: Always{Method: DPGIBO}}
	f := Facts{Users: 89, Dim: 13, Mu: 1, Evals: 280}
	if c := r.Choose(f); c.Method != DPGIBO || !strings.HasPrefix(c.Reason, "the target is mu-GDP") {
		t.Errorf("mu-GDP target: %+v, want dpgibo", c)
	}
	f.EpsDelta = accounting.EpsDelta{Epsilon: 4.4, Delta: 1e-5}
	if c := r.Choose(f); c.Method != ReportNoisyMin || !strings.HasPrefix(c.Reason, "the target is (epsilon, delta)-DP") {
		t.Errorf("(epsilon, delta) target: %+v, want dp-rnm", c)
	}
}

// dp-auto's revisions run the rules their committed cells ran: the first round's at 2, the
// second round's at 3 and 4, the low-SNR study's first at 5, DefaultRule at 6; an explicit
// Rule wins.
func TestAutoRevisionsPinTheirRules(t *testing.T) {
	second := ByLoss{LogLoss: ReportNoisyMin, Other: ByCeiling{Cut: 2, Below: HybridDPGIBO, Above: DPGIBO}}
	lowSNR := ByCurrency{EpsDelta: second, GDP: ByLoss{LogLoss: ReportNoisyMin, Other: Always{Method: DPGIBO}}}
	for rev, want := range map[int]Rule{2: FirstRoundRule, 3: second, 4: second, 5: lowSNR, 6: DefaultRule, 0: DefaultRule} {
		if got := (Auto{Mu: 1, Revision: rev}).rule(); got != want {
			t.Errorf("revision %d runs %v, want %v", rev, got, want)
		}
	}
	if got := (Auto{Mu: 1, Revision: 3, Rule: Always{Method: SafeDPGIBO}}).rule(); got != (Always{Method: SafeDPGIBO}) {
		t.Errorf("an explicit rule at revision 3: %v", got)
	}
	if err := (Auto{Mu: 1, Revision: 7}).Check(); err == nil {
		t.Error("revision 7 accepted")
	}
}

func TestCandidateRules(t *testing.T) {
	rules := CandidateRules()
	if len(rules) != 54 {
		t.Fatalf("%d candidate rules, declared 54", len(rules))
	}
	if rules[0] != (Always{SafeDPGIBO}) || rules[6] != (ByCeiling{Cut: 2, Below: ReportNoisyMin, Above: DPGIBO}) {
		t.Errorf("candidate order: first %v, seventh %v", rules[0], rules[6])
	}
	seen := map[Rule]bool{}
	for _, r := range rules {
		if seen[r] {
			t.Errorf("rule %v listed twice", r)
		}
		seen[r] = true
		if b, ok := r.(ByCeiling); ok && b.Below == b.Above {
			t.Errorf("rule %v chooses one method on both sides", r)
		}
	}
}

func TestByLoss(t *testing.T) {
	r := ByLoss{LogLoss: ReportNoisyMin, Other: ByCeiling{Cut: 4, Below: HybridDPGIBO, Above: DPGIBO}}
	wine := Facts{Users: 89, Dim: 13, Mu: 1, Evals: 280, LogLoss: true} // ceiling 2.76
	if c := r.Choose(wine); c.Method != ReportNoisyMin || !strings.Contains(c.Reason, "log loss") {
		t.Errorf("a log loss: %+v, want dp-rnm with a reason naming the loss", c)
	}
	wine.LogLoss = false
	if c := r.Choose(wine); c.Method != HybridDPGIBO || !strings.Contains(c.Reason, "not a log loss") || !strings.Contains(c.Reason, "below 4") {
		t.Errorf("not a log loss, ceiling 2.76: %+v, want the other rule's dpgibo-hybrid with both reasons", c)
	}
	wine.Mu = 2 // ceiling 5.52
	if c := r.Choose(wine); c.Method != DPGIBO {
		t.Errorf("not a log loss, ceiling 5.52: %+v, want dpgibo", c)
	}
}
