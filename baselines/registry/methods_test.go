package registry_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/gibo"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/registry"
	"dpgibo/private"
)

// testOptions are the options every registered method gets in the generic tests: a small
// DP-GIBO configuration, mu = 1 for the private methods.
func testOptions() registry.Options {
	return registry.Options{
		Settings: algo.Settings{Iters: 4, Mu: 1},
		Mu:       1,
	}
}

// trace records every callback of a run.
type trace struct{ its []algo.Iteration }

func (tr *trace) cb(it algo.Iteration) error {
	tr.its = append(tr.its, it)
	return nil
}

func TestNamesSortedAndComplete(t *testing.T) {
	names := registry.Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names() = %v, not sorted", names)
	}
	for _, want := range []string{"cmaes", "dp-random", "dp-ucb", "dpgibo", "gibo", "random", "tpe", "ucb"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names() = %v lacks %q", names, want)
		}
	}
}

func TestUnknownMethodListsKnownNames(t *testing.T) {
	_, err := registry.New("hyperband", testOptions())
	if err == nil {
		t.Fatal("New(\"hyperband\") returned no error")
	}
	msg := err.Error()
	if !strings.Contains(msg, `"hyperband"`) {
		t.Errorf("error %q does not name the unknown method", msg)
	}
	for _, name := range registry.Names() {
		if !strings.Contains(msg, name) {
			t.Errorf("error %q does not list known method %q", msg, name)
		}
	}
}

// New builds every method as its prototype's type (its family's), with the prototype's
// Info, and Lookup holds every name Names lists and no other.
func TestNewBuildsThePrototypesType(t *testing.T) {
	for _, name := range registry.Names() {
		proto, ok := registry.Lookup(name)
		if !ok {
			t.Fatalf("Lookup(%q): not found", name)
		}
		m, err := registry.New(name, testOptions())
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if fmt.Sprintf("%T", m) != fmt.Sprintf("%T", proto) || m.Info() != proto.Info() || m.Info().Name != name {
			t.Errorf("%s: New gives %T with %+v, Lookup %T with %+v", name, m, m.Info(), proto, proto.Info())
		}
	}
	if _, ok := registry.Lookup("hyperband"); ok {
		t.Error(`Lookup("hyperband") found a method`)
	}
}

// runMethod runs a registered method; for dpgibo and gibo it skips the test while
// algo.Minimize is still a stub.
func runMethod(t *testing.T, name string, opt registry.Options, obj algo.Objective, budget int, seed uint64, cb algo.Callback) (baselines.Result, error) {
	t.Helper()
	m, err := registry.New(name, opt)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	res, err := m.Run(context.Background(), obj, budget, rand.New(rand.NewPCG(seed, 1)), cb)
	if err != nil && strings.Contains(err.Error(), "under construction") {
		t.Skipf("%s: algo.Minimize is not implemented yet: %v", name, err)
	}
	return res, err
}

// localMethods run algo.Minimize: batches of d+1 evaluations with the test options.
var localMethods = []string{"dpgibo", "gibo", "dpgibo-safe", "dpgibo-hybrid", "dp-auto"}

// firstBudget is the smallest budget of a local method on an objective of dimension d:
// DP-GIBO's first batch of d+1, plus the evaluations of the private choices of
// dpgibo-safe (2) and dpgibo-hybrid (d+2); dp-auto needs what any method it can choose
// needs.
func firstBudget(name string, d int) int {
	switch name {
	case "dpgibo-safe":
		return d + 3
	case "dpgibo-hybrid", "dp-auto":
		return 2*d + 3
	}
	return d + 1
}

// scoreBased are the methods that spend exactly their budget, one point per iteration.
var scoreBased = []string{"random", "ucb", "tpe", "cmaes", "dp-random", "dp-ucb"}

func TestBudgetAndBoxRespected(t *testing.T) {
	// The minimum (3, -3) lies outside the box [-2, 2]^2, so good methods press against
	// its corner (2, -2).
	for _, name := range registry.Names() {
		for _, budget := range []int{1, 2, 3, 7, 15} {
			t.Run(name+"/budget="+strconv.Itoa(budget), func(t *testing.T) {
				q := testobj.NewQuadratic([]float64{3, -3}, -2, 2, 5)
				var tr trace
				res, err := runMethod(t, name, testOptions(), q, budget, 7, tr.cb)
				if slices.Contains(localMethods, name) && budget < firstBudget(name, q.Dim()) {
					// Below DP-GIBO's first batch of d+1 evaluations (and the private choices'):
					// an error, not an empty run.
					if err == nil || !strings.Contains(err.Error(), "budget "+strconv.Itoa(budget)) || !strings.Contains(err.Error(), "below") {
						t.Errorf("budget %d below the first batch of %d: error %v, want one naming the budget", budget, firstBudget(name, q.Dim()), err)
					}
					if q.Evals != 0 || len(tr.its) != 0 {
						t.Errorf("%d evaluations and %d callbacks before the error", q.Evals, len(tr.its))
					}
					return
				}
				if name == "dp-zo" && budget < 2 {
					// Two evaluations make one step: a smaller budget is an error.
					if err == nil || !strings.Contains(err.Error(), "budget of at least 2") || q.Evals != 0 {
						t.Errorf("budget %d: error %v after %d evaluations, want one naming the budget before any", budget, err, q.Evals)
					}
					return
				}
				limit := budget
				if _, ok := selectionAccounting[name]; ok {
					// A random number of trials with mean the budget: at least 2 for a
					// truncated negative binomial (its support starts at 1), capped.
					if budget < 2 && name != "dp-select-poisson" {
						if err == nil || !strings.Contains(err.Error(), "budget must be at least 2") {
							t.Errorf("budget %d: error %v, want one naming the budget", budget, err)
						}
						return
					}
					limit = selectionLimit(t, name, budget)
				}
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				if q.Evals > limit {
					t.Errorf("%d evaluations, limit %d (budget %d)", q.Evals, limit, budget)
				}
				if slices.Contains(scoreBased, name) && q.Evals != budget {
					t.Errorf("%d evaluations, want exactly the budget %d", q.Evals, budget)
				}
				_, randomCount := selectionAccounting[name]
				switch {
				case randomCount && (res.Evals != budget || res.NonPrivateTrials != q.Evals):
					// The release gives the budget (the mean of K), K only as non-private.
					t.Errorf("Result.Evals = %d, NonPrivateTrials %d; want the budget %d and the %d evaluations counted", res.Evals, res.NonPrivateTrials, budget, q.Evals)
				case !randomCount && (res.Evals != q.Evals || res.NonPrivateTrials != 0):
					t.Errorf("Result.Evals = %d, NonPrivateTrials %d; objective counted %d", res.Evals, res.NonPrivateTrials, q.Evals)
				}
				if p := q.Outside(); p != nil {
					t.Errorf("evaluated %v outside the box", p)
				}
				lo, hi := q.Bounds()
				if !testobj.InBox(res.Theta, lo, hi) {
					t.Errorf("released theta %v outside the box", res.Theta)
				}
				prev := 0
				for _, it := range tr.its {
					if !testobj.InBox(it.Theta, lo, hi) {
						t.Errorf("iteration %d released %v outside the box", it.Iter, it.Theta)
					}
					if it.Evals > limit || it.Evals < prev {
						t.Errorf("iteration %d reports %d evaluations after %d (budget %d)", it.Iter, it.Evals, prev, budget)
					}
					prev = it.Evals
				}
				if slices.Contains(scoreBased, name) {
					if len(tr.its) != budget {
						t.Fatalf("%d callbacks, want one per evaluation (%d)", len(tr.its), budget)
					}
					for k, it := range tr.its {
						if it.Iter != k+1 || it.Evals != k+1 || it.Batch != 1 || !math.IsNaN(it.Trace) {
							t.Errorf("callback %d = {Iter %d, Evals %d, Batch %d, Trace %v}, want {%d, %d, 1, NaN}", k, it.Iter, it.Evals, it.Batch, it.Trace, k+1, k+1)
						}
					}
					if last := tr.its[len(tr.its)-1].Theta; !slices.Equal(last, res.Theta) {
						t.Errorf("last callback theta %v differs from the released %v", last, res.Theta)
					}
				}
			})
		}
	}
}

// sameResult is reflect.DeepEqual with the ledgers (the release's and its DP-GIBO run's)
// compared as printed, so that the NaN mu of an (epsilon, delta) ledger compares equal.
func sameResult(a, b baselines.Result) bool {
	if fmt.Sprintf("%+v", a.Ledger) != fmt.Sprintf("%+v", b.Ledger) {
		return false
	}
	a.Ledger, b.Ledger = accounting.Ledger{}, accounting.Ledger{}
	if (a.GIBO == nil) != (b.GIBO == nil) {
		return false
	}
	if a.GIBO != nil {
		ga, gb := *a.GIBO, *b.GIBO
		if fmt.Sprintf("%+v", ga.Ledger) != fmt.Sprintf("%+v", gb.Ledger) {
			return false
		}
		ga.Ledger, gb.Ledger = accounting.Ledger{}, accounting.Ledger{}
		a.GIBO, b.GIBO = &ga, &gb
	}
	return reflect.DeepEqual(a, b)
}

func TestSameSeedSameTrace(t *testing.T) {
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			run := func(seed uint64) (baselines.Result, []algo.Iteration) {
				q := testobj.NewQuadratic([]float64{0.5, -0.3, 0.1}, -2, 2, 4)
				var tr trace
				// 16 evaluations take TPE past its 10 uniform start-up trials.
				res, err := runMethod(t, name, testOptions(), q, 16, seed, tr.cb)
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				return res, tr.its
			}
			r1, t1 := run(11)
			r2, t2 := run(11)
			if !equalIterations(t1, t2) || !sameResult(r1, r2) {
				t.Errorf("two runs with seed 11 differ:\n%v\n%v", r1, r2)
			}
			r3, _ := run(12)
			if slices.Equal(r1.Theta, r3.Theta) {
				t.Errorf("seeds 11 and 12 release the same theta %v", r1.Theta)
			}
		})
	}
}

// equalIterations compares traces with NaN == NaN.
func equalIterations(a, b []algo.Iteration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Iter != y.Iter || x.Evals != y.Evals || x.Batch != y.Batch || x.BatchCapped != y.BatchCapped ||
			!(x.Trace == y.Trace || math.IsNaN(x.Trace) && math.IsNaN(y.Trace)) || !slices.Equal(x.Theta, y.Theta) {
			return false
		}
	}
	return true
}

func TestNaNLossIsAnError(t *testing.T) {
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 4)
			q.NaNUser = 2
			_, err := runMethod(t, name, testOptions(), q, 12, 1, nil)
			if err == nil {
				t.Fatal("a NaN loss gave no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, "user 2") || !strings.Contains(msg, "NaN") || !strings.Contains(msg, "theta") {
				t.Errorf("error %q does not name the user, the value and theta", msg)
			}
			if !strings.Contains(msg, name) && name != "dpgibo" && name != "gibo" {
				t.Errorf("error %q does not name the method", msg)
			}
		})
	}
}

func TestBadInputs(t *testing.T) {
	q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
	for _, name := range registry.Names() {
		m, err := registry.New(name, testOptions())
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if _, err := m.Run(context.Background(), q, 0, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
			t.Errorf("%s: budget 0 gave no error", name)
		}
	}
	for _, name := range []string{"dp-random", "dp-ucb", "dpgibo"} {
		opt := testOptions()
		opt.Mu, opt.Settings.Mu = 0, 0
		if _, err := registry.New(name, opt); err == nil {
			t.Errorf("%s: Mu = 0 gave no error", name)
		}
		opt.Mu = math.NaN()
		if _, err := registry.New(name, opt); err == nil {
			t.Errorf("%s: Mu = NaN gave no error", name)
		}
	}
	for _, name := range []string{"dp-random", "dp-ucb"} {
		m, _ := registry.New(name, testOptions())
		_, err := m.Run(context.Background(), testobj.NoBound{Q: q}, 5, rand.New(rand.NewPCG(1, 1)), nil)
		if err == nil || !strings.Contains(err.Error(), "LossBound") {
			t.Errorf("%s on an objective without a loss bound: error %v, want one naming LossBound", name, err)
		}
		opt := testOptions()
		opt.LossBound = -1
		m, _ = registry.New(name, opt)
		if _, err := m.Run(context.Background(), q, 5, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
			t.Errorf("%s: LossBound = -1 gave no error", name)
		}
	}
	opt := testOptions()
	opt.UCB.Delta = 2
	if _, err := registry.New("ucb", opt); err == nil {
		t.Error("ucb: UCB.Delta = 2 gave no error")
	}
}

func TestCallbackErrorStops(t *testing.T) {
	stop := errors.New("stop here")
	for _, name := range scoreBased {
		q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
		calls := 0
		_, err := runMethod(t, name, testOptions(), q, 10, 1, func(algo.Iteration) error {
			calls++
			if calls == 4 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Errorf("%s: error %v, want the callback's", name, err)
		}
		if q.Evals != 4 {
			t.Errorf("%s: %d evaluations after the callback stopped at the 4th", name, q.Evals)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range registry.Names() {
		m, _ := registry.New(name, testOptions())
		q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
		_, err := m.Run(ctx, q, 10, rand.New(rand.NewPCG(1, 1)), nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", name, err)
		}
		if q.Evals != 0 {
			t.Errorf("%s: %d evaluations with a cancelled context", name, q.Evals)
		}
	}
}

// selectionAccounting is the accounting of each private selection with a random number of
// trials.
var selectionAccounting = map[string]string{
	"dp-select-geometric": accounting.PureDP, "dp-select-negbin": accounting.RDP, "dp-select-poisson": accounting.RDP, "dp-hypo": accounting.RDP,
}

// selectionLimit is the cap on the number of trials of the selection name at the test
// options' mu for budget (its EvaluationCap).
func selectionLimit(t *testing.T, name string, budget int) int {
	t.Helper()
	m, err := registry.New(name, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.(baselines.EvaluationCapper)
	if !ok {
		t.Fatalf("%s (%T) is not a baselines.EvaluationCapper", name, m)
	}
	limit, err := c.EvaluationCap(nil, budget)
	if err != nil {
		t.Fatal(err)
	}
	return limit
}

func TestLedgers(t *testing.T) {
	const mu = 0.7
	wantEps, err := accounting.EpsilonForDelta(mu, accounting.DefaultDelta)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range registry.Names() {
		t.Run(name, func(t *testing.T) {
			opt := testOptions()
			opt.Mu = mu
			q := testobj.NewQuadratic([]float64{0, 0}, -1, 1, 3)
			res, err := runMethod(t, name, opt, q, 12, 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			l := res.Ledger
			proto, _ := registry.Lookup(name)
			info := proto.Info()
			auto := name == "dp-auto"
			if auto {
				// The one call's ledger is that of the method its rule chose at its target, the
				// (epsilon, 1e-5)-DP of mu.
				target := accounting.EpsDelta{Epsilon: wantEps, Delta: accounting.DefaultDelta}
				plan, err := private.Forecast(q, private.Config{EpsDelta: target, Evals: 12, Theta0: opt.Theta0, LossBound: opt.LossBound})
				if err != nil {
					t.Fatal(err)
				}
				name = plan.Choice.Method.String()
			}
			isPrivate := info.Private
			if l.Private != isPrivate {
				t.Fatalf("Ledger.Private = %v, want %v", l.Private, isPrivate)
			}
			if name == "dp-rnm" {
				// A pure-DP selection at the primary currency: mu's epsilon at delta 1e-5,
				// reached at delta 0, one release.
				wantMu, _ := accounting.PureToGDP(wantEps)
				if l.Epsilon != wantEps || l.Delta != 0 || l.Mu != wantMu || l.Releases != 1 {
					t.Errorf("dp-rnm ledger %+v, want epsilon %v at delta 0, mu %v, one release", l, wantEps, wantMu)
				}
				return
			}
			if kind, ok := selectionAccounting[name]; ok {
				// A capped selection at the primary currency: mu's epsilon at a delta of at
				// most 1e-5, no mu-GDP, one release.
				if l.Epsilon != wantEps || !(l.Delta > 0 && l.Delta <= accounting.DefaultDelta) || !math.IsNaN(l.Mu) || l.Releases != 1 ||
					len(l.Parts) != 1 || l.Parts[0].Accounting != kind {
					t.Errorf("%s ledger %+v, want epsilon %v at a delta in (0, 1e-5], mu NaN, one %s release", name, l, wantEps, kind)
				}
				return
			}
			if l.Delta != accounting.DefaultDelta {
				t.Errorf("Ledger.Delta = %v, want %v", l.Delta, accounting.DefaultDelta)
			}
			if !isPrivate {
				if !math.IsInf(l.Mu, 1) || !math.IsInf(l.Epsilon, 1) {
					t.Errorf("non-private ledger has Mu %v, Epsilon %v; want +Inf", l.Mu, l.Epsilon)
				}
				return
			}
			if name == "dpgibo" && res.Iters < opt.Settings.Iters {
				t.Fatalf("dpgibo stopped after %d of %d iterations; the ledger test needs a full run", res.Iters, opt.Settings.Iters)
			}
			if auto && name != "dp-rnm" {
				// private.Tune at the (epsilon, 1e-5)-DP of mu, the primary currency: the
				// target met exactly, DP-GIBO's part at the largest mu that meets it
				// (accounting.GDPWithin: mu to the resolution of EpsilonForDelta).
				if !(l.Epsilon <= wantEps) || l.Delta != accounting.DefaultDelta || math.Abs(l.Mu-mu) > 1e-9*mu {
					t.Errorf("dp-auto ledger Mu %v Epsilon %v Delta %v, want epsilon at most %v at delta %v and mu within 1e-9 of %v",
						l.Mu, l.Epsilon, l.Delta, wantEps, accounting.DefaultDelta, mu)
				}
				return
			}
			if l.Mu != mu || l.Epsilon != wantEps {
				t.Errorf("ledger Mu %v Epsilon %v, want %v and accounting.EpsilonForDelta = %v", l.Mu, l.Epsilon, mu, wantEps)
			}
			if name == "dpgibo-safe" || name == "dpgibo-hybrid" {
				// DP-GIBO's parts and the private choices', one release each, composing to
				// mu exactly.
				last := l.Parts[len(l.Parts)-1]
				if last.Name != "safe release" || last.Releases != 1 || last.Mu != mu*math.Sqrt(gibo.DefaultReleaseShare) {
					t.Errorf("%s: last ledger part %+v, want the safe release at mu sqrt(%v)", name, last, gibo.DefaultReleaseShare)
				}
				return
			}
			releases := 12
			if name == "dp-zo" {
				releases = 6 // one release per two evaluations
			}
			if name != "dpgibo" && (l.Releases != releases || l.StepMu != accounting.StepMu(mu, releases)) {
				t.Errorf("ledger Releases %d StepMu %v, want %d and %v", l.Releases, l.StepMu, releases, accounting.StepMu(mu, releases))
			}
		})
	}
}

// A coordinate the objective fixes (lo == hi, as algo accepts) is never searched: every
// method evaluates, reports and releases points of the full dimension with that coordinate
// at its value, the box rule being algo's (lo <= hi); a box with every coordinate fixed is
// an error for the methods that search it.
func TestFixedCoordinates(t *testing.T) {
	for _, name := range append(append([]string(nil), scoreBased...), "goptuna-cmaes") {
		q := testobj.NewQuadratic([]float64{0.5, 7, -0.5}, -2, 2, 12)
		lo, hi := q.Bounds()
		lo[1], hi[1] = 7, 7
		var reported [][]float64
		res, err := runMethod(t, name, testOptions(), q, 24, 3, func(it algo.Iteration) error {
			reported = append(reported, it.Theta)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range append(append(q.Points, reported...), res.Theta) {
			if len(p) != 3 || p[1] != 7 || !testobj.InBox(p, lo, hi) {
				t.Fatalf("%s: point %v, want 3 coordinates with the second at 7, inside the box", name, p)
			}
		}
		if q.Evals != 24 || len(reported) != 24 {
			t.Errorf("%s: %d evaluations and %d reports, want 24 of each", name, q.Evals, len(reported))
		}
		all := testobj.NewQuadratic([]float64{0.5}, 1, 1, 4)
		if _, err := runMethod(t, name, testOptions(), all, 5, 1, nil); err == nil || !strings.Contains(err.Error(), "every coordinate") {
			t.Errorf("%s on a box with every coordinate fixed: %v", name, err)
		}
	}
}
