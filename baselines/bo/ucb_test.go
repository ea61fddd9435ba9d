package bo

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"dpgibo/baselines"
	"dpgibo/baselines/internal/testobj"
	"dpgibo/baselines/score"
)

// TestLogLikGradient checks the analytic gradient of the log marginal likelihood against
// central finite differences in the log-hyperparameters, at random data and hyperparameters.
func TestLogLikGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 5; trial++ {
		m, d := 6+trial*3, 1+trial%3
		X := mat.NewDense(m, d, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < d; j++ {
				X.Set(i, j, rng.Float64())
			}
		}
		y := make([]float64, m)
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		h := gpHyper{Lengthscale: 0.1 + rng.Float64(), SignalVar: 0.3 + 2*rng.Float64(), NoiseVar: 1e-3 + 0.2*rng.Float64()}
		w := newMarginal(X, y)
		grad := make([]float64, 3)
		if _, err := w.logLik(h, grad); err != nil {
			t.Fatal(err)
		}
		p := h.logParams()
		const step = 1e-5
		for k := 0; k < 3; k++ {
			plus, minus := p, p
			plus[k] += step
			minus[k] -= step
			fp, err1 := w.logLik(hyperFromLog(plus), nil)
			fm, err2 := w.logLik(hyperFromLog(minus), nil)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			fd := (fp - fm) / (2 * step)
			if diff := math.Abs(fd - grad[k]); diff > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("trial %d (m=%d, d=%d, %+v): d/dlog-param %d analytic %.10g, finite difference %.10g", trial, m, d, h, k, grad[k], fd)
			}
		}
	}
}

// ucbStateFor builds a fitted GP-UCB state on m uniform points of the d-dimensional unit cube
// with scores from a smooth function.
func ucbStateFor(t testing.TB, d, m int, noiseFloor float64, seed uint64) *ucbState {
	rng := rand.New(rand.NewPCG(seed, 9))
	cfg, _ := UCBConfig{}.resolved()
	s := newUCBState(d, cfg, noiseFloor)
	for i := 0; i < m; i++ {
		u := make([]float64, d)
		score := 0.0
		for j := range u {
			u[j] = rng.Float64()
			score += math.Sin(3*u[j]) + (u[j]-0.3)*(u[j]-0.3)
		}
		s.add(u, u, score)
	}
	if err := s.update(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAcquisitionGradient checks the gradient of the lower confidence bound against central
// finite differences.
func TestAcquisitionGradient(t *testing.T) {
	for _, d := range []int{1, 3} {
		s := ucbStateFor(t, d, 12, 0, uint64(d))
		acq := newAcquisition(s)
		rng := rand.New(rand.NewPCG(8, 8))
		for trial := 0; trial < 5; trial++ {
			u := make([]float64, d)
			for j := range u {
				u[j] = 0.05 + 0.9*rng.Float64()
			}
			grad := make([]float64, d)
			if _, err := acq.at(u, grad); err != nil {
				t.Fatal(err)
			}
			const step = 1e-6
			for j := range u {
				up, um := append([]float64(nil), u...), append([]float64(nil), u...)
				up[j] += step
				um[j] -= step
				fp, _ := acq.at(up, nil)
				fm, _ := acq.at(um, nil)
				fd := (fp - fm) / (2 * step)
				if diff := math.Abs(fd - grad[j]); diff > 1e-5*(1+math.Abs(fd)) {
					t.Errorf("d=%d u=%v coordinate %d: analytic %.10g, finite difference %.10g", d, u, j, grad[j], fd)
				}
			}
		}
	}
}

// TestAcquisitionBatchMatchesPointwise: the batched evaluation used to rank raw samples
// equals the pointwise one used by L-BFGS.
func TestAcquisitionBatchMatchesPointwise(t *testing.T) {
	s := ucbStateFor(t, 3, 20, 0.01, 6)
	acq := newAcquisition(s)
	rng := rand.New(rand.NewPCG(1, 2))
	U := mat.NewDense(17, 3, nil)
	for r := 0; r < 17; r++ {
		for j := 0; j < 3; j++ {
			U.Set(r, j, rng.Float64())
		}
	}
	U.SetRow(16, s.units[4]) // an observed point, where the variance is smallest
	got := acq.batch(U)
	for r := range got {
		want, err := acq.at(U.RawRowView(r), nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got[r]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("row %d: batch %v, pointwise %v", r, got[r], want)
		}
	}
}

func TestHyperReparameterisationStaysInBounds(t *testing.T) {
	b := ucbHyperBox(0.5)
	for _, z := range []float64{-800, -40, -1, 0, 1, 40, 800} {
		p := b.fromZ([]float64{z, z, z}, nil)
		for k := range p {
			if p[k] < b.Lo[k] || p[k] > b.Hi[k] || math.IsNaN(p[k]) {
				t.Errorf("z=%v: log-param %d = %v outside [%v, %v]", z, k, p[k], b.Lo[k], b.Hi[k])
			}
		}
	}
	if math.Abs(math.Exp(b.Lo[2])-0.5) > 1e-12 {
		t.Errorf("noise floor 0.5 gave lower noise bound %v", math.Exp(b.Lo[2]))
	}
	// A floor above ucbMaxNoiseVar fixes the noise variance at the floor.
	b = ucbHyperBox(3)
	if b.Lo[2] != b.Hi[2] || math.Abs(math.Exp(b.Lo[2])-3) > 1e-12 {
		t.Errorf("noise floor 3 gave noise bounds [%v, %v], want [3, 3]", math.Exp(b.Lo[2]), math.Exp(b.Hi[2]))
	}
	// toZ inverts fromZ inside the box.
	b = ucbHyperBox(0)
	p := [3]float64{math.Log(0.3), math.Log(2), math.Log(1e-3)}
	q := b.fromZ(b.toZ(p), nil)
	for k := range p {
		if math.Abs(p[k]-q[k]) > 1e-9 {
			t.Errorf("fromZ(toZ(p)) = %v, want %v", q, p)
		}
	}
}

// TestUCBBeatsRandomOnQuadratic: on f(theta) = |theta - c|^2 over [-2, 2]^2 (range [0, 11.6])
// with c = (0.5, -0.3), GP-UCB (and ucb-scaled) with 30 evaluations must release a point within 0.01 of the
// minimum f* = 0 for each of 10 seeds, and its mean final loss over those seeds must be
// below random search's with the same budget and seeds.
func TestUCBBeatsRandomOnQuadratic(t *testing.T) {
	const budget, seeds, tol = 30, 10, 0.01
	final := map[string][]float64{}
	for _, m := range []baselines.Method{UCB{}, UCBScaled{}, score.Random{}} {
		name := m.Info().Name
		for seed := uint64(1); seed <= seeds; seed++ {
			q := testobj.NewQuadratic([]float64{0.5, -0.3}, -2, 2, 5)
			res, err := m.Run(context.Background(), q, budget, rand.New(rand.NewPCG(seed, 100)), nil)
			if err != nil {
				t.Fatal(err)
			}
			final[name] = append(final[name], q.F(res.Theta))
		}
	}
	meanOf := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x
		}
		return s / float64(len(v))
	}
	t.Logf("final f over %d seeds: ucb %v (mean %.3g), random %v (mean %.3g)", seeds, final["ucb"], meanOf(final["ucb"]), final["random"], meanOf(final["random"]))
	for _, name := range []string{"ucb", "ucb-scaled"} {
		for i, v := range final[name] {
			if v > tol {
				t.Errorf("seed %d: %s released f = %.4g, want <= %v", i+1, name, v, tol)
			}
		}
		if meanOf(final[name]) >= meanOf(final["random"]) {
			t.Errorf("%s mean final loss %.4g not below random search's %.4g", name, meanOf(final[name]), meanOf(final["random"]))
		}
	}
}

func TestBetaSchedule(t *testing.T) {
	// beta_t = 2 log(d t^2 pi^2 / (6 delta)), increasing in t and d.
	if got, want := beta(2, 3, 0.1), 2*math.Log(2*9*math.Pi*math.Pi/0.6); math.Abs(got-want) > 1e-12 {
		t.Errorf("beta(2, 3, 0.1) = %v, want %v", got, want)
	}
	if !(beta(2, 4, 0.1) > beta(2, 3, 0.1) && beta(3, 3, 0.1) > beta(2, 3, 0.1)) {
		t.Error("beta is not increasing in t and d")
	}
}

// BenchmarkUCBStep is one GP-UCB iteration at d = 10 (fig2a's and fig-private's largest GP
// regression d) with 100 observations and with 250 (near the end of their budget of 275):
// the model update with a hyperparameter refit by L-BFGS on the marginal likelihood (refit,
// which the default runs at every update and RefitGrowth 0.2 at about 17 of fig2a's 265 at
// d = 10) and
// without (update: the factorisation at the kept hyperparameters), and the choice of the
// next point (256 raw acquisition values, then L-BFGS from 5 starts), apart. dp-ucb is the
// same loop with a noise floor.
func BenchmarkUCBStep(b *testing.B) {
	for _, c := range []struct {
		name       string
		m          int
		noiseFloor float64
	}{{"ucb/obs=100", 100, 0}, {"ucb/obs=250", 250, 0}, {"dp-ucb/obs=250", 250, 0.01}} {
		s := ucbStateFor(b, 10, c.m, c.noiseFloor, 1)
		b.Run(c.name+"/refit", func(b *testing.B) {
			for b.Loop() {
				if err := s.update(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/update", func(b *testing.B) {
			s.cfg.RefitGrowth = 1e9 // keep the fitted hyperparameters
			defer func() { s.cfg.RefitGrowth = 0 }()
			for b.Loop() {
				if err := s.update(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/next-point", func(b *testing.B) {
			rng := rand.New(rand.NewPCG(2, 2))
			for b.Loop() {
				if _, err := s.nextPoint(rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAcquisitionMemoKeepsTheBits: the value and gradient at a point are the same bits
// whether the point's moments were just computed for the value (as L-BFGS asks) or are
// computed afresh, and moving to another point recomputes them.
func TestAcquisitionMemoKeepsTheBits(t *testing.T) {
	s := ucbStateFor(t, 3, 30, 0, 4)
	rng := rand.New(rand.NewPCG(6, 6))
	for range 20 {
		u := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		fresh := newAcquisition(s)
		wantGrad := make([]float64, 3)
		want, err := fresh.at(u, wantGrad)
		if err != nil {
			t.Fatal(err)
		}
		memo := newAcquisition(s)
		if _, err := memo.at([]float64{0.5, 0.5, 0.5}, nil); err != nil {
			t.Fatal(err)
		}
		v, err := memo.at(u, nil)
		if err != nil {
			t.Fatal(err)
		}
		grad := make([]float64, 3)
		g, err := memo.at(u, grad)
		if err != nil {
			t.Fatal(err)
		}
		if v != want || g != want || !slices.Equal(grad, wantGrad) {
			t.Fatalf("at %v: value %v then %v with the memo, %v fresh; gradient %v, fresh %v", u, v, g, want, grad, wantGrad)
		}
	}
}

// TestRefitSchedule: by default the hyperparameters are refitted at every update, with a
// start from the bounds' mid-point every tenth update; with RefitGrowth at the first update
// and whenever the observations have grown by the factor since the last fit, with the
// mid-point start at the first fit and again once ten updates have passed.
func TestRefitSchedule(t *testing.T) {
	for _, c := range []struct {
		cfg            UCBConfig
		wantFit, wantM []int
	}{
		{UCBConfig{RefitGrowth: 0.2}, []int{2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22, 27, 33, 40, 48, 58},
			[]int{2, 12, 22, 33, 48, 58}},
		{UCBConfig{RefitGrowth: 1}, []int{2, 4, 8, 16, 32}, []int{2, 16, 32}},
		{UCBConfig{}, nil, []int{2, 12, 22, 32, 42, 52}},
	} {
		cfg, err := c.cfg.resolved()
		if err != nil {
			t.Fatal(err)
		}
		s := newUCBState(1, cfg, 0)
		var fits, mids []int
		for m := 2; m <= 60; m++ {
			if s.refitDue(m) {
				fits = append(fits, m)
				// What update does after a fit: mark it, and the mid-point start when due.
				if !s.fitted || s.updates-s.midAt >= 10 {
					s.midAt = s.updates
					mids = append(mids, m)
				}
				s.fitted, s.fitN = true, m
			}
			s.updates++
		}
		if c.wantFit == nil {
			for m := 2; m <= 60; m++ {
				c.wantFit = append(c.wantFit, m)
			}
		}
		if !slices.Equal(fits, c.wantFit) || !slices.Equal(mids, c.wantM) {
			t.Errorf("%+v: refits at %v, want %v; mid-point starts at %v, want %v", c.cfg, fits, c.wantFit, mids, c.wantM)
		}
	}
	if _, err := (UCBConfig{RefitGrowth: -0.1}).resolved(); err == nil {
		t.Error("a negative RefitGrowth was accepted")
	}
}

// TestFactorSolveMatchesCholesky: the acquisition's solve on the Cholesky factor gives
// K^{-1} x as mat.Cholesky's solve does, to rounding.
func TestFactorSolveMatchesCholesky(t *testing.T) {
	s := ucbStateFor(t, 4, 60, 0.01, 3)
	rng := rand.New(rand.NewPCG(9, 9))
	x := make([]float64, 60)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	var want mat.VecDense
	if err := s.lik.chol.SolveVecTo(&want, mat.NewVecDense(60, x)); err != nil {
		t.Fatal(err)
	}
	got := mat.NewVecDense(60, append([]float64(nil), x...))
	s.lik.solveInPlace(got.RawVector())
	for i := range x {
		if math.Abs(got.AtVec(i)-want.AtVec(i)) > 1e-9*(1+math.Abs(want.AtVec(i))) {
			t.Fatalf("entry %d: factor solve %v, Cholesky solve %v", i, got.AtVec(i), want.AtVec(i))
		}
	}
}

// TestDPUCBNoiseFloor: the surrogate's noise variance, in original units, is at least the
// release variance s^2 after the marginal-likelihood fit, for small and large s.
func TestDPUCBNoiseFloor(t *testing.T) {
	for _, s2 := range []float64{1e-4, 0.05, 10} {
		s := ucbStateFor(t, 2, 15, s2, 3)
		if got := s.hyp.NoiseVar * s.sdY * s.sdY; got < s2*(1-1e-9) {
			t.Errorf("release variance %v: surrogate noise variance %v (original units) is below it", s2, got)
		}
	}
}
