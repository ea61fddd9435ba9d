package private

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
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

func TestTuneRunsTheChosenMethod(t *testing.T) {
	obj := bowl{d: 3, users: 200, Bound: 4}
	for _, m := range []Method{DPGIBO, SafeDPGIBO, HybridDPGIBO, ReportNoisyMin, GeometricSelection, NegBinSelection} {
		cfg := Config{Mu: 1, Evals: 80, Rule: Always{m}}
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
		// The selections with a random number of trials release the budget, not K.
		if (m == GeometricSelection || m == NegBinSelection) && (res.Evals != 80 || res.NonPrivateTrials == 0) {
			t.Errorf("%v: Evals %d (want the budget 80), NonPrivateTrials %d", m, res.Evals, res.NonPrivateTrials)
		}
		// mu-GDP methods spend exactly the mu given.
		if m <= HybridDPGIBO && res.Ledger.Mu != 1 {
			t.Errorf("%v: ledger mu %v, want 1", m, res.Ledger.Mu)
		}
	}
}

func TestForecastReadsNoLoss(t *testing.T) {
	obj := bowl{d: 4, users: 89, Bound: 6.9, noLosses: true}
	for _, m := range []Method{DPGIBO, SafeDPGIBO, HybridDPGIBO, ReportNoisyMin, GeometricSelection, NegBinSelection} {
		plan, err := Forecast(obj, Config{Mu: 0.5, Rule: Always{m}})
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if plan.Facts.Evals != 100 || plan.Choice.Method != m {
			t.Errorf("%v: facts %+v choice %+v (want the default budget 20(d+1) = 100)", m, plan.Facts, plan.Choice)
		}
		if (plan.GIBO != nil) != (m <= HybridDPGIBO) || (plan.ScoreNoise > 0) != (m != DPGIBO) {
			t.Errorf("%v: GIBO forecast %v, score noise %v", m, plan.GIBO != nil, plan.ScoreNoise)
		}
		// The most evaluations: the budget, or a random-count selection's cap.
		want := 100
		switch m {
		case GeometricSelection:
			p, _ := GeometricPlan(0.5, CurrencyEpsDelta, 100, 0)
			want = p.Limit
		case NegBinSelection:
			p, _ := NegBinPlan(0.5, 100, SelectConfig{})
			want = p.Limit
		}
		if plan.MaxEvals != want || want < 100 {
			t.Errorf("%v: MaxEvals %d, want %d", m, plan.MaxEvals, want)
		}
	}
	// dp-rnm's Laplace scale: 2 Lmax/(n eps), eps the (eps, 1e-5) of mu = 0.5.
	plan, _ := Forecast(obj, Config{Mu: 0.5, Rule: Always{ReportNoisyMin}})
	eps, _ := PureEpsilon(0.5, CurrencyEpsDelta)
	if want := 2 * 6.9 / (89 * eps); math.Abs(plan.ScoreNoise-want) > 1e-12 {
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
		if want := map[bool]Method{false: DPGIBO, true: ReportNoisyMin}[logLoss]; plan.Facts.LogLoss != logLoss || plan.Choice.Method != want {
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
		{"mu zero", obj, Config{}, "Config.Mu must be positive"},
		{"mu NaN", obj, Config{Mu: math.NaN()}, "Config.Mu must be positive"},
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
