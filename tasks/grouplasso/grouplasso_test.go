package grouplasso

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"dpgibo/tasks"
)

var _ tasks.Task = (*Task)(nil)

// objective returns the group LASSO objective at w on the training split.
func (t *Task) objective(w, lambda []float64) float64 {
	X := t.train.X
	n, _ := X.Dims()
	r := mat.NewVecDense(n, nil)
	r.MulVec(X, mat.NewVecDense(len(w), w))
	r.SubVec(r, mat.NewVecDense(n, t.train.Y))
	obj := mat.Dot(r, r) / (2 * float64(n))
	for k, lam := range lambda {
		obj += lam * floats.Norm(w[k*t.groupSize:(k+1)*t.groupSize], 2)
	}
	return obj
}

// gradient returns X^T (X w - y) / n on the training split.
func (t *Task) gradient(w []float64) []float64 {
	X := t.train.X
	n, p := X.Dims()
	r := mat.NewVecDense(n, nil)
	r.MulVec(X, mat.NewVecDense(p, w))
	r.SubVec(r, mat.NewVecDense(n, t.train.Y))
	g := mat.NewVecDense(p, nil)
	g.MulVec(X.T(), r)
	g.ScaleVec(1/float64(n), g)
	return g.RawVector().Data
}

func mustNew(t testing.TB, cfg Config) *Task {
	t.Helper()
	task, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// With X^T X / n = I, ISTA with step 1 reaches the minimiser in one step: the group soft
// threshold of X^T y / n, and stays there.
func TestISTAOrthonormalClosedForm(t *testing.T) {
	const n, d, g = 30, 4, 3
	p := d * g
	rng := rand.New(rand.NewPCG(1, 2))
	a := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q mat.Dense
	qr.QTo(&q)
	X := mat.DenseCopyOf(q.Slice(0, n, 0, p))
	X.Scale(math.Sqrt(n), X)
	y := make([]float64, n)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	cfg := Config{D: d, GroupSize: g, ISTAIters: 200}.withDefaults()
	task, err := fromData(cfg, tasks.Dataset{X: X, Y: y}, tasks.Dataset{X: X, Y: y})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(task.Lipschitz()-1) > 1e-12 {
		t.Fatalf("L = %v, want 1 for an orthonormal design", task.Lipschitz())
	}
	c := make([]float64, p)
	mat.NewVecDense(p, c).MulVec(X.T(), mat.NewVecDense(n, y))
	floats.Scale(1/float64(n), c)
	// lambdas around the group norms so that some groups vanish and some survive
	lambda := make([]float64, d)
	zero, alive := 0, 0
	for k := range lambda {
		norm := floats.Norm(c[k*g:(k+1)*g], 2)
		if k%2 == 0 {
			lambda[k] = 0.5 * norm
			alive++
		} else {
			lambda[k] = 1.5 * norm
			zero++
		}
	}
	want := make([]float64, p)
	for k, lam := range lambda {
		cg := c[k*g : (k+1)*g]
		norm := floats.Norm(cg, 2)
		for j := range cg {
			want[k*g+j] = math.Max(0, 1-lam/norm) * cg[j]
		}
	}
	got := task.fit(lambda, 200, nil)
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-12 {
			t.Fatalf("w[%d] = %v, closed form %v (alive %d, zero %d groups)", j, got[j], want[j], alive, zero)
		}
	}
	for k := 1; k < d; k += 2 {
		for _, v := range got[k*g : (k+1)*g] {
			if v != 0 {
				t.Fatalf("group %d should be exactly zero, got %v", k+1, got[k*g:(k+1)*g])
			}
		}
	}
}

// When every lambda_k exceeds |X_{G_k}^T y / n|, w = 0 is the solution and ISTA returns it
// exactly; the losses are then 0.5 y_i^2.
func TestLargeLambdaGivesZero(t *testing.T) {
	task := mustNew(t, Config{D: 6, Seed: 4})
	maxNorm := 0.0
	for k := 0; k < 6; k++ {
		maxNorm = math.Max(maxNorm, floats.Norm(task.corr[k*5:(k+1)*5], 2))
	}
	lambda := make([]float64, 6)
	for k := range lambda {
		lambda[k] = maxNorm * 1.0001
	}
	w := task.fit(lambda, 200, nil)
	for j, v := range w {
		if v != 0 {
			t.Fatalf("w[%d] = %v, want exactly 0", j, v)
		}
	}
	// the same through Losses whenever the box top suffices
	if maxNorm < 1 {
		theta := make([]float64, 6)
		dst := make([]float64, task.Users())
		if err := task.Losses(theta, dst); err != nil {
			t.Fatal(err)
		}
		_, val := task.Data()
		for i, yi := range val.Y {
			if dst[i] != 0.5*yi*yi {
				t.Fatalf("user %d: loss %v, want 0.5 y^2 = %v", i, dst[i], 0.5*yi*yi)
			}
		}
	}
}

func TestISTAObjectiveNeverIncreases(t *testing.T) {
	for _, d := range []int{2, 10, 20} {
		task := mustNew(t, Config{D: d, Seed: uint64(d)})
		rng := rand.New(rand.NewPCG(7, uint64(d)))
		for trial := 0; trial < 5; trial++ {
			lambda := make([]float64, d)
			for k := range lambda {
				lambda[k] = math.Exp(thetaLo + (thetaHi-thetaLo)*rng.Float64())
			}
			prev := task.objective(make([]float64, d*5), lambda)
			iter := 0
			task.fit(lambda, 300, func(w []float64) {
				iter++
				obj := task.objective(w, lambda)
				if obj > prev+1e-12*math.Abs(prev) {
					t.Fatalf("d=%d trial %d: objective rose at iteration %d: %v -> %v", d, trial, iter, prev, obj)
				}
				prev = obj
			})
		}
	}
}

// KKT conditions of the group LASSO at a converged ISTA solution: for an active group
// grad_G + lambda w_G/|w_G| = 0, for a zero group |grad_G| <= lambda.
func TestKKTAtConvergence(t *testing.T) {
	const d, g = 4, 5
	task := mustNew(t, Config{D: d, Seed: 11})
	lambda := []float64{math.Exp(-4), math.Exp(-0.5), math.Exp(-3), math.Exp(-0.2)}
	w := task.fit(lambda, 20000, nil)
	grad := task.gradient(w)
	active, inactive := 0, 0
	for k, lam := range lambda {
		wg, gg := w[k*g:(k+1)*g], grad[k*g:(k+1)*g]
		norm := floats.Norm(wg, 2)
		if norm == 0 {
			inactive++
			if gn := floats.Norm(gg, 2); gn > lam+1e-9 {
				t.Errorf("zero group %d: |grad| = %v exceeds lambda = %v", k+1, gn, lam)
			}
			continue
		}
		active++
		for j := range wg {
			if r := gg[j] + lam*wg[j]/norm; math.Abs(r) > 1e-8 {
				t.Errorf("active group %d coordinate %d: stationarity residual %v", k+1, j, r)
			}
		}
	}
	if active == 0 || inactive == 0 {
		t.Fatalf("test needs both active and zero groups, got %d active, %d zero", active, inactive)
	}
}

func TestGeneratorStatistics(t *testing.T) {
	const d, g, n = 3, 5, 20000
	task := mustNew(t, Config{D: d, NTrain: n, NVal: 10, Seed: 3})
	train, _ := task.Data()
	col := func(j int) []float64 { return mat.Col(nil, j, train.X) }
	for k := 0; k < d; k++ {
		for a := k * g; a < (k+1)*g; a++ {
			for b := a + 1; b < (k+1)*g; b++ {
				if r := stat.Correlation(col(a), col(b), nil); math.Abs(r-0.9) > 0.01 {
					t.Errorf("group %d columns %d,%d: correlation %.4f, want about 0.9", k+1, a+1, b+1, r)
				}
			}
		}
	}
	for a := 0; a < d*g; a++ {
		for b := a + 1; b < d*g; b++ {
			if a/g == b/g {
				continue
			}
			if r := stat.Correlation(col(a), col(b), nil); math.Abs(r) > 0.04 {
				t.Errorf("columns %d,%d of different groups: correlation %.4f, want about 0", a+1, b+1, r)
			}
		}
	}
	beta := task.BetaStar()
	for j, v := range beta {
		if (j < g) != (v != 0) {
			t.Errorf("beta*[%d] = %v: only group 1 may carry signal", j, v)
		}
	}
	// y is explained by group 1 only: regress on all columns, compare per-group fit
	var coef mat.VecDense
	if err := coef.SolveVec(train.X, mat.NewVecDense(n, train.Y)); err != nil {
		t.Fatal(err)
	}
	for j := g; j < d*g; j++ {
		if math.Abs(coef.AtVec(j)) > 0.05 {
			t.Errorf("least-squares coefficient of noise column %d is %v, want about 0", j+1, coef.AtVec(j))
		}
	}
	if floats.Norm(coef.RawVector().Data[:g], 2) < 0.1 {
		t.Errorf("group 1 carries no signal: coefficients %v", coef.RawVector().Data[:g])
	}
	// standardised with training statistics
	for j := 0; j < d*g; j++ {
		m, s := stat.PopMeanStdDev(col(j), nil)
		if math.Abs(m) > 1e-12 || math.Abs(s-1) > 1e-12 {
			t.Errorf("column %d: training mean %v, std %v", j+1, m, s)
		}
	}
	if m, s := stat.PopMeanStdDev(train.Y, nil); math.Abs(m) > 1e-12 || math.Abs(s-1) > 1e-12 {
		t.Errorf("y: training mean %v, std %v", m, s)
	}
}

func TestSameSeedSameData(t *testing.T) {
	a := mustNew(t, Config{D: 5, Seed: 42})
	b := mustNew(t, Config{D: 5, Seed: 42})
	c := mustNew(t, Config{D: 5, Seed: 43})
	same := func(x, y *Task) bool {
		xt, xv := x.Data()
		yt, yv := y.Data()
		for _, pair := range [][2][]float64{
			{xt.X.RawMatrix().Data, yt.X.RawMatrix().Data}, {xv.X.RawMatrix().Data, yv.X.RawMatrix().Data},
			{xt.Y, yt.Y}, {xv.Y, yv.Y},
		} {
			if len(pair[0]) != len(pair[1]) {
				return false
			}
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
	theta := []float64{-1, -2, -3, -4, -5}
	la, lb := make([]float64, a.Users()), make([]float64, b.Users())
	if err := a.Losses(theta, la); err != nil {
		t.Fatal(err)
	}
	if err := b.Losses(theta, lb); err != nil {
		t.Fatal(err)
	}
	for i := range la {
		if math.Float64bits(la[i]) != math.Float64bits(lb[i]) {
			t.Fatalf("user %d: losses differ for the same seed", i)
		}
	}
	// repeated evaluation on one task reuses buffers and must not drift
	if err := a.Losses(theta, lb); err != nil {
		t.Fatal(err)
	}
	for i := range la {
		if la[i] != lb[i] {
			t.Fatalf("user %d: second evaluation differs", i)
		}
	}
}

func TestLossesMatchPrediction(t *testing.T) {
	task := mustNew(t, Config{D: 3, Seed: 9})
	theta := []float64{-3, -1, -5}
	w, err := task.Coefficients(theta)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, task.Users())
	if err := task.Losses(theta, dst); err != nil {
		t.Fatal(err)
	}
	_, val := task.Data()
	for i, yi := range val.Y {
		r := yi - floats.Dot(val.X.RawRowView(i), w)
		if want := 0.5 * r * r; math.Abs(dst[i]-want) > 1e-12*math.Max(1, want) {
			t.Fatalf("user %d: loss %v, want %v", i, dst[i], want)
		}
	}
	if task.Users() != 150 || task.Dim() != 3 {
		t.Fatalf("Users() = %d, Dim() = %d", task.Users(), task.Dim())
	}
	if task.Name() != "grouplasso" || task.DataLabel() != "synthetic" || task.LossBound() != defaultLossBound {
		t.Fatalf("Name %q DataLabel %q LossBound %v", task.Name(), task.DataLabel(), task.LossBound())
	}
}

func TestErrors(t *testing.T) {
	task := mustNew(t, Config{D: 2, Seed: 1})
	dst := make([]float64, task.Users())
	for _, tc := range []struct {
		theta []float64
		want  string
	}{
		{[]float64{math.NaN(), -1}, "not finite"},
		{[]float64{-1, math.Inf(1)}, "not finite"},
		{[]float64{-1, 0.5}, "outside the box"},
		{[]float64{-7, -1}, "outside the box"},
		{[]float64{-1}, "has 1 values, want 2"},
	} {
		err := task.Losses(tc.theta, dst)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "grouplasso") {
			t.Errorf("theta %v: error %v, want one containing %q", tc.theta, err, tc.want)
		}
	}
	if err := task.Losses([]float64{-1, -1}, dst[:3]); err == nil {
		t.Error("short dst accepted")
	}
	for _, cfg := range []Config{
		{D: -1}, {Rho: 1}, {Rho: -0.1}, {D: 2, Informative: 3}, {NTrain: 1}, {NVal: -1},
		{NoiseStd: math.NaN()}, {LossBound: -1}, {ISTAIters: -5}, {GroupSize: -1},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
}

func BenchmarkLossesD20(b *testing.B) {
	task := mustNew(b, Config{D: 20, Seed: 1})
	theta := make([]float64, 20)
	for k := range theta {
		theta[k] = -3
	}
	dst := make([]float64, task.Users())
	b.ReportAllocs()
	for b.Loop() {
		if err := task.Losses(theta, dst); err != nil {
			b.Fatal(err)
		}
	}
}
