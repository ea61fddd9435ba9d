package bo

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The prior's parameters: log l_j ~ N(sqrt(2) + log(d)/2, 3) (half of log d, not log d),
// whose mode is exp(sqrt(2) - 3) sqrt(d); log s^2 ~ N(-4, 1).
func TestScaledPriorParameters(t *testing.T) {
	for _, d := range []int{1, 4, 100} {
		if got, want := ardLengthscaleLogMean(d), math.Sqrt2+0.5*math.Log(float64(d)); math.Abs(got-want) > 1e-15 {
			t.Errorf("d = %d: prior mean of log l %v, want %v", d, got, want)
		}
		if got, want := ardLengthscaleMode(d), math.Exp(math.Sqrt2-3)*math.Sqrt(float64(d)); math.Abs(got/want-1) > 1e-14 {
			t.Errorf("d = %d: prior mode of l %v, want %v", d, got, want)
		}
	}
	if ardLengthscaleLogVar != 3 || ardMinLengthscale != 0.025 || ardNoiseLogMean != -4 || ardNoiseLogVar != 1 || ardMinNoiseVar != 1e-4 {
		t.Errorf("prior constants moved")
	}
}

// ardData draws m points of the unit cube in dimension d and a standardised response that
// varies along the first coordinate only.
func ardData(d, m int, seed uint64) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for i := range m {
		for j := range d {
			X.Set(i, j, rng.Float64())
		}
		y[i] = math.Sin(6*X.At(i, 0)) + 0.05*rng.NormFloat64()
	}
	mean, sd := 0.0, 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(m)
	for _, v := range y {
		sd += (v - mean) * (v - mean)
	}
	sd = math.Sqrt(sd / float64(m))
	for i := range y {
		y[i] = (y[i] - mean) / sd
	}
	return X, y
}

// The log posterior's gradient agrees with central finite differences.
func TestARDPosteriorGradient(t *testing.T) {
	X, y := ardData(3, 15, 2)
	w := newARDPosterior(X, y)
	p := []float64{math.Log(0.3), math.Log(1.2), math.Log(0.7), math.Log(0.02)}
	grad := make([]float64, 4)
	if _, err := w.logPost(p, grad); err != nil {
		t.Fatal(err)
	}
	const h = 1e-6
	for k := range p {
		up, down := append([]float64(nil), p...), append([]float64(nil), p...)
		up[k] += h
		down[k] -= h
		fu, _ := w.logPost(up, nil)
		fd, _ := w.logPost(down, nil)
		if num := (fu - fd) / (2 * h); math.Abs(num-grad[k]) > 1e-5*(1+math.Abs(num)) {
			t.Errorf("coordinate %d: analytic %v, finite difference %v", k, grad[k], num)
		}
	}
}

// MAP finds the one relevant dimension: its length-scale well below every other's, which
// the prior keeps near its sqrt(d)-scaled mode or above.
func TestARDFitFindsTheRelevantDimension(t *testing.T) {
	const d = 5
	X, y := ardData(d, 40, 3)
	f, err := fitARD(newARDPosterior(X, y), 0, []ardFit{ardPriorMode(d, 0)}, 300)
	if err != nil {
		t.Fatal(err)
	}
	for j := 1; j < d; j++ {
		if !(f.Lengthscales[0] < f.Lengthscales[j]/3) {
			t.Errorf("length-scales %v: the relevant dimension's is not the smallest by far", f.Lengthscales)
		}
	}
	if f.NoiseVar < ardMinNoiseVar || f.Lengthscales[0] < ardMinLengthscale {
		t.Errorf("fit %+v leaves its bounds", f)
	}
}

// Through the ARD scaling, the acquisition's gradient and its batched values are those of
// the isotropic machinery on scaled inputs: the gradient agrees with finite differences in
// the unit cube, and the batch with the pointwise values.
func TestScaledAcquisition(t *testing.T) {
	cfg, _ := UCBConfig{}.resolved()
	cfg.ard = true
	s := newUCBState(3, cfg, 0)
	X, y := ardData(3, 14, 4)
	for i := range 14 {
		s.add(X.RawRowView(i), X.RawRowView(i), y[i])
	}
	if err := s.update(); err != nil {
		t.Fatal(err)
	}
	if s.scale == nil {
		t.Fatal("no ARD scale after an update")
	}
	acq := newAcquisition(s)
	u := []float64{0.2, 0.7, 0.4}
	grad := make([]float64, 3)
	if _, err := acq.at(u, grad); err != nil {
		t.Fatal(err)
	}
	const h = 1e-6
	for j := range u {
		up, down := append([]float64(nil), u...), append([]float64(nil), u...)
		up[j] += h
		down[j] -= h
		fu, _ := acq.at(up, nil)
		fd, _ := acq.at(down, nil)
		if num := (fu - fd) / (2 * h); math.Abs(num-grad[j]) > 1e-5*(1+math.Abs(num)) {
			t.Errorf("coordinate %d: analytic %v, finite difference %v", j, grad[j], num)
		}
	}
	U := mat.NewDense(2, 3, []float64{0.2, 0.7, 0.4, 0.9, 0.1, 0.5})
	batch := acq.batch(U)
	for r := range 2 {
		want, _ := acq.at(U.RawRowView(r), nil)
		if math.Abs(batch[r]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("row %d: batch %v, pointwise %v", r, batch[r], want)
		}
	}
}

// dp-ucb-scaled reads only released values: two objectives whose users' losses differ but
// whose clipped means agree at every theta give, from the same random stream, the same
// releases and the same run (the MAP fit, every next point and the release are
// post-processing of the releases); and its surrogate's noise variance is at least the
// release variance.
func TestDPUCBScaledReadsOnlyReleases(t *testing.T) {
	run := func(o quadratic) ([]float64, []float64) {
		var scores []float64
		m := DPUCBScaled{Mu: 1, OnScore: func(_ []float64, s float64) { scores = append(scores, s) }}
		res, err := m.Run(context.Background(), o, 12, rand.New(rand.NewPCG(7, 7)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Theta, scores
	}
	// The same clipped mean loss from different per-user losses: user 0 and user 1 swap.
	a, as := run(quadratic{swap: false})
	b, bs := run(quadratic{swap: true})
	for i := range as {
		if as[i] != bs[i] {
			t.Fatalf("release %d: %v and %v", i, as[i], bs[i])
		}
	}
	for j := range a {
		if a[j] != b[j] {
			t.Errorf("released theta %v and %v: the run read more than the released scores", a, b)
		}
	}
	cfg, _ := UCBConfig{}.resolved()
	cfg.ard = true
	for _, s2 := range []float64{1e-4, 0.05, 10} {
		s := newUCBState(2, cfg, s2)
		X, y := ardData(2, 15, 5)
		for i := range 15 {
			s.add(X.RawRowView(i), X.RawRowView(i), y[i])
		}
		if err := s.update(); err != nil {
			t.Fatal(err)
		}
		if got := s.hyp.NoiseVar * s.sdY * s.sdY; got < s2*(1-1e-9) {
			t.Errorf("release variance %v: surrogate noise variance %v (original units) is below it", s2, got)
		}
	}
}

// quadratic is a two-user objective on [0, 1]^2 whose users' losses differ (swap exchanges
// them) but whose mean does not.
type quadratic struct{ swap bool }

func (quadratic) Dim() int                   { return 2 }
func (quadratic) Bounds() (lo, hi []float64) { return []float64{0, 0}, []float64{1, 1} }
func (quadratic) Users() int                 { return 2 }
func (quadratic) LossBound() float64         { return 4 }
func (q quadratic) Losses(theta, dst []float64) error {
	a := (theta[0]-0.3)*(theta[0]-0.3) + (theta[1]-0.6)*(theta[1]-0.6)
	dst[0], dst[1] = 2*a, 0.1
	if q.swap {
		dst[0], dst[1] = 0.1, 2*a
	}
	return nil
}
