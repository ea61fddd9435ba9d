package registry_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
)

// planner is a selection with a random number of trials: its plan for a budget.
type planner interface {
	Plan(budget int) (selection.SelectionPlan, error)
}

// selectionPlan returns the plan of the selection name at mu, for budget, with the
// declared settings at the primary currency.
func selectionPlan(t *testing.T, name string, mu float64, budget int) selection.SelectionPlan {
	t.Helper()
	m, err := registry.New(name, registry.Options{Mu: mu})
	if err != nil {
		t.Fatalf("no plan for %q: %v", name, err)
	}
	p, ok := m.(planner)
	if !ok {
		t.Fatalf("no plan for %q: %T has no Plan method", name, m)
	}
	plan, err := p.Plan(budget)
	if err != nil {
		t.Fatalf("no plan for %q: %v", name, err)
	}
	return plan
}

// constantObjective has every user's loss at value everywhere in [0, 1]^d.
func constantObjective(d, users int, value, bound float64) *tableObjective {
	lo, hi := unitBox(d, 0, 1)
	return &tableObjective{d: d, lo: lo, hi: hi, users: users, bound: bound, loss: func(int, []float64) float64 { return value }}
}

// The plans at the primary currency: mu's epsilon at delta 1e-5 (the conversion's share and
// the cap's tail within it), the declared trial distributions with mean the budget, and the
// noise multipliers of the theorems: 3/eps for the Laplace trials of dp-select-geometric,
// the smallest Gaussian noise multiplier meeting eps for the others (accounting's tests pin
// those against an independent computation).
func TestSelectionPlans(t *testing.T) {
	const budget = 60
	for _, mu := range []float64{0.5, 1} {
		eps, _ := accounting.EpsilonForDelta(mu, accounting.DefaultDelta)
		for name, kind := range selectionAccounting {
			plan := selectionPlan(t, name, mu, budget)
			if plan.Epsilon != eps || !(plan.Delta > 0 && plan.Delta <= accounting.DefaultDelta*(1+1e-12)) || plan.Accounting != kind {
				t.Errorf("%s mu %v: (%v, %v) %s, want (%v, <= 1e-5) %s", name, mu, plan.Epsilon, plan.Delta, plan.Accounting, eps, kind)
			}
			if m := plan.Trials.Mean(); m > budget || m < budget*(1-1e-9) {
				t.Errorf("%s: E[K] = %v, want the budget %d", name, m, budget)
			}
			if tail := plan.Trials.Tail(plan.Limit) * (1 + math.Exp(eps)); tail > selection.DefaultTailShare*accounting.DefaultDelta {
				t.Errorf("%s: the cap %d leaves %v of delta, over its share", name, plan.Limit, tail)
			}
			wantEta := map[string]float64{"dp-select-geometric": 1, "dp-select-negbin": selection.DefaultNegBinShape, "dp-hypo": selection.DefaultHyPOShape, "dp-select-poisson": math.Inf(1)}[name]
			if plan.Trials.Eta != wantEta {
				t.Errorf("%s: trial distribution of shape %v, want %v", name, plan.Trials.Eta, wantEta)
			}
			if name == "dp-select-geometric" {
				if plan.NoiseMultiplier != 3/eps {
					t.Errorf("dp-select-geometric: Laplace scale %v Delta, want 3/eps = %v", plan.NoiseMultiplier, 3/eps)
				}
				continue
			}
			ratio := 1.0
			if name == "dp-hypo" {
				ratio = selection.DefaultDensityUpper / selection.DefaultDensityLower
			}
			epsAt := func(z float64) float64 {
				curve, err := accounting.SelectionRDP(accounting.GaussianTrial(z), plan.Trials, ratio)
				if err != nil {
					t.Fatal(err)
				}
				e, _, err := accounting.RDPToEpsDelta(curve, (1-selection.DefaultTailShare)*accounting.DefaultDelta)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}
			if z := plan.NoiseMultiplier; !(epsAt(z) <= eps && epsAt(z*(1-1e-6)) > eps) {
				t.Errorf("%s mu %v: noise multiplier %v is not the smallest meeting eps %v", name, mu, z, eps)
			}
		}
	}
}

// At the secondary currency dp-select-geometric runs uncapped at the largest eps that is
// mu-GDP, and its ledger is pure with that mu; the Renyi-DP selections refuse it with one
// line naming the currency to use.
func TestSelectionsAtTheSecondaryCurrency(t *testing.T) {
	plan, err := selection.GeometricPlan(1, selection.CurrencyGDP, 60, 0)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := accounting.PureWithinGDP(1)
	if plan.Epsilon != eps || plan.Delta != 0 || plan.Limit != 0 || plan.NoiseMultiplier != 3/eps {
		t.Errorf("geometric at CurrencyGDP: %+v, want eps %v, delta 0, uncapped, scale 3/eps", plan, eps)
	}
	opt := registry.Options{Mu: 1, Currency: selection.CurrencyGDP}
	m, err := registry.New("dp-select-geometric", opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Run(context.Background(), testobj.NewQuadratic([]float64{0.2, 0.1}, -1, 1, 5), 20, rand.New(rand.NewPCG(3, 3)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Ledger; l.Delta != 0 || l.Epsilon != eps || math.Abs(l.Mu-1) > 1e-9 || l.Parts[0].Accounting != accounting.PureDP {
		t.Errorf("geometric ledger at CurrencyGDP %+v, want pure eps %v, mu 1", l, eps)
	}
	for _, name := range []string{"dp-select-negbin", "dp-select-poisson", "dp-hypo"} {
		_, err := registry.New(name, opt)
		if err == nil || !strings.Contains(err.Error(), "CurrencyEpsDelta") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s at CurrencyGDP: error %v, want one line naming CurrencyEpsDelta", name, err)
		}
	}
}

// Budget matching: the number of trials has mean the budget. Over 2000 runs the mean of
// Result.NonPrivateTrials (K, counted by the objective) is within four standard errors of
// E[K], and every run releases the budget, not K: one report after the last trial, with
// the budget as its iteration and evaluations, and the budget as the result's Evals and
// Iters.
func TestSelectionTrialsHaveTheBudgetAsMean(t *testing.T) {
	const budget, runs = 8, 2000
	for _, name := range []string{"dp-select-geometric", "dp-select-negbin", "dp-select-poisson"} {
		plan := selectionPlan(t, name, 1, budget)
		m, err := registry.New(name, registry.Options{Mu: 1})
		if err != nil {
			t.Fatal(err)
		}
		var ks []float64
		for seed := range runs {
			obj := countingObjective{tableObjective: constantObjective(2, 3, 0.5, 1)}
			var reports []algo.Iteration
			res, err := m.Run(context.Background(), &obj, budget, rand.New(rand.NewPCG(uint64(seed), 9)), func(it algo.Iteration) error {
				reports = append(reports, it)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if k := res.NonPrivateTrials; k != obj.evals || k > plan.Limit {
				t.Fatalf("%s: NonPrivateTrials %d, %d evaluations counted (cap %d)", name, k, obj.evals, plan.Limit)
			}
			if res.Evals != budget || res.Iters != budget || len(reports) != 1 || reports[0].Evals != budget || reports[0].Iter != budget {
				t.Fatalf("%s: released Evals %d, Iters %d, reports %+v; want the budget %d once", name, res.Evals, res.Iters, reports, budget)
			}
			ks = append(ks, float64(res.NonPrivateTrials))
		}
		mean, sd := meanSD(ks)
		if se := sd / math.Sqrt(runs); math.Abs(mean-plan.Trials.Mean()) > 4*se {
			t.Errorf("%s: mean number of trials %v (se %v), want E[K] = %v", name, mean, se, plan.Trials.Mean())
		}
	}
}

// meanSD returns the mean and the sample standard deviation of xs.
func meanSD(xs []float64) (float64, float64) {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// Sensitivity and noise scale: every user's loss is 0.7 with Lmax = 2 (clipped mean 0.7,
// sensitivity Delta = 2/n), so each released score minus 0.7 is the trial's noise. Its
// standard deviation is z Delta for the Gaussian trials and sqrt(2) b, b = Delta 3/eps, for
// the Laplace trials of dp-select-geometric, within 5% over 4000 scores.
func TestSelectionNoiseScale(t *testing.T) {
	const users, bound, value = 10, 2.0, 0.7
	delta := bound / users
	for name := range selectionAccounting {
		plan := selectionPlan(t, name, 1, 40)
		want := plan.NoiseMultiplier * delta
		if name == "dp-select-geometric" {
			want *= math.Sqrt2
		}
		var noise []float64
		// A small GP for dp-hypo: its trials' noise does not depend on the density.
		opt := registry.Options{Mu: 1, OnScore: func(_ []float64, s float64) { noise = append(noise, s-value) }, Select: selection.SelectConfig{Candidates: 8, Window: 3}}
		m, err := registry.New(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		for seed := 0; len(noise) < 4000; seed++ {
			if _, err := m.Run(context.Background(), constantObjective(2, users, value, bound), 40, rand.New(rand.NewPCG(uint64(seed), 5)), nil); err != nil {
				t.Fatal(err)
			}
		}
		if mean, sd := meanSD(noise); math.Abs(sd/want-1) > 0.05 || math.Abs(mean) > 4*want/math.Sqrt(float64(len(noise))) {
			t.Errorf("%s: noise mean %v sd %v, want 0 and %v", name, mean, sd, want)
		}
	}
}

// The released theta is the candidate of smallest noisy score: with the noise removed
// (mu = +Inf), the best evaluated candidate.
func TestSelectionReleasesTheBest(t *testing.T) {
	for name := range selectionAccounting {
		var best []float64
		bestScore := math.Inf(1)
		opt := registry.Options{Mu: math.Inf(1), OnScore: func(theta []float64, s float64) {
			if s < bestScore {
				best, bestScore = theta, s
			}
		}}
		m, err := registry.New(name, opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run(context.Background(), testobj.NewQuadratic([]float64{0.3, -0.2}, -1, 1, 4), 30, rand.New(rand.NewPCG(7, 7)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Theta, best) || res.Ledger.Private {
			t.Errorf("%s at mu = +Inf: released %v, best scored %v; private %v", name, res.Theta, best, res.Ledger.Private)
		}
	}
}

// countingObjective counts the evaluations of the objective it wraps.
type countingObjective struct {
	*tableObjective
	evals int
}

func (o *countingObjective) Losses(theta, dst []float64) error {
	o.evals++
	return o.tableObjective.Losses(theta, dst)
}

// Bad settings are refused with one line naming the field.
func TestSelectConfigRefusesBadSettings(t *testing.T) {
	for field, cfg := range map[string]selection.SelectConfig{
		"NegBinShape":  {NegBinShape: -1},
		"HyPOShape":    {HyPOShape: math.Inf(1)},
		"DensityLower": {DensityLower: 1.5},
		"DensityUpper": {DensityUpper: 0.9},
		"UCBWeight":    {UCBWeight: math.NaN()},
		"Temperature":  {Temperature: -2},
		"Candidates":   {Candidates: 1},
		"Window":       {Window: 1},
		"TailShare":    {TailShare: 1},
	} {
		for name := range selectionAccounting {
			_, err := registry.New(name, registry.Options{Mu: 1, Select: cfg})
			if err == nil || !strings.Contains(err.Error(), field) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s with %s bad: error %v", name, field, err)
			}
		}
	}
	for _, mu := range []float64{0, -1, math.NaN()} {
		for name := range selectionAccounting {
			if _, err := registry.New(name, registry.Options{Mu: mu}); err == nil || !strings.Contains(err.Error(), "mu must be positive") {
				t.Errorf("%s with mu %v: error %v", name, mu, err)
			}
		}
	}
}

// docs/library.md's table of noise multipliers is what the plans give, to the digits it
// prints.
func TestLibraryNoiseTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/library.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		for _, name := range []string{"dp-select-geometric", "dp-select-negbin", "dp-select-poisson", "dp-hypo"} {
			if strings.HasPrefix(line, "| `"+name+"`") && strings.Count(line, "|") == 6 {
				rows[name] = line
			}
		}
	}
	for name := range selectionAccounting {
		line, ok := rows[name]
		if !ok {
			t.Fatalf("docs/library.md has no noise row for %s", name)
		}
		cells := strings.Split(line, "|")[2:6]
		i := 0
		for _, mu := range []float64{0.5, 1} {
			for _, budget := range []int{60, 1040} {
				z := selectionPlan(t, name, mu, budget).NoiseMultiplier
				if got, want := strings.TrimSpace(cells[i]), strconv.FormatFloat(z, 'g', 3, 64); got != want {
					t.Errorf("%s at mu %v, budget %d: docs say %s, the plan %s", name, mu, budget, got, want)
				}
				i++
			}
		}
	}
}
