package selection_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"dpgibo/accounting"
	"dpgibo/algo"
	"dpgibo/baselines"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/registry"
	"dpgibo/baselines/selection"
)

// swapPair is the audit's pair for report noisy min over two candidates: every user's loss
// is 0 but user 0's, which is Lmax at the first evaluated point and 0 at the second in X,
// the reverse in X'. The candidates' clipped means then differ by Delta = Lmax/n, in
// opposite directions in X and X' (a shift of 2 Delta between the two).
type swapPair struct {
	users int
	prime bool
	calls int
}

func (s *swapPair) Dim() int                   { return 1 }
func (s *swapPair) Bounds() (lo, hi []float64) { return []float64{0}, []float64{1} }
func (s *swapPair) Users() int                 { return s.users }
func (s *swapPair) LossBound() float64         { return 1 }
func (s *swapPair) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = 0
	}
	first := s.calls == 0
	s.calls++
	if first != s.prime {
		dst[0] = 1
	}
	return nil
}

// laplaceDiffTail is P(L1 - L2 > t) for independent Laplace(b) L1, L2 and t >= 0.
func laplaceDiffTail(t, b float64) float64 { return 0.5 * math.Exp(-t/b) * (1 + t/(2*b)) }

// On the swap pair the first candidate (score Delta in X) wins when its noise beats the
// second's by Delta: with noise scale 2 Delta/eps that happens with probability
// laplaceDiffTail(Delta, 2 Delta/eps). The frequency over many runs pins the scale (half
// the noise would move it by more than 8 standard errors).
func TestDPRNMNoiseScaleOnTheSwapPair(t *testing.T) {
	const users, runs = 10, 6000
	mu := 1.0
	eps, err := accounting.PureWithinGDP(mu)
	if err != nil {
		t.Fatal(err)
	}
	delta := 1.0 / users
	b := selection.RNMNoiseScale(1, users, eps)
	if math.Abs(b-2*delta/eps) > 1e-15 {
		t.Fatalf("noise scale %v, want 2 Delta/eps = %v", b, 2*delta/eps)
	}
	m := selection.RNM{Mu: mu, Currency: selection.CurrencyGDP}
	rng := rand.New(rand.NewPCG(1, 2))
	first := 0
	for r := 0; r < runs; r++ {
		obj := &swapPair{users: users}
		var firstTheta float64
		rec := &recordFirst{Objective: obj, first: &firstTheta}
		res, err := m.Run(context.Background(), rec, 2, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Theta[0] == firstTheta {
			first++
		}
	}
	want := laplaceDiffTail(delta, b)
	se := math.Sqrt(want * (1 - want) / runs)
	if got := float64(first) / runs; math.Abs(got-want) > 4*se {
		t.Fatalf("first candidate released in %.4f of runs, want %.4f (se %.4f)", got, want, se)
	}
	if half := laplaceDiffTail(delta, b/2); math.Abs(half-want) < 8*se {
		t.Fatalf("the test cannot tell half the noise: %v against %v", half, want)
	}
}

// recordFirst records the first theta evaluated.
type recordFirst struct {
	algo.Objective
	first *float64
	seen  bool
}

func (r *recordFirst) Losses(theta, dst []float64) error {
	if !r.seen {
		*r.first, r.seen = theta[0], true
	}
	return r.Objective.Losses(theta, dst)
}

func (r *recordFirst) LossBound() float64 { return 1 }

// dp-rnm's epsilon follows the currency, its ledger is that epsilon's, it reports once,
// after its budget, and a seed gives one release.
func TestDPRNMLedgerReportAndSeed(t *testing.T) {
	obj := testobj.NewQuadratic([]float64{0.2, -0.1, 0.3}, -1, 1, 20)
	for _, c := range []selection.Currency{selection.CurrencyEpsDelta, selection.CurrencyGDP} {
		m := selection.RNM{Mu: 1, Currency: c, LossBound: 2}
		reports := 0
		run := func(cb algo.Callback) baselines.Result {
			res, err := m.Run(context.Background(), obj, 12, rand.New(rand.NewPCG(4, 4)), cb)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		res := run(func(it algo.Iteration) error {
			reports++
			if it.Evals != 12 {
				t.Errorf("a report after %d evaluations, want only one after 12", it.Evals)
			}
			return nil
		})
		want, _ := selection.PureEpsilon(1, c)
		if reports != 1 || res.Evals != 12 || res.Ledger.Epsilon != want || res.Ledger.Delta != 0 || res.Ledger.Parts[0].Accounting != accounting.PureDP {
			t.Fatalf("currency %v: %d reports, result %+v", c, reports, res)
		}
		again := run(nil)
		if again.Theta[0] != res.Theta[0] {
			t.Fatalf("same seed, releases %v and %v", res.Theta, again.Theta)
		}
	}
	if eps, _ := selection.PureEpsilon(1, selection.CurrencyEpsDelta); math.Abs(eps-4.377) > 1e-3 {
		t.Fatalf("primary epsilon at mu 1: %v, want 4.377", eps)
	}
}

// Without privacy dp-rnm releases the candidate of smallest clipped mean.
func TestDPRNMWithoutNoise(t *testing.T) {
	obj := testobj.NewQuadratic([]float64{0.2, -0.1}, -1, 1, 5)
	m := selection.RNM{Mu: math.Inf(1), Currency: selection.CurrencyEpsDelta, LossBound: 100}
	best, bestScore := []float64(nil), math.Inf(1)
	rec := &scoreAll{obj: obj, bound: 100, best: &best, bestScore: &bestScore}
	res, err := m.Run(context.Background(), rec, 30, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Theta[0] != best[0] || res.Theta[1] != best[1] || res.Ledger.Private {
		t.Fatalf("released %v (private %v), smallest clipped mean at %v", res.Theta, res.Ledger.Private, best)
	}
}

// scoreAll tracks the point of smallest clipped mean among those evaluated.
type scoreAll struct {
	obj       algo.Objective
	bound     float64
	best      *[]float64
	bestScore *float64
}

func (s *scoreAll) Dim() int                   { return s.obj.Dim() }
func (s *scoreAll) Bounds() (lo, hi []float64) { return s.obj.Bounds() }
func (s *scoreAll) Users() int                 { return s.obj.Users() }
func (s *scoreAll) Losses(theta, dst []float64) error {
	if err := s.obj.Losses(theta, dst); err != nil {
		return err
	}
	if c := baselines.ClippedMean(dst, s.bound); c < *s.bestScore {
		*s.best, *s.bestScore = append([]float64(nil), theta...), c
	}
	return nil
}

func TestDPRNMBadSettings(t *testing.T) {
	for _, c := range []struct {
		mu       float64
		currency selection.Currency
		want     string
	}{{0, selection.CurrencyEpsDelta, "mu must be positive"}, {math.NaN(), selection.CurrencyGDP, "mu must be positive"}, {1, selection.Currency(9), "unknown currency"}} {
		if _, err := registry.New("dp-rnm", registry.Options{Mu: c.mu, Currency: c.currency}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("mu %v, currency %v: error %v, want one naming %s", c.mu, c.currency, err, c.want)
		}
	}
}
