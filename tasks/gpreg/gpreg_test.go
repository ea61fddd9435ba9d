package gpreg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"dpgibo/tasks"
)

var _ tasks.Task = (*Task)(nil)

func mustNew(t testing.TB, cfg Config) *Task {
	t.Helper()
	task, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func meanLoss(t testing.TB, task *Task, theta []float64) float64 {
	t.Helper()
	dst := make([]float64, task.Users())
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	return floats.Sum(dst) / float64(len(dst))
}

// The predictive mean computed with BLAS on scaled inputs and a Cholesky solve equals the
// textbook formula k(x, X) (K + s^2 I)^{-1} y with the ARD kernel written out entry by entry
// and a dense LU solve.
func TestPredictiveMeanMatchesDenseSolve(t *testing.T) {
	const nTrain, nVal, d = 7, 4, 3
	rng := rand.New(rand.NewPCG(3, 4))
	randDense := func(r, c int) *mat.Dense {
		m := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				m.Set(i, j, rng.Float64())
			}
		}
		return m
	}
	randVec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	cfg := Config{D: d, NTrain: nTrain, NVal: nVal, SignalVariance: 1.7, NoiseStd: 0.3}.withDefaults()
	train := tasks.Dataset{X: randDense(nTrain, d), Y: randVec(nTrain)}
	val := tasks.Dataset{X: randDense(nVal, d), Y: randVec(nVal)}
	task := fromData(cfg, train, val)
	theta := []float64{-1.2, 0.3, -0.4}
	ard := func(a, b []float64) float64 {
		s := 0.0
		for j := range a {
			l := math.Exp(theta[j])
			s += (a[j] - b[j]) * (a[j] - b[j]) / (l * l)
		}
		return cfg.SignalVariance * math.Exp(-s/2)
	}
	K := mat.NewDense(nTrain, nTrain, nil)
	for a := 0; a < nTrain; a++ {
		for b := 0; b < nTrain; b++ {
			K.Set(a, b, ard(train.X.RawRowView(a), train.X.RawRowView(b)))
		}
		K.Set(a, a, K.At(a, a)+cfg.NoiseStd*cfg.NoiseStd)
	}
	var alpha mat.VecDense
	if err := alpha.SolveVec(K, mat.NewVecDense(nTrain, train.Y)); err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, nVal)
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < nVal; i++ {
		want := 0.0
		for b := 0; b < nTrain; b++ {
			want += ard(val.X.RawRowView(i), train.X.RawRowView(b)) * alpha.AtVec(b)
		}
		if math.Abs(task.mean[i]-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("validation point %d: predictive mean %v, dense solve %v", i, task.mean[i], want)
		}
		r := val.Y[i] - want
		if math.Abs(dst[i]-r*r) > 1e-10*math.Max(1, r*r) {
			t.Errorf("user %d: loss %v, want %v", i, dst[i], r*r)
		}
	}
}

// With a fixed seed, the length-scales the data was drawn with predict better than
// length-scales a factor e^2 too short or too long.
func TestTrueLengthscalesPredictBetter(t *testing.T) {
	for _, d := range []int{2, 5} {
		task := mustNew(t, Config{D: d, NTrain: 300, NVal: 300, Seed: 21})
		truth := task.TrueTheta()
		best := meanLoss(t, task, truth)
		for _, off := range []float64{-2, 2} {
			theta := make([]float64, d)
			for j := range theta {
				theta[j] = math.Max(thetaLo, math.Min(thetaHi, truth[j]+off))
			}
			if far := meanLoss(t, task, theta); !(best < far) {
				t.Errorf("d=%d: loss at true length-scales %v, not below %v at offset %+v", d, best, far, off)
			}
		}
		// the best achievable squared error is about the noise variance
		if best < 0.5*task.cfg.NoiseStd*task.cfg.NoiseStd {
			t.Errorf("d=%d: validation loss %v below half the noise variance", d, best)
		}
	}
}

func TestGeneratorStatistics(t *testing.T) {
	const d = 4
	task := mustNew(t, Config{D: d, NTrain: 500, NVal: 500, Seed: 8})
	lo := 0.5*math.Log(d) + math.Log(defaultTrueScaleLo)
	hi := 0.5*math.Log(d) + math.Log(defaultTrueScaleHi)
	for j, th := range task.TrueTheta() {
		if th < lo || th > hi {
			t.Errorf("true log length-scale %d = %v outside [%v, %v]", j, th, lo, hi)
		}
	}
	train, val := task.Data()
	for _, x := range append(append([]float64(nil), train.X.RawMatrix().Data...), val.X.RawMatrix().Data...) {
		if x < 0 || x >= 1 {
			t.Fatalf("input %v outside [0, 1)", x)
		}
	}
	// y has marginal variance SignalVariance + NoiseStd^2 = 1.01; one sample path of a
	// smooth GP on 1000 correlated points gives a rough estimate only.
	all := append(append([]float64(nil), train.Y...), val.Y...)
	if v := stat.Variance(all, nil); v < 0.2 || v > 3 {
		t.Errorf("sample variance of y is %v, want of order 1", v)
	}
	// differences of y at the closest pairs of inputs are mostly noise: their mean square
	// is far below the marginal variance
	close, n := 0.0, 0
	for a := 0; a < 500; a++ {
		for b := a + 1; b < 500; b++ {
			s := 0.0
			for j := 0; j < d; j++ {
				diff := train.X.At(a, j) - train.X.At(b, j)
				s += diff * diff
			}
			if s < 0.01 {
				dy := train.Y[a] - train.Y[b]
				close += dy * dy
				n++
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d close pairs", n)
	}
	if ms := close / float64(n); ms > 0.5 {
		t.Errorf("mean squared difference of y at %d close input pairs is %v, want well below 2", n, ms)
	}
}

func TestSameSeedSameData(t *testing.T) {
	cfg := Config{D: 3, NTrain: 60, NVal: 40, Seed: 77}
	a, b := mustNew(t, cfg), mustNew(t, cfg)
	cfg.Seed++
	c := mustNew(t, cfg)
	same := func(x, y *Task) bool {
		xt, xv := x.Data()
		yt, yv := y.Data()
		for _, pair := range [][2][]float64{
			{xt.X.RawMatrix().Data, yt.X.RawMatrix().Data}, {xv.X.RawMatrix().Data, yv.X.RawMatrix().Data},
			{xt.Y, yt.Y}, {xv.Y, yv.Y}, {x.TrueTheta(), y.TrueTheta()},
		} {
			for i := range pair[0] {
				if math.Float64bits(pair[0][i]) != math.Float64bits(pair[1][i]) {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) {
		t.Fatal("same seed gave different data")
	}
	if same(a, c) {
		t.Fatal("different seeds gave the same data")
	}
	theta := []float64{-0.5, 0.2, 1}
	la, lb := make([]float64, a.Users()), make([]float64, a.Users())
	if err := a.Losses(theta, la); err != nil {
		t.Fatal(err)
	}
	if err := a.Losses([]float64{2, 2, 2}, lb); err != nil { // dirty the buffers
		t.Fatal(err)
	}
	if err := a.Losses(theta, lb); err != nil {
		t.Fatal(err)
	}
	for i := range la {
		if math.Float64bits(la[i]) != math.Float64bits(lb[i]) {
			t.Fatalf("user %d: repeated evaluation differs", i)
		}
	}
}

func TestErrors(t *testing.T) {
	task := mustNew(t, Config{D: 2, NTrain: 20, NVal: 10, Seed: 1})
	dst := make([]float64, task.Users())
	for _, tc := range []struct {
		theta []float64
		want  string
	}{
		{[]float64{math.NaN(), 0}, "not finite"},
		{[]float64{0, math.Inf(-1)}, "not finite"},
		{[]float64{0, 3.5}, "outside the box"},
		{[]float64{-3.01, 0}, "outside the box"},
		{[]float64{0, 0, 0}, "has 3 values, want 2"},
	} {
		err := task.Losses(tc.theta, dst)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "gpreg") {
			t.Errorf("theta %v: error %v, want one containing %q", tc.theta, err, tc.want)
		}
	}
	if err := task.Losses([]float64{0, 0}, dst[:2]); err == nil {
		t.Error("short dst accepted")
	}
	if task.Name() != "gpreg" || task.DataLabel() != "synthetic" || task.Dim() != 2 || task.Users() != 10 {
		t.Errorf("Name %q DataLabel %q Dim %d Users %d", task.Name(), task.DataLabel(), task.Dim(), task.Users())
	}
	if got, want := task.LossBound(), 9*(1+0.01); math.Abs(got-want) > 1e-12 {
		t.Errorf("LossBound = %v, want %v", got, want)
	}
	for _, cfg := range []Config{
		{D: -2}, {NTrain: -1}, {NVal: -1}, {SignalVariance: -1}, {NoiseStd: math.Inf(1)},
		{TrueScaleLo: 0.5, TrueScaleHi: 0.2}, {LossBound: math.NaN()},
		{D: 1, TrueScaleLo: 30, TrueScaleHi: 40}, // true length-scales outside the box
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

// BenchmarkLossesD15 is one evaluation of the appendix setting: d = 15, 1000 training and
// 1000 validation points.
func BenchmarkLossesD15(b *testing.B) {
	task := mustNew(b, Config{D: 15, NTrain: 1000, NVal: 1000, Seed: 1})
	theta := task.TrueTheta()
	dst := make([]float64, task.Users())
	b.ReportAllocs()
	for b.Loop() {
		if err := task.Losses(theta, dst); err != nil {
			b.Fatal(err)
		}
	}
}

// The kernel loops are split among GOMAXPROCS goroutines; the losses must not depend on it.
func TestLossesIndependentOfGOMAXPROCS(t *testing.T) {
	task := mustNew(t, Config{D: 3, NTrain: 300, NVal: 200, Seed: 5})
	if task.Users()*300 < minParallelEntries {
		t.Fatal("problem too small to exercise the parallel kernel loops")
	}
	theta := []float64{-0.7, 0.1, 0.4}
	var want []float64
	for _, procs := range []int{1, 2, 3} {
		prev := runtime.GOMAXPROCS(procs)
		got := make([]float64, task.Users())
		err := task.Losses(theta, got)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = got
			continue
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("GOMAXPROCS=%d: user %d loss %v, serial %v", procs, i, got[i], want[i])
			}
		}
	}
}
