package algo

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"dpgibo/accounting"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// quadUsers has per-user losses L_i(theta) = 0.5 |theta - c_i|^2 (scaled), minimised on
// average at the mean of the c_i.
type quadUsers struct {
	centers [][]float64
	lo, hi  []float64
	scale   float64
}

func newQuadUsers(rng *rand.Rand, n, d int, spread float64) *quadUsers {
	q := &quadUsers{lo: make([]float64, d), hi: make([]float64, d), scale: 1}
	for j := 0; j < d; j++ {
		q.lo[j], q.hi[j] = -3, 3
	}
	for i := 0; i < n; i++ {
		c := make([]float64, d)
		for j := range c {
			c[j] = 0.5 + spread*rng.NormFloat64()
		}
		q.centers = append(q.centers, c)
	}
	return q
}

func (q *quadUsers) Dim() int                   { return len(q.lo) }
func (q *quadUsers) Bounds() (lo, hi []float64) { return q.lo, q.hi }
func (q *quadUsers) Users() int                 { return len(q.centers) }
func (q *quadUsers) Losses(theta, dst []float64) error {
	for i, c := range q.centers {
		s := 0.0
		for j, v := range theta {
			s += (v - c[j]) * (v - c[j])
		}
		dst[i] = 0.5 * q.scale * s
	}
	return nil
}
func (q *quadUsers) minimizer() []float64 {
	m := make([]float64, q.Dim())
	for _, c := range q.centers {
		for j := range m {
			m[j] += c[j] / float64(len(q.centers))
		}
	}
	return m
}

func dist(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += (a[j] - b[j]) * (a[j] - b[j])
	}
	return math.Sqrt(s)
}

func TestGIBOConvergesOnQuadratics(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	obj := newQuadUsers(rng, 40, 3, 0.3)
	s := Settings{Mu: math.Inf(1), Iters: 30, Clipping: FixedClip(100), Step: 0.5, StepRule: GradientDescent, NoiseStd: 1e-3}
	res, err := Minimize(context.Background(), obj, []float64{-2, 2, -1}, s, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := dist(res.Theta, obj.minimizer()); e > 0.05 {
		t.Fatalf("GIBO ended %v from the minimiser (tolerance 0.05); theta %v", e, res.Theta)
	}
	if res.Ledger.Private || res.Evals != 30*4 || res.Iters != 30 {
		t.Fatalf("unexpected result bookkeeping %+v", res)
	}
}

func TestDPGIBOErrorGrowsAsMuFalls(t *testing.T) {
	if testing.Short() {
		t.Skip("several runs")
	}
	obj := newQuadUsers(rand.New(rand.NewPCG(13, 14)), 30, 2, 0.3)
	meanErr := func(mu float64) float64 {
		sum := 0.0
		const seeds = 8
		for seed := uint64(0); seed < seeds; seed++ {
			s := Settings{Mu: mu, Iters: 15, Clipping: FixedClip(2), Step: 0.5, StepRule: GradientDescent, NoiseStd: 1e-3}
			res, err := Minimize(context.Background(), obj, []float64{-2, 2}, s, rand.New(rand.NewPCG(seed, 99)), nil)
			if err != nil {
				t.Fatal(err)
			}
			sum += dist(res.Theta, obj.minimizer())
		}
		return sum / seeds
	}
	eInf, e1, e01 := meanErr(math.Inf(1)), meanErr(1), meanErr(0.1)
	t.Logf("mean final error: mu=Inf %.4f, mu=1 %.4f, mu=0.1 %.4f", eInf, e1, e01)
	if !(eInf < e1 && e1 < e01) {
		t.Fatalf("error should grow as Mu falls: Inf %v, 1 %v, 0.1 %v", eInf, e1, e01)
	}
}

func TestClipBoundsAndSensitivity(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n, d, clip = 20, 4, 0.7
	grads := make([]float64, n*d)
	for i := range grads {
		grads[i] = 3 * rng.NormFloat64()
	}
	// Each clipped row has norm <= Clip: average a single row at a time.
	for i := 0; i < n; i++ {
		one := make([]float64, d)
		clipAndAverage(one, grads[i*d:(i+1)*d], 1, d, clip)
		if nrm := math.Sqrt(mat.Dot(mat.NewVecDense(d, one), mat.NewVecDense(d, one))); nrm > clip*(1+1e-12) {
			t.Fatalf("clipped gradient of user %d has norm %v > Clip %v", i, nrm, clip)
		}
	}
	agg := make([]float64, d)
	clipAndAverage(agg, grads, n, d, clip)
	worst := 0.0
	for trial := 0; trial < 200; trial++ {
		other := append([]float64(nil), grads...)
		u := trial % n
		for j := 0; j < d; j++ {
			other[u*d+j] = 50 * rng.NormFloat64()
		}
		agg2 := make([]float64, d)
		clipAndAverage(agg2, other, n, d, clip)
		worst = math.Max(worst, dist(agg, agg2))
	}
	if worst > 2*clip/n*(1+1e-12) {
		t.Fatalf("replacing one user moved the aggregate by %v > 2*Clip/n = %v", worst, 2*clip/n)
	}
	if worst < 0.5*clip/n {
		t.Fatalf("replacement moved the aggregate by only %v: the test did not probe the bound", worst)
	}
}

// zeroLosses is an objective whose losses are all zero: the clipped gradient is zero, so
// each step of gradient descent is exactly -Step times the privacy noise.
type zeroLosses struct{ d, n int }

func (z zeroLosses) Dim() int { return z.d }
func (z zeroLosses) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, z.d), make([]float64, z.d)
	for j := range lo {
		lo[j], hi[j] = -1e6, 1e6
	}
	return lo, hi
}
func (z zeroLosses) Users() int { return z.n }
func (z zeroLosses) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = 0
	}
	return nil
}

func TestPrivacyNoiseStdMatchesFormula(t *testing.T) {
	const d, n, iters, clip, mu, step = 3, 25, 40, 0.8, 0.9, 1.0
	want := 2 * clip * math.Sqrt(iters) / (n * mu)
	if got := PrivacyNoiseStd(clip, iters, n, mu); math.Abs(got-want) > 1e-15 {
		t.Fatalf("PrivacyNoiseStd = %v, want 2*Clip*sqrt(T)/(n*Mu) = %v", got, want)
	}
	var samples []float64
	for seed := uint64(0); seed < 20; seed++ {
		prev := make([]float64, d)
		s := Settings{Mu: mu, Iters: iters, Clipping: FixedClip(clip), Step: step, StepRule: GradientDescent, Batch: 1}
		_, err := Minimize(context.Background(), zeroLosses{d, n}, prev, s, rand.New(rand.NewPCG(seed, 5)), func(it Iteration) error {
			for j, v := range it.Theta {
				samples = append(samples, -(v-prev[j])/step)
			}
			copy(prev, it.Theta)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	mean, sd := stat.MeanStdDev(samples, nil)
	N := float64(len(samples))
	// The sample sd has relative standard error about 1/sqrt(2N); allow 5 of them.
	if math.Abs(sd/want-1) > 5/math.Sqrt(2*N) {
		t.Fatalf("noise sd %v over %d draws, want %v (tolerance %.3f relative)", sd, len(samples), want, 5/math.Sqrt(2*N))
	}
	if math.Abs(mean) > 5*want/math.Sqrt(N) {
		t.Fatalf("noise mean %v, want 0", mean)
	}
}

func TestAccountant(t *testing.T) {
	eps, err := accounting.EpsilonForDelta(1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(eps-4.3772) > 5e-5 {
		t.Fatalf("mu=1, delta=1e-5: epsilon %.6f, want 4.3772", eps)
	}
	if d := accounting.GDPDelta(1, eps); math.Abs(d-1e-5) > 1e-12 {
		t.Fatalf("round trip delta %v", d)
	}
	if got := accounting.ComposeGDP(0.3, 0.4); math.Abs(got-0.5) > 1e-15 {
		t.Fatalf("ComposeGDP(0.3, 0.4) = %v", got)
	}
	if got := accounting.StepMu(2, 16); got != 0.5 {
		t.Fatalf("StepMu(2, 16) = %v", got)
	}
	l := accounting.NewLedger(0.5, 10)
	e2, _ := accounting.EpsilonForDelta(0.5, accounting.DefaultDelta)
	if !l.Private || l.Epsilon != e2 || math.Abs(l.StepMu-0.5/math.Sqrt(10)) > 1e-15 {
		t.Fatalf("ledger %+v", l)
	}
	// delta(eps) decreases in eps and increases in mu.
	if !(accounting.GDPDelta(1, 1) > accounting.GDPDelta(1, 2) && accounting.GDPDelta(2, 1) > accounting.GDPDelta(1, 1)) {
		t.Fatal("delta(eps) not monotone")
	}
}

func TestSameSeedSameOutputAndBudget(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(17, 18)), 15, 3, 0.5)
	s := Settings{Mu: 1, Iters: 6, MaxEvals: 17}
	run := func() ([]Iteration, Result) {
		var its []Iteration
		res, err := Minimize(context.Background(), obj, []float64{1, 1, 1}, s, rand.New(rand.NewPCG(3, 3)), func(it Iteration) error {
			its = append(its, it)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return its, res
	}
	a, ra := run()
	b, rb := run()
	if len(a) != len(b) {
		t.Fatal("different iteration counts")
	}
	for i := range a {
		for j := range a[i].Theta {
			if a[i].Theta[j] != b[i].Theta[j] {
				t.Fatalf("iteration %d differs: %v vs %v", i, a[i].Theta, b[i].Theta)
			}
		}
	}
	if ra.Evals > 17 || ra.Evals != 16 || ra.Iters != 4 {
		t.Fatalf("budget 17 with batches of 4: evals %d iters %d", ra.Evals, ra.Iters)
	}
	// The default calibration spent 5% of mu^2 before the first iteration; 4 of the 6
	// gradient releases ran.
	if rb.Ledger.Mu >= 1 || math.Abs(rb.Ledger.Mu-math.Sqrt(0.95*4.0/6+0.05)) > 1e-12 {
		t.Fatalf("early stop ledger %+v", rb.Ledger)
	}
}

func TestAdaptiveBatchReachesBiasTol(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(19, 20)), 10, 4, 0.5)
	s := Settings{Mu: math.Inf(1), Iters: 3, BiasTol: 0.5, NoiseStd: 0.05}
	var its []Iteration
	_, err := Minimize(context.Background(), obj, []float64{0, 0, 0, 0}, s, rand.New(rand.NewPCG(1, 2)), func(it Iteration) error {
		its = append(its, it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range its {
		if !it.BatchCapped && it.Trace > 0.5 {
			t.Fatalf("iteration %d: alpha %v above BiasTol without hitting the cap", it.Iter, it.Trace)
		}
		if it.Batch < 1 || it.Batch > 4*5 {
			t.Fatalf("iteration %d: batch %d out of range", it.Iter, it.Batch)
		}
	}
	// A looser tolerance never needs more points.
	s2 := s
	s2.BiasTol = 2.0
	var its2 []Iteration
	_, _ = Minimize(context.Background(), obj, []float64{0, 0, 0, 0}, s2, rand.New(rand.NewPCG(1, 2)), func(it Iteration) error {
		its2 = append(its2, it)
		return nil
	})
	if its2[0].Batch > its[0].Batch {
		t.Fatalf("BiasTol 2 used %d points in the first iteration, BiasTol 0.5 used %d", its2[0].Batch, its[0].Batch)
	}
}

type nanLosses struct{ zeroLosses }

func (nanLosses) Losses(theta, dst []float64) error {
	for i := range dst {
		dst[i] = 0
	}
	dst[len(dst)-1] = math.NaN()
	return nil
}

func TestBadInputs(t *testing.T) {
	ctx := context.Background()
	obj := zeroLosses{2, 3}
	rng := rand.New(rand.NewPCG(1, 1))
	if _, err := Minimize(ctx, obj, []float64{0, 0}, Settings{}, rng, nil); err == nil {
		t.Error("Mu = 0 accepted")
	}
	if _, err := Minimize(ctx, obj, []float64{0}, Settings{Mu: 1}, rng, nil); err == nil {
		t.Error("short theta0 accepted")
	}
	if _, err := Minimize(ctx, obj, []float64{0, 2e6}, Settings{Mu: 1}, rng, nil); err == nil {
		t.Error("theta0 outside the box accepted")
	}
	if _, err := Minimize(ctx, obj, []float64{0, 0}, Settings{Mu: 1, Clipping: FixedClip(-1)}, rng, nil); err == nil {
		t.Error("negative Clip accepted")
	}
	if _, err := Minimize(ctx, nanLosses{obj}, []float64{0, 0}, Settings{Mu: 1}, rng, nil); err == nil {
		t.Error("NaN loss accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Minimize(cctx, obj, []float64{0, 0}, Settings{Mu: 1}, rng, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: got %v", err)
	}
}

func TestIncrementalStateMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	k := RBF{Lengthscale: 0.9, Variance: 1}
	const d = 3
	all := randMat(rng, 14, d, 0.6)
	theta := []float64{0.1, 0.2, 0.3}
	inc := newGradState(k, 0.01, d)
	inc.setTheta(theta)
	for _, cut := range [][2]int{{0, 5}, {5, 6}, {6, 14}} {
		if err := inc.grow(rowsOf(all.RawMatrix().Data[cut[0]*d:], cut[1]-cut[0], d)); err != nil {
			t.Fatal(err)
		}
	}
	fresh := newGradState(k, 0.01, d)
	if err := fresh.reset(all.RawMatrix()); err != nil {
		t.Fatal(err)
	}
	fresh.setTheta(theta)
	if math.Abs(inc.base-fresh.base) > 1e-10 {
		t.Fatalf("base %v vs %v", inc.base, fresh.base)
	}
	W := gradientWeights(k, 0.01, all, theta)
	for i := 0; i < 14; i++ {
		for j := 0; j < d; j++ {
			if math.Abs(inc.p[i*d+j]-W.At(i, j)) > 1e-9 || math.Abs(fresh.p[i*d+j]-W.At(i, j)) > 1e-9 {
				t.Fatalf("P[%d,%d]: incremental %v, fresh %v, direct %v", i, j, inc.p[i*d+j], fresh.p[i*d+j], W.At(i, j))
			}
		}
	}
}

func TestMaxKeptAndMidRunCancel(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(23, 24)), 12, 2, 0.3)
	s := Settings{Mu: math.Inf(1), Iters: 10, MaxKept: 6, Step: 0.5, StepRule: GradientDescent, Clipping: FixedClip(100), NoiseStd: 1e-3}
	r, err := newRun(obj, []float64{-2, 2}, s, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.run(context.Background(), func(it Iteration) error {
		if r.st.m > 6+3 {
			t.Fatalf("iteration %d keeps %d points with MaxKept 6 and batches of 3", it.Iter, r.st.m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if e := dist(res.Theta, obj.minimizer()); e > 0.1 {
		t.Fatalf("with MaxKept 6, GIBO ended %v from the minimiser", e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, err = Minimize(ctx, obj, []float64{-2, 2}, s, rand.New(rand.NewPCG(1, 1)), func(it Iteration) error {
		if it.Iter == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || res.Iters != 2 || res.Evals != 6 {
		t.Fatalf("cancel after iteration 2: err %v, iters %d, evals %d", err, res.Iters, res.Evals)
	}
}
