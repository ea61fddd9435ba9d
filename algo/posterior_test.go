package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randMat(rng *rand.Rand, r, c int, scale float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, scale*rng.NormFloat64())
		}
	}
	return m
}

func TestKernelMatricesMatchAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	k := RBF{Lengthscale: 0.7, Variance: 1.3}
	A, B := randMat(rng, 5, 3, 1), randMat(rng, 4, 3, 1)
	C := mat.NewDense(5, 4, nil)
	k.Cross(C, A, B)
	G := mat.NewSymDense(5, nil)
	k.Gram(G, A, 0.1)
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			if got, want := C.At(i, j), k.At(A.RawRowView(i), B.RawRowView(j)); math.Abs(got-want) > 1e-12 {
				t.Fatalf("Cross[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
		for j := 0; j < 5; j++ {
			want := k.At(A.RawRowView(i), A.RawRowView(j))
			if i == j {
				want += 0.1
			}
			if got := G.At(i, j); math.Abs(got-want) > 1e-12 {
				t.Fatalf("Gram[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}

func TestKernelGradientFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	k := RBF{Lengthscale: 0.8, Variance: 2}
	a, b := []float64{0.1, -0.4, 0.3}, []float64{0.5, 0.2, -0.1}
	g := k.GradAt(nil, a, b)
	const h = 1e-6
	for j := range a {
		ap, am := append([]float64(nil), a...), append([]float64(nil), a...)
		ap[j] += h
		am[j] -= h
		fd := (k.At(ap, b) - k.At(am, b)) / (2 * h)
		if math.Abs(fd-g[j]) > 1e-8 {
			t.Errorf("dk/da_%d = %v, finite difference %v", j, g[j], fd)
		}
	}
	_ = rng
}

// posteriorMean is m(theta) = k(theta, D) (k(D,D)+noiseVar I)^{-1} y by a dense solve.
func posteriorMean(k RBF, noiseVar float64, D *mat.Dense, y []float64, theta []float64) float64 {
	m, _ := D.Dims()
	K := mat.NewDense(m, m, nil)
	kv := mat.NewVecDense(m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			K.Set(i, j, k.At(D.RawRowView(i), D.RawRowView(j)))
		}
		K.Set(i, i, K.At(i, i)+noiseVar)
		kv.SetVec(i, k.At(theta, D.RawRowView(i)))
	}
	var sol mat.VecDense
	if err := sol.SolveVec(K, mat.NewVecDense(m, y)); err != nil {
		panic(err)
	}
	return mat.Dot(kv, &sol)
}

func TestGradientMeanFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	k := RBF{Lengthscale: 0.9, Variance: 1.5}
	const m, d, n, noiseVar = 12, 4, 3, 0.01
	D := randMat(rng, m, d, 0.8)
	Y := randMat(rng, n, m, 1)
	theta := []float64{0.1, -0.2, 0.05, 0.3}
	G := GradientMean(k, noiseVar, D, Y, theta)
	const h = 1e-6
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			tp, tm := append([]float64(nil), theta...), append([]float64(nil), theta...)
			tp[j] += h
			tm[j] -= h
			fd := (posteriorMean(k, noiseVar, D, Y.RawRowView(i), tp) - posteriorMean(k, noiseVar, D, Y.RawRowView(i), tm)) / (2 * h)
			if math.Abs(fd-G.At(i, j)) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("user %d coordinate %d: GradientMean %v, finite difference %v", i, j, G.At(i, j), fd)
			}
		}
	}
}

// directTrace computes the trace of the posterior gradient covariance by a dense solve on
// all points.
func directTrace(k RBF, noiseVar float64, all *mat.Dense, theta []float64) float64 {
	m, d := all.Dims()
	K := mat.NewDense(m, m, nil)
	Jt := mat.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			K.Set(i, j, k.At(all.RawRowView(i), all.RawRowView(j)))
		}
		K.Set(i, i, K.At(i, i)+noiseVar)
		Jt.SetRow(i, k.GradAt(nil, theta, all.RawRowView(i)))
	}
	var W mat.Dense
	if err := W.Solve(K, Jt); err != nil {
		panic(err)
	}
	var JW mat.Dense
	JW.Mul(Jt.T(), &W)
	return float64(d)*k.GradCov() - mat.Trace(&JW)
}

func TestAcquisitionMatchesDirectAndGradient(t *testing.T) {
	for _, tc := range []struct{ m, b, d int }{{0, 1, 2}, {0, 3, 3}, {6, 1, 3}, {7, 4, 5}, {20, 6, 4}} {
		rng := rand.New(rand.NewPCG(uint64(tc.m), uint64(tc.b)))
		k := RBF{Lengthscale: 0.8, Variance: 1.2}
		const noiseVar = 0.02
		var D *mat.Dense
		if tc.m > 0 {
			D = randMat(rng, tc.m, tc.d, 0.7)
		}
		Z := randMat(rng, tc.b, tc.d, 0.7)
		theta := make([]float64, tc.d)
		for j := range theta {
			theta[j] = 0.2 * rng.NormFloat64()
		}
		grad := mat.NewDense(tc.b, tc.d, nil)
		var Dm mat.Matrix
		if tc.m > 0 {
			Dm = D
		}
		alpha, err := Acquisition(k, noiseVar, Dm, Z, theta, grad)
		if err != nil {
			t.Fatal(err)
		}
		all := mat.NewDense(tc.m+tc.b, tc.d, nil)
		for i := 0; i < tc.m; i++ {
			all.SetRow(i, D.RawRowView(i))
		}
		for i := 0; i < tc.b; i++ {
			all.SetRow(tc.m+i, Z.RawRowView(i))
		}
		if want := directTrace(k, noiseVar, all, theta); math.Abs(alpha-want) > 1e-9 {
			t.Errorf("m=%d b=%d: alpha %v, direct %v", tc.m, tc.b, alpha, want)
		}
		const h = 1e-6
		for r := 0; r < tc.b; r++ {
			for j := 0; j < tc.d; j++ {
				Zp, Zm := mat.DenseCopyOf(Z), mat.DenseCopyOf(Z)
				Zp.Set(r, j, Z.At(r, j)+h)
				Zm.Set(r, j, Z.At(r, j)-h)
				ap, _ := Acquisition(k, noiseVar, Dm, Zp, theta, nil)
				am, _ := Acquisition(k, noiseVar, Dm, Zm, theta, nil)
				fd := (ap - am) / (2 * h)
				if math.Abs(fd-grad.At(r, j)) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("m=%d b=%d: dalpha/dz[%d,%d] = %v, finite difference %v", tc.m, tc.b, r, j, grad.At(r, j), fd)
				}
			}
		}
	}
}

func TestGradientTraceEmptyAndMonotone(t *testing.T) {
	k := RBF{Lengthscale: 0.5, Variance: 2}
	const d = 3
	theta := []float64{0.1, 0.2, -0.3}
	if got, want := GradientTrace(k, 0.01, nil, theta), d*2/0.25; math.Abs(got-want) > 1e-12 {
		t.Fatalf("empty trace %v, want d*Variance/Lengthscale^2 = %v", got, want)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	all := randMat(rng, 25, d, 0.5)
	prev := math.Inf(1)
	for m := 1; m <= 25; m++ {
		tr := GradientTrace(k, 0.01, all.Slice(0, m, 0, d), theta)
		if tr > prev+1e-10 {
			t.Fatalf("trace rose from %v to %v when point %d was added", prev, tr, m)
		}
		if tr < -1e-10 {
			t.Fatalf("trace %v is negative", tr)
		}
		prev = tr
	}
}

func TestLocalDesignRecoversGradient(t *testing.T) {
	// A smooth function observed (almost) without noise on a small central design around
	// theta: the posterior-mean gradient matches the true gradient to 1e-3 relative.
	f := func(x []float64) float64 { return math.Sin(x[0]) + x[0]*x[1] + 0.5*x[1]*x[1] - math.Cos(x[2]) }
	grad := func(x []float64) []float64 { return []float64{math.Cos(x[0]) + x[1], x[0] + x[1], math.Sin(x[2])} }
	theta := []float64{0.3, -0.2, 0.5}
	const d, h = 3, 0.01
	D := mat.NewDense(2*d+1, d, nil)
	D.SetRow(0, theta)
	for j := 0; j < d; j++ {
		for s, sign := range []float64{1, -1} {
			p := append([]float64(nil), theta...)
			p[j] += sign * h
			D.SetRow(1+2*j+s, p)
		}
	}
	Y := mat.NewDense(1, 2*d+1, nil)
	for r := 0; r < 2*d+1; r++ {
		Y.Set(0, r, f(D.RawRowView(r)))
	}
	G := GradientMean(RBF{Lengthscale: 1, Variance: 1}, 1e-12, D, Y, theta)
	want := grad(theta)
	for j := 0; j < d; j++ {
		if math.Abs(G.At(0, j)-want[j]) > 1e-3*math.Max(1, math.Abs(want[j])) {
			t.Errorf("coordinate %d: recovered %v, true gradient %v", j, G.At(0, j), want[j])
		}
	}
}
