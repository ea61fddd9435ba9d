package algo

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// linearUsers has losses L_i(theta) = slope_i * theta_1: user i's gradient is slope_i e_1.
type linearUsers struct {
	slopes []float64
	d      int
}

func (l linearUsers) Dim() int { return l.d }
func (l linearUsers) Bounds() (lo, hi []float64) {
	lo, hi = make([]float64, l.d), make([]float64, l.d)
	for j := range lo {
		lo[j], hi[j] = -1e6, 1e6
	}
	return lo, hi
}
func (l linearUsers) Users() int { return len(l.slopes) }
func (l linearUsers) Losses(theta, dst []float64) error {
	for i, a := range l.slopes {
		dst[i] = a * theta[0]
	}
	return nil
}

// The root-mean-square norm of the privacy noise drawn is s sqrt(d), s = 2 B sqrt(T)/(n mu).
func TestNoiseNormRMS(t *testing.T) {
	const d, n, iters, clip, mu = 4, 30, 50, 0.6, 0.8
	s := PrivacyNoiseStd(clip, iters, n, mu)
	var sq []float64
	for seed := uint64(0); seed < 40; seed++ {
		set := Settings{Mu: mu, Iters: iters, Clipping: FixedClip(clip), Step: 1, StepRule: GradientDescent, Batch: 1, NonPrivateDiagnostics: true}
		_, err := Minimize(context.Background(), zeroLosses{d, n}, make([]float64, d), set, rand.New(rand.NewPCG(seed, 9)), func(it Iteration) error {
			if it.Diagnostics == nil {
				t.Fatal("NonPrivateDiagnostics set but Iteration.Diagnostics is nil")
			}
			if it.NoiseStd != s || it.Clip != clip {
				t.Fatalf("iteration reports NoiseStd %v and Clip %v, want %v and %v", it.NoiseStd, it.Clip, s, clip)
			}
			sq = append(sq, it.Diagnostics.NoiseNorm*it.Diagnostics.NoiseNorm)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// |w|^2/s^2 is chi-square with d degrees of freedom: mean d, variance 2d. The mean of N
	// draws has relative standard error sqrt(2/(d N)) (0.011 for N = 2000, d = 4); allow 4.
	N := float64(len(sq))
	rms := math.Sqrt(stat.Mean(sq, nil))
	tol := 4 * math.Sqrt(2/(d*N))
	if got := rms * rms / (s * s * d); math.Abs(got-1) > tol {
		t.Fatalf("mean squared noise norm / (s^2 d) = %v over %v draws, want 1 +- %.3f (rms %v, s sqrt(d) %v)", got, N, tol, rms, s*math.Sqrt(d))
	}
}

// Diagnostics are read off the run: they change no released value and draw nothing.
func TestDiagnosticsChangeNothing(t *testing.T) {
	obj := newQuadUsers(rand.New(rand.NewPCG(21, 22)), 25, 3, 0.5)
	for _, adaptive := range []*AdaptiveClip{nil, {Rate: 1}} {
		run := func(diag bool) ([]Iteration, Result) {
			var its []Iteration
			var clipping ClipRule = FixedClip(0.3)
			if adaptive != nil {
				a := *adaptive
				a.Start = 0.3
				clipping = a
			}
			s := Settings{Mu: 1, Iters: 6, Clipping: clipping, NonPrivateDiagnostics: diag}
			res, err := Minimize(context.Background(), obj, []float64{1, -1, 0.5}, s, rand.New(rand.NewPCG(4, 4)), func(it Iteration) error {
				its = append(its, it)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			return its, res
		}
		a, ra := run(false)
		b, rb := run(true)
		for i := range a {
			if a[i].Diagnostics != nil || b[i].Diagnostics == nil {
				t.Fatalf("diagnostics present %v / %v, want only when asked", a[i].Diagnostics != nil, b[i].Diagnostics != nil)
			}
			if a[i].Clip != b[i].Clip || a[i].NoiseStd != b[i].NoiseStd || !(a[i].ClipCount == b[i].ClipCount || math.IsNaN(a[i].ClipCount) && math.IsNaN(b[i].ClipCount)) {
				t.Fatalf("iteration %d: public values differ with diagnostics on", i+1)
			}
			for j := range a[i].Theta {
				if a[i].Theta[j] != b[i].Theta[j] {
					t.Fatalf("adaptive %v, iteration %d: theta %v with diagnostics, %v without", adaptive != nil, i+1, b[i].Theta, a[i].Theta)
				}
			}
		}
		if !reflect.DeepEqual(ra.Ledger, rb.Ledger) || ra.Evals != rb.Evals {
			t.Fatalf("results differ: %+v vs %+v", ra, rb)
		}
	}
}

func TestDiagnosticsValues(t *testing.T) {
	// Every user has gradient 2 e_1: with B = 0.5 all are clipped and the clipped mean has
	// norm 0.5; with B = 10 none is and it has norm 2 (up to the surrogate's error, 0.3%
	// here). GIBO draws no noise.
	obj := linearUsers{slopes: []float64{2, 2, 2, 2, 2}, d: 2}
	for _, c := range []struct{ clip, norm, frac float64 }{{0.5, 0.5, 1}, {10, 2, 0}} {
		s := Settings{Mu: math.Inf(1), Iters: 3, Clipping: FixedClip(c.clip), Kernel: RBF{Lengthscale: 1, Variance: 1}, Step: 0.3, NonPrivateDiagnostics: true, NoiseStd: 1e-4}
		_, err := Minimize(context.Background(), obj, []float64{0, 0}, s, rand.New(rand.NewPCG(1, 1)), func(it Iteration) error {
			g := it.Diagnostics
			if math.Abs(g.ClippedMeanNorm-c.norm) > 1e-2*c.norm || g.ClippedFrac != c.frac || g.NoiseNorm != 0 || it.NoiseStd != 0 {
				t.Fatalf("B = %v: diagnostics %+v, noise std %v; want clipped-mean norm %v, clipped share %v, no noise", c.clip, *g, it.NoiseStd, c.norm, c.frac)
			}
			if !math.IsNaN(it.ClipCount) {
				t.Fatalf("fixed Clip released a count %v", it.ClipCount)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if snr := (NonPrivateDiagnostics{ClippedMeanNorm: 2}).SNR(0.5, 4); snr != 2 {
		t.Fatalf("SNR = %v, want 2/(0.5*2) = 2", snr)
	}
}

// Replacing one user changes the count of users under the clipping norm by at most one.
func TestClipCountSensitivity(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, clip = 30, 3, 1.0
	grads := make([]float64, n*d)
	for i := range grads {
		grads[i] = 0.6 * rng.NormFloat64()
	}
	dst := make([]float64, d)
	base := clipAndAverage(dst, grads, n, d, clip)
	moved := 0
	for trial := 0; trial < 300; trial++ {
		other := append([]float64(nil), grads...)
		u := trial % n
		for j := 0; j < d; j++ {
			other[u*d+j] = 2 * rng.NormFloat64()
		}
		c := clipAndAverage(dst, other, n, d, clip)
		if c-base > 1 || base-c > 1 {
			t.Fatalf("replacing user %d changed the clipped count from %d to %d", u, base, c)
		}
		if c != base {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no replacement changed the count: the test did not probe the bound")
	}
}

// Adaptive clipping: the count noise has std sqrt(T)/mu_c, the gradient noise follows
// 2 B_t sqrt(T)/(n mu_g), B_t follows the geometric update of the released counts, and the
// ledger records both parts of mu.
func TestAdaptiveClipNoiseScalesAndLedger(t *testing.T) {
	const d, n, iters, mu, b0 = 2, 40, 30, 1.5, 0.7
	a := AdaptiveClip{Quantile: 0.3, Rate: 0.5, CountShare: 0.2}
	muG, muC := splitMu(mu, &a)
	if math.Abs(muG*muG+muC*muC-mu*mu) > 1e-12 || math.Abs(muC-mu*math.Sqrt(0.2)) > 1e-15 || a.CountMu(mu) != muC {
		t.Fatalf("splitMu(%v) = %v, %v; CountMu %v", mu, muG, muC, a.CountMu(mu))
	}
	// The count part is the same with ClipCalibration too (the calibration's part comes out
	// of the gradients'), and the zero CountShare is the default 0.1.
	cal := a
	cal.Calibration = &ClipCalibration{Share: 0.05}
	lowered, err := Settings{Mu: mu, Clipping: cal}.lowerClipping()
	if err != nil {
		t.Fatal(err)
	}
	if _, c, _ := lowered.muParts(); c != a.CountMu(mu) {
		t.Errorf("with calibration the counts get %v, CountMu says %v", c, a.CountMu(mu))
	}
	if got, want := (AdaptiveClip{}).CountMu(mu), mu*math.Sqrt(0.1); got != want {
		t.Errorf("the zero AdaptiveClip's CountMu(%v) = %v, want %v", mu, got, want)
	}
	countStd := math.Sqrt(iters) / muC
	var devs []float64
	for seed := uint64(0); seed < 30; seed++ {
		started := a
		started.Start = b0
		s := Settings{Mu: mu, Iters: iters, Clipping: started, Step: 1, StepRule: GradientDescent, Batch: 1}
		clip, used := b0, 0.0
		res, err := Minimize(context.Background(), zeroLosses{d, n}, make([]float64, d), s, rand.New(rand.NewPCG(seed, 3)), func(it Iteration) error {
			used = it.Clip
			if it.Clip != clip {
				t.Fatalf("iteration %d used B = %v, want %v from the update of released counts", it.Iter, it.Clip, clip)
			}
			if want := 2 * clip * math.Sqrt(iters) / (n * muG); math.Abs(it.NoiseStd-want) > 1e-15*want {
				t.Fatalf("iteration %d: gradient noise std %v, want 2 B_t sqrt(T)/(n mu_g) = %v", it.Iter, it.NoiseStd, want)
			}
			// Every gradient is zero, so all n users are under B_t: the count's noise is
			// ClipCount - n.
			devs = append(devs, it.ClipCount-n)
			clip *= math.Exp(-a.Rate * (it.ClipCount/n - a.Quantile))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Clip != used {
			t.Fatalf("Result.Clip %v, the last iteration used %v", res.Clip, used)
		}
		l := res.Ledger
		// A gradient and a count per iteration: 2 T releases composed.
		if !l.Private || math.Abs(l.Mu-mu) > 1e-12 || l.GradientMu != muG || l.CountMu != muC || l.Releases != 2*iters {
			t.Fatalf("ledger %+v, want Mu %v = compose(%v, %v) over %d iterations, %d releases", l, mu, muG, muC, iters, 2*iters)
		}
	}
	mean, sd := stat.MeanStdDev(devs, nil)
	N := float64(len(devs))
	// Relative standard error of a sample sd is about 1/sqrt(2N) (0.026 for N = 900).
	if math.Abs(sd/countStd-1) > 4/math.Sqrt(2*N) || math.Abs(mean) > 4*countStd/math.Sqrt(N) {
		t.Fatalf("count noise mean %v sd %v over %v draws, want 0 and sqrt(T)/mu_c = %v", mean, sd, N, countStd)
	}
}

// Without noise, B_t converges to the target quantile of the users' gradient norms.
func TestAdaptiveClipTracksQuantile(t *testing.T) {
	slopes := make([]float64, 101)
	for i := range slopes {
		slopes[i] = 0.05 * math.Pow(100, float64(i)/100) // 0.05 .. 5, median 0.5
	}
	for _, q := range []float64{0.25, 0.5, 0.75} {
		s := Settings{Mu: math.Inf(1), Iters: 60, Clipping: AdaptiveClip{Quantile: q, Rate: 1, Start: 3}, Kernel: RBF{Lengthscale: 1, Variance: 1}, Step: 1e-6, NoiseStd: 1e-4}
		var last float64
		_, err := Minimize(context.Background(), linearUsers{slopes: slopes, d: 1}, []float64{0}, s, rand.New(rand.NewPCG(1, 1)), func(it Iteration) error {
			last = it.Clip
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := stat.Quantile(q, stat.Empirical, slopes, nil)
		if math.Abs(math.Log(last/want)) > 0.1 {
			t.Fatalf("quantile %v: B_T = %v, want about %v", q, last, want)
		}
	}
}

func TestStandardiseIsScaleFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	obj := newQuadUsers(rng, 20, 2, 0.5)
	scaled := *obj
	scaled.scale = 7
	path := func(o Objective, standardise bool) [][]float64 {
		var out [][]float64
		s := Settings{Mu: math.Inf(1), Iters: 5, Clipping: FixedClip(1e6), Step: 0.1, StepRule: GradientDescent, Standardise: standardise, NoiseStd: 1e-3}
		_, err := Minimize(context.Background(), o, []float64{1, -1}, s, rand.New(rand.NewPCG(2, 2)), func(it Iteration) error {
			out = append(out, it.Theta)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	maxDiff := func(a, b [][]float64) float64 {
		m := 0.0
		for i := range a {
			m = math.Max(m, dist(a[i], b[i]))
		}
		return m
	}
	// The gradient is linear in the observations and the design ignores them, so the
	// standardised paths agree up to rounding, which the design's L-BFGS amplifies to about
	// 1e-6 over five iterations.
	if diff := maxDiff(path(obj, true), path(&scaled, true)); diff > 1e-4 {
		t.Fatalf("standardised paths of L and 7L differ by %v", diff)
	}
	if diff := maxDiff(path(obj, false), path(&scaled, false)); diff < 1e-2 {
		t.Fatalf("without standardisation the paths of L and 7L agree to %v: the test cannot tell", diff)
	}
	// Constant users contribute nothing.
	flat := linearUsers{slopes: []float64{0, 0, 0}, d: 1}
	s := Settings{Mu: math.Inf(1), Iters: 2, Standardise: true, NonPrivateDiagnostics: true}
	_, err := Minimize(context.Background(), flat, []float64{0.5}, s, rand.New(rand.NewPCG(1, 1)), func(it Iteration) error {
		if it.Diagnostics.ClippedMeanNorm != 0 || it.Theta[0] != 0.5 {
			t.Fatalf("constant users moved theta: %+v", it)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Minimize(context.Background(), flat, []float64{0.5}, Settings{Mu: 1, Standardise: true, PriorMean: PriorZero}, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
		t.Fatal("Standardise with PriorZero accepted")
	}
	if _, err := Minimize(context.Background(), flat, []float64{0.5}, Settings{Mu: 1, Clipping: AdaptiveClip{CountShare: 1}}, rand.New(rand.NewPCG(1, 1)), nil); err == nil {
		t.Fatal("AdaptiveClip.CountShare = 1 accepted")
	}
}

func TestNoiseFloorClip(t *testing.T) {
	k := RBF{Lengthscale: 1, Variance: 1}
	for _, c := range []struct {
		k     RBF
		sigma float64
		want  float64
	}{
		{k, 0.05, 0.1},
		{k, 0.01, 0.02},
		{RBF{Lengthscale: 2, Variance: 1}, 0.05, 0.05},
		// sigma = 0 takes the surrogate's floor sqrt(1e-6) = 1e-3.
		{k, 0, 2e-3},
	} {
		if got := NoiseFloorClip(c.k, c.sigma); got != c.want {
			t.Errorf("NoiseFloorClip(%+v, %v) = %v, want %v", c.k, c.sigma, got, c.want)
		}
	}
	// The premise: the surrogate gradient of pure-noise observations on a design within l
	// of theta has an rms norm of the order of NoiseFloorClip (within a factor 2.5).
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{2, 10} {
		const sigma, runs = 0.05, 200
		m := 3 * (d + 1)
		ss := 0.0
		for r := 0; r < runs; r++ {
			D := mat.NewDense(m, d, nil)
			Y := mat.NewDense(1, m, nil)
			for i := 0; i < m; i++ {
				for j := 0; j < d; j++ {
					D.Set(i, j, 2*rng.Float64()-1)
				}
				Y.Set(0, i, sigma*rng.NormFloat64())
			}
			g := GradientMean(k, sigma*sigma, D, Y, make([]float64, d)).RawRowView(0)
			for _, v := range g {
				ss += v * v
			}
		}
		rms, b := math.Sqrt(ss/runs), NoiseFloorClip(k, sigma)
		if rms < b/2.5 || rms > 2.5*b {
			t.Errorf("d = %d: rms surrogate gradient of noise %v, NoiseFloorClip %v: not the same order", d, rms, b)
		}
	}
}
