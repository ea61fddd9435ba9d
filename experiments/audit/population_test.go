package audit

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
	"dpgibo/internal/records"
)

// The quadrature reproduces the population epsilons of an independent computation
// (scipy's adaptive quadrature over the same closed forms, run once outside the project):
// the split-neighbour test of the three selections at the declared noise, half and a third
// of it, and dp-rnm's test with 10 candidates at epsilon 0.807 (mu 1).
func TestPopulationAgainstIndependentQuadrature(t *testing.T) {
	sels, ok := pinnedSelections(DefaultConfig())
	if !ok {
		t.Fatal("the default config has no pinned selections")
	}
	for name, want := range map[string][3]float64{
		dpSelectGeometric: {0.594818, 1.158303, 1.665679},
		dpSelectNegBin:    {0.309817, 0.619897, 0.930185},
		dpSelectPoisson:   {0.352212, 0.708175, 1.071505},
	} {
		for i, div := range []float64{1, 2, 3} {
			if got := splitPopulation(sels[name], div); math.Abs(got-want[i]) > 2e-6 {
				t.Errorf("%s noise / %v: population epsilon %.7f, independent %.6f", name, div, got, want[i])
			}
		}
	}
	for i, want := range []float64{0.802529, 1.584844, 2.32392} {
		if got := rnmPopulation(10, 0.8069653463049624, float64(i+1)); math.Abs(got-want) > 2e-6 {
			t.Errorf("dp-rnm, 10 candidates, noise / %d: %.7f, independent %.6f", i+1, got, want)
		}
	}
	if _, ok := pinnedSelections(config{SelectionMu: 1, SelectionBudget: 20}); ok {
		t.Error("pinned selections offered at mu 1, where nothing is pinned")
	}
}

// The number of trials the selections draw follows the pinned distribution, cap included:
// a chi-square goodness-of-fit test (seed fixed, 20,000 runs of the real loop with the
// plan the code computes, bins of expected count >= 5 with the tails merged) does not
// reject it at 0.001, no run passes the cap, and the same draws reject the distribution of
// mean 24 (the test has power).
func TestTrialsFollowTheirDistribution(t *testing.T) {
	cfg, err := DefaultConfig().withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	pinned, _ := pinnedSelections(cfg)
	wrong := map[string][]float64{
		dpSelectGeometric: capPMF(negBinPMF(1, 1.0/24, 400), 311),
		dpSelectNegBin:    capPMF(negBinPMF(2, 0.0773503, 400), 196), // mean 24
		dpSelectPoisson:   capPMF(poissonPMF(24, 400), 47),
	}
	const runs = 20000
	for name, sel := range pinned {
		m, err := registry.New(name, registry.Options{Mu: cfg.SelectionMu})
		if err != nil {
			t.Fatal(err)
		}
		plan, err := m.(interface {
			Plan(int) (selection.SelectionPlan, error)
		}).Plan(cfg.SelectionBudget)
		if err != nil {
			t.Fatal(err)
		}
		counts := make([]float64, len(sel.pmf))
		x, _, _ := newConstantNeighbours(1, cfg.Users, cfg.LossBound)
		rng := rand.New(rand.NewPCG(42, 7))
		for range runs {
			res, err := selection.Selection{Name: name, Plan: plan, LossBound: cfg.LossBound}.Run(context.Background(), x, rng, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.NonPrivateTrials >= len(counts) {
				t.Fatalf("%s drew K = %d, past its cap %d", name, res.NonPrivateTrials, len(counts)-1)
			}
			counts[res.NonPrivateTrials]++
		}
		if p := chiSquareP(counts, sel.pmf); p < 1e-3 {
			t.Errorf("%s: K does not follow its pinned distribution (chi-square p = %.2g)", name, p)
		}
		if p := chiSquareP(counts, wrong[name]); p > 1e-3 {
			t.Errorf("%s: the draws do not reject mean 24 (p = %.2g)", name, p)
		}
	}
}

// chiSquareP is the chi-square goodness-of-fit p-value of counts against pmf: consecutive
// values are merged into bins of expected count at least 5 (the last bin takes what is
// left), df = bins - 1.
func chiSquareP(counts, pmf []float64) float64 {
	total := 0.0
	for _, c := range counts {
		total += c
	}
	var observed, expected []float64
	o, e := 0.0, 0.0
	for k := range pmf {
		o, e = o+counts[k], e+total*pmf[k]
		if e >= 5 {
			observed, expected = append(observed, o), append(expected, e)
			o, e = 0, 0
		}
	}
	if len(expected) > 0 {
		observed[len(observed)-1] += o
		expected[len(expected)-1] += e
	}
	stat := 0.0
	for i := range observed {
		stat += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i]
	}
	return distuv.ChiSquared{K: float64(len(observed) - 1)}.Survival(stat)
}

// Holm's adjustment: sorted p-values times the number of hypotheses left, made monotone;
// a real row is marked `violation` where the adjusted value is below alpha, and rows without
// a p-value (controls, rows without a population) are left alone.
func TestHolm(t *testing.T) {
	rows := []row{
		{Mechanism: "a", PValue: records.Some(0.04), Verdict: pass},
		{Mechanism: "b", PValue: records.Some(0.01), Verdict: pass},
		{Mechanism: "control:c", Verdict: violation},
		{Mechanism: "d", PValue: records.Some(0.03), Verdict: pass},
	}
	holm(rows, 0.05)
	want := map[string][2]any{"a": {0.06, pass}, "b": {0.03, violation}, "d": {0.06, pass}}
	for _, r := range rows {
		w, ok := want[r.Mechanism]
		if !ok {
			if r.HolmP.Valid || r.Verdict != violation {
				t.Errorf("%s changed: %+v", r.Mechanism, r)
			}
			continue
		}
		if math.Abs(r.HolmP.Value-w[0].(float64)) > 1e-12 || r.Verdict != w[1] {
			t.Errorf("%s: Holm p %v, verdict %s; want %v, %s", r.Mechanism, r.HolmP.Value, r.Verdict, w[0], w[1])
		}
	}
}

// The p-value against a population value agrees with the lower bound: below alpha exactly
// when the lower bound at confidence 1 - alpha exceeds the population value.
func TestPopulationPValueMatchesTheLowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, xp := make([]float64, 4000), make([]float64, 4000)
	for i := range x {
		x[i], xp[i] = rng.NormFloat64(), 1+rng.NormFloat64()
	}
	est, err := EstimateMu(x, xp, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for _, pop := range []float64{0.5, 0.8, est.MuLB - 0.01, est.MuLB + 0.01, 1, 1.2} {
		p := populationPValue(est, mechanism{Population: pop})
		if (p < 0.05) != (est.MuLB > pop) {
			t.Errorf("population %v: p = %v, mu_lb %v", pop, p, est.MuLB)
		}
	}
}
