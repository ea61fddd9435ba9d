package private

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dpgibo/accounting"
)

// bowl is a d-dimensional quadratic on [-1, 1]^d: user i's loss is the squared distance
// to its centre, clipped to Bound (its LossBound). Losses panics when noLosses is set, so
// that a test can check that a call never evaluates.
type bowl struct {
	d, users int
	Bound    float64
	noLosses bool
}

func (b bowl) Dim() int { return b.d }
func (b bowl) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, b.d), make([]float64, b.d)
	for j := range lo {
		lo[j], hi[j] = -1, 1
	}
	return lo, hi
}
func (b bowl) Users() int         { return b.users }
func (b bowl) LossBound() float64 { return b.Bound }
func (b bowl) Losses(theta, dst []float64) error {
	if b.noLosses {
		panic("Losses called")
	}
	for i := range dst {
		c := 0.3 + 0.4*float64(i)/float64(b.users)
		s := 0.0
		for _, v := range theta {
			s += (v - c) * (v - c)
		}
		dst[i] = math.Min(s, b.Bound)
	}
	return nil
}

// tunable are the methods Tune runs; atGDP says whether it offers them at a mu-GDP target.
var tunable = []struct {
	m     Candidate
	atGDP bool
}{
	{DPGIBO, true}, {SafeDPGIBO, true}, {HybridDPGIBO, true}, {ReportNoisyMin, true}, {GaussianSelection, true},
	{GeometricSelection, false}, {NegBinSelection, false},
}

func TestTuneRunsTheChosenMethod(t *testing.T) {
	obj := bowl{d: 3, users: 200, Bound: 4}
	for _, tc := range tunable {
		m := tc.m
		cfg := Config{EpsDelta: accounting.EpsDelta{Epsilon: 4, Delta: 1e-5}, Evals: 80, Rule: Always{m}}
		res, err := Tune(context.Background(), obj, cfg, rand.New(rand.NewPCG(3, 4)), nil)
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if res.Choice.Method != m || res.Facts.Users != 200 || res.Facts.Evals != 80 {
			t.Errorf("%v: choice %+v, facts %+v", m, res.Choice, res.Facts)
		}
		if !res.Ledger.Private || len(res.Theta) != 3 {
			t.Errorf("%v: ledger %+v, theta %v", m, res.Ledger, res.Theta)
		}
		if res.Evals > 80 {
			t.Errorf("%v: %d evaluations, budget 80", m, res.Evals)
		}
		// The selections with a random number of trials release their mean, not K, and
		// never pass the budget.
		if (m == GeometricSelection || m == NegBinSelection) && (res.Evals >= 80 || res.NonPrivateTrials == 0 || res.NonPrivateTrials > 80) {
			t.Errorf("%v: Evals %d (want the fitted mean, below the budget 80), NonPrivateTrials %d", m, res.Evals, res.NonPrivateTrials)
		}
	}
}

// For every method Tune runs and both currencies, the guarantee delivered is at most the one
// asked, as the ledger states it, whatever rule chose the method: the acceptance test of
// docs/library.md, "The guarantee asked for".
func TestTuneDeliversTheTargetAsked(t *testing.T) {
	obj := bowl{d: 3, users: 120, Bound: 4}
	ctx := context.Background()
	check := func(what string, cfg Config, tc struct {
		m     Candidate
		atGDP bool
	}) {
		t.Helper()
		res, err := Tune(ctx, obj, cfg, nil, nil) // the secret generator a user gets
		gdp := cfg.EpsDelta == (accounting.EpsDelta{})
		if gdp && !tc.atGDP {
			if err == nil || !strings.Contains(err.Error(), "not offered at a mu-GDP target") {
				t.Errorf("%s: %v at a mu-GDP target: error %v, want one saying it is not offered and why", what, tc.m, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v: %v", what, tc.m, err)
		}
		l := res.Ledger
		if gdp {
			if !(l.Mu <= cfg.Mu) || !l.Private {
				t.Errorf("%s: %v delivered %v-GDP, asked %v", what, tc.m, l.Mu, cfg.Mu)
			}
			if _, native := tc.m.(giboCandidate); native || tc.m == GaussianSelection {
				if l.Mu != cfg.Mu {
					t.Errorf("%s: %v delivered %v-GDP, want exactly the %v asked (native)", what, tc.m, l.Mu, cfg.Mu)
				}
			}
		} else {
			e := cfg.EpsDelta
			if !(l.Epsilon <= e.Epsilon && l.Delta <= e.Delta) || !l.Private {
				t.Errorf("%s: %v delivered (%v, %v)-DP, asked (%v, %v)", what, tc.m, l.Epsilon, l.Delta, e.Epsilon, e.Delta)
			}
			if !math.IsNaN(l.Mu) && l.Delta != 0 {
				if eps, _ := accounting.EpsilonForDelta(l.Mu, e.Delta); eps != l.Epsilon || eps > e.Epsilon {
					t.Errorf("%s: %v: ledger mu %v is (%v, %v)-DP, ledger says epsilon %v", what, tc.m, l.Mu, eps, e.Delta, l.Epsilon)
				}
			}
		}
		if !strings.Contains(res.Guarantee(), "asked") {
			t.Errorf("%s: %v: Guarantee %q does not state the target", what, tc.m, res.Guarantee())
		}
	}
	for _, tc := range tunable {
		for _, mu := range []float64{0.5, 1, 2} {
			check(fmt.Sprintf("Mu %v", mu), Config{Mu: mu, Evals: 80, Rule: Always{tc.m}}, tc)
		}
		for _, e := range []accounting.EpsDelta{{Epsilon: 1, Delta: 1e-5}, {Epsilon: 3, Delta: 1e-6}, {Epsilon: 0.5, Delta: 1e-3}} {
			check(fmt.Sprintf("(%v, %v)", e.Epsilon, e.Delta), Config{EpsDelta: e, Evals: 80, Rule: Always{tc.m}}, tc)
		}
	}
	// The default rule, for a log loss and not, in both currencies.
	for _, logLoss := range []bool{true, false} {
		for _, mu := range []float64{0.5, 1, 2} {
			cfg := Config{Mu: mu, Evals: 80, LogLoss: logLoss}
			plan, err := Forecast(obj, cfg)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("default rule, LogLoss %v, Mu %v", logLoss, mu), cfg, struct {
				m     Candidate
				atGDP bool
			}{plan.Choice.Method, true})
		}
		for _, e := range []accounting.EpsDelta{{Epsilon: 1, Delta: 1e-5}, {Epsilon: 3, Delta: 1e-6}} {
			cfg := Config{EpsDelta: e, Evals: 80, LogLoss: logLoss}
			plan, err := Forecast(obj, cfg)
			if err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("default rule, LogLoss %v, (%v, %v)", logLoss, e.Epsilon, e.Delta), cfg, struct {
				m     Candidate
				atGDP bool
			}{plan.Choice.Method, true})
		}
	}
}

// The noise each method adds at three targets, against values computed independently with
// Python 3 and scipy 1.10 (scipy.stats.norm, scipy.optimize.brentq at xtol = rtol = 1e-15,
// none of this project's code): report-noisy-min's pure epsilon log(Phi(mu/2)/Phi(-mu/2))
// and its Laplace scale 2 Lmax/(n eps); the largest mu with
// Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) <= delta, and the hybrid's release noise
// sqrt(2) Lmax/(n mu sqrt(0.1)) and dp-random's sqrt(K) Lmax/(n mu) at it; the geometric
// selection's fitted mean (the largest whole m whose cap, the smallest k with
// (1 - 1/m)^k <= 0.1 delta/(1 + e^eps), is at most the budget), its cap and its Laplace
// scale 3 Lmax/(n eps). n = 89, Lmax = 6.9, d = 4, budget K = 100.
func TestNoiseScalesAtThreeTargets(t *testing.T) {
	obj := bowl{d: 4, users: 89, Bound: 6.9, noLosses: true}
	for _, tc := range []struct {
		what  string
		cfg   Config
		m     Candidate
		mu    float64 // Facts.Mu, 0: not checked
		noise float64
		mean  int // a random-count selection's fitted mean and cap
		limit int
	}{
		{"dp-rnm at 0.5-GDP", Config{Mu: 0.5}, ReportNoisyMin, 0.5, 0.3875651751717508, 0, 0},
		{"dp-random at 0.5-GDP", Config{Mu: 0.5}, GaussianSelection, 0.5, 1.550561797752809, 0, 0},
		{"hybrid at (1, 1e-5)", Config{EpsDelta: accounting.EpsDelta{Epsilon: 1, Delta: 1e-5}}, HybridDPGIBO, 0.2680511232112939, 1.2934702684892456, 0, 0},
		{"dp-random at (1, 1e-5)", Config{EpsDelta: accounting.EpsDelta{Epsilon: 1, Delta: 1e-5}}, GaussianSelection, 0.2680511232112939, 2.8922874472168574, 0, 0},
		{"dp-rnm at (3, 1e-6)", Config{EpsDelta: accounting.EpsDelta{Epsilon: 3, Delta: 1e-6}}, ReportNoisyMin, 0.64772653068873, 2 * 6.9 / 89 / 3, 0, 0},
		{"hybrid at (3, 1e-6)", Config{EpsDelta: accounting.EpsDelta{Epsilon: 3, Delta: 1e-6}}, SafeDPGIBO, 0.64772653068873, 0.5352816997325887, 0, 0},
		{"geometric at (3, 1e-6)", Config{EpsDelta: accounting.EpsDelta{Epsilon: 3, Delta: 1e-6}}, GeometricSelection, 0.64772653068873, 0.07752808988764046, 5, 86},
	} {
		tc.cfg.Rule, tc.cfg.Evals = Always{tc.m}, 100
		plan, err := Forecast(obj, tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		if tc.mu != 0 && math.Abs(plan.Facts.Mu-tc.mu) > 1e-9*tc.mu {
			t.Errorf("%s: mu %v, want %v", tc.what, plan.Facts.Mu, tc.mu)
		}
		if plan.Facts.Mu > tc.mu*(1+1e-12) {
			t.Errorf("%s: mu %v above the independent %v", tc.what, plan.Facts.Mu, tc.mu)
		}
		if math.Abs(plan.ScoreNoise-tc.noise) > 1e-9*tc.noise {
			t.Errorf("%s: score noise %v, want %v", tc.what, plan.ScoreNoise, tc.noise)
		}
		if tc.mean != 0 {
			if got := int(math.Round(plan.cal.sel.Trials.Mean())); got != tc.mean || plan.MaxEvals != tc.limit {
				t.Errorf("%s: mean %d trials, cap %d; want %d and %d", tc.what, got, plan.MaxEvals, tc.mean, tc.limit)
			}
		}
	}
}

func TestForecastReadsNoLoss(t *testing.T) {
	obj := bowl{d: 4, users: 89, Bound: 6.9, noLosses: true}
	target := accounting.EpsDelta{Epsilon: 2, Delta: 1e-5}
	for _, tc := range tunable {
		m := tc.m
		plan, err := Forecast(obj, Config{EpsDelta: target, Rule: Always{m}})
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if plan.Facts.Evals != 100 || plan.Choice.Method != m {
			t.Errorf("%v: facts %+v choice %+v (want the default budget 20(d+1) = 100)", m, plan.Facts, plan.Choice)
		}
		_, gibo := m.(giboCandidate)
		if (plan.GIBO != nil) != gibo || (plan.ScoreNoise > 0) != (m != DPGIBO) {
			t.Errorf("%v: GIBO forecast %v, score noise %v", m, plan.GIBO != nil, plan.ScoreNoise)
		}
		// The most evaluations: the budget, or a random-count selection's cap within it.
		random := m == GeometricSelection || m == NegBinSelection
		if plan.MaxEvals > 100 || (!random && plan.MaxEvals != 100) || (random && plan.cal.sel.Trials.Mean() >= float64(plan.MaxEvals)) {
			t.Errorf("%v: MaxEvals %d, want the budget 100 (a selection with a random number of trials: its cap within it, above its mean)", m, plan.MaxEvals)
		}
	}
	// dp-rnm's Laplace scale: 2 Lmax/(n eps), eps the largest pure epsilon that is 0.5-GDP.
	plan, _ := Forecast(obj, Config{Mu: 0.5, Rule: Always{ReportNoisyMin}})
	eps, _ := accounting.PureWithinGDPExact(0.5)
	if want := 2 * 6.9 / (89 * eps); math.Abs(plan.ScoreNoise-want) > 1e-12*want {
		t.Errorf("dp-rnm score noise %v, want %v", plan.ScoreNoise, want)
	}
}

// A declared log loss is a fact the rule reads and the plan releases.
func TestForecastReadsTheDeclaredLoss(t *testing.T) {
	obj := bowl{d: 4, users: 89, Bound: 6.9, noLosses: true}
	rule := ByLoss{LogLoss: ReportNoisyMin, Other: Always{DPGIBO}}
	for _, logLoss := range []bool{false, true} {
		plan, err := Forecast(obj, Config{Mu: 1, LogLoss: logLoss, Rule: rule})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]Candidate{false: DPGIBO, true: ReportNoisyMin}[logLoss]; plan.Facts.LogLoss != logLoss || plan.Choice.Method != want {
			t.Errorf("LogLoss %v: facts %+v, choice %v, want %v", logLoss, plan.Facts, plan.Choice.Method, want)
		}
	}
}

// lossy is bowl without a LossBound method.
type lossy struct{ b bowl }

func (o lossy) Dim() int                          { return o.b.Dim() }
func (o lossy) Bounds() (lo, hi []float64)        { return o.b.Bounds() }
func (o lossy) Users() int                        { return o.b.Users() }
func (o lossy) Losses(theta, dst []float64) error { return o.b.Losses(theta, dst) }

func TestTuneRefusesBadInput(t *testing.T) {
	obj := bowl{d: 3, users: 50, Bound: 4}
	ctx, rng := context.Background(), rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		obj  interface {
			Dim() int
			Bounds() (lo, hi []float64)
			Users() int
			Losses(theta, dst []float64) error
		}
		cfg  Config
		want string
	}{
		{"no target", obj, Config{}, "set Config.Mu (mu-GDP) or Config.EpsDelta"},
		{"two targets", obj, Config{Mu: 1, EpsDelta: accounting.EpsDelta{Epsilon: 1, Delta: 1e-5}}, "not both"},
		{"bad delta", obj, Config{EpsDelta: accounting.EpsDelta{Epsilon: 1, Delta: 1}}, "EpsDelta.Delta must lie in (0, 1)"},
		{"bad epsilon", obj, Config{EpsDelta: accounting.EpsDelta{Epsilon: math.Inf(1), Delta: 1e-5}}, "EpsDelta.Epsilon must be positive and finite"},
		{"mu NaN", obj, Config{Mu: math.NaN()}, "Config.Mu must be positive"},
		{"mu negative", obj, Config{Mu: -1}, "Config.Mu must be positive"},
		{"Renyi DP at mu-GDP", obj, Config{Mu: 1, Rule: Always{NegBinSelection}}, "Renyi DP, which implies no mu-GDP"},
		{"random stopping at mu-GDP", obj, Config{Mu: 1, Rule: Always{GeometricSelection}}, "number of evaluations is unbounded"},
		{"random stopping over the budget", obj, Config{EpsDelta: accounting.EpsDelta{Epsilon: 1, Delta: 1e-5}, Evals: 10, Rule: Always{GeometricSelection}}, "above the budget 10"},
		{"budget", obj, Config{Mu: 1, Evals: 8}, "budget 8 (Config.Evals) is below"},
		{"no loss bound", lossy{obj}, Config{Mu: 1, Rule: Always{ReportNoisyMin}}, "needs a loss bound"},
		{"bad loss bound", obj, Config{Mu: 1, LossBound: math.Inf(1)}, "loss bound must be positive and finite"},
	} {
		_, err := Tune(ctx, tc.obj, tc.cfg, rng, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// DP-GIBO runs without a loss bound (its defaults then take S = 1).
	if _, err := Tune(ctx, lossy{obj}, Config{Mu: 1, Rule: Always{DPGIBO}}, rng, nil); err != nil {
		t.Errorf("DP-GIBO without a loss bound: %v", err)
	}
}
