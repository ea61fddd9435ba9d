package svr

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomProblem returns n rows of p features in [0, 1) and a nonlinear target.
func randomProblem(seed uint64, n, p int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.Float64())
		}
		y[i] = math.Sin(3*x.At(i, 0)) + x.At(i, 1%p)*x.At(i, 1%p) + 0.1*rng.NormFloat64()
	}
	return x, y
}

// naiveGram is the ARD-RBF kernel matrix by its definition.
func naiveGram(a, b *mat.Dense, h Hyper) *mat.Dense {
	ra, p := a.Dims()
	rb, _ := b.Dims()
	k := mat.NewDense(ra, rb, nil)
	for i := 0; i < ra; i++ {
		for j := 0; j < rb; j++ {
			s := 0.0
			for f := 0; f < p; f++ {
				d := (a.At(i, f) - b.At(j, f)) / h.Lengthscales[f]
				s += d * d
			}
			k.Set(i, j, math.Exp(-h.Gamma*s))
		}
	}
	return k
}

func hyperFor(p int, seed uint64) Hyper {
	rng := rand.New(rand.NewPCG(seed, 2))
	l := make([]float64, p)
	for j := range l {
		l[j] = math.Exp(rng.Float64()*2 - 1)
	}
	return Hyper{Lengthscales: l, Gamma: 0.8, Epsilon: 0.05, C: 1.5}
}

// The solution satisfies the KKT conditions of the epsilon-SVR at the stated tolerance,
// checked on residuals recomputed from scratch.
func TestKKTAtTolerance(t *testing.T) {
	for _, tc := range []struct {
		n, p    int
		c, eps  float64
		tol     float64
		seed    uint64
		gamma   float64
		comment string
	}{
		{80, 4, 1.5, 0.05, defaultTol, 1, 0.8, "mostly free"},
		{80, 4, 0.05, 0.01, defaultTol, 2, 0.8, "mostly at the bound C"},
		{120, 6, 10, 0.2, 1e-6, 3, 3, "tight tolerance"},
		{60, 2, 1, 0, defaultTol, 4, 0.3, "epsilon zero"},
	} {
		t.Run(tc.comment, func(t *testing.T) {
			x, y := randomProblem(tc.seed, tc.n, tc.p)
			h := hyperFor(tc.p, tc.seed)
			h.C, h.Epsilon, h.Gamma = tc.c, tc.eps, tc.gamma
			k := naiveGram(x, x, h)
			full := k.RawMatrix().Data
			diag := make([]float64, tc.n)
			for i := range diag {
				diag[i] = 1
			}
			var s smo
			d, err := s.solve(denseRows{data: full, n: tc.n}, diag, y, params{C: tc.c, Epsilon: tc.eps, Tol: tc.tol})
			if err != nil {
				t.Fatal(err)
			}
			if d.Gap >= tc.tol {
				t.Errorf("reported gap %g not below tolerance %g", d.Gap, tc.tol)
			}
			sum := 0.0
			for i := range d.Beta {
				a, as := s.alpha[i], s.alphaStar[i]
				if a < 0 || a > tc.c || as < 0 || as > tc.c {
					t.Fatalf("alpha_%d = %v, alpha*_%d = %v outside [0, C=%v]", i, a, i, as, tc.c)
				}
				if d.Beta[i] != a-as {
					t.Fatalf("beta_%d != alpha - alpha*", i)
				}
				sum += d.Beta[i]
			}
			if math.Abs(sum) > 1e-10*tc.c*float64(tc.n) {
				t.Errorf("sum of beta = %g, want 0", sum)
			}
			// Residuals z - K beta from scratch; KKT in terms of the fitted function
			// f = K beta + b: a point strictly inside the tube has beta = 0, a point with
			// 0 < alpha < C lies on the tube's edge, alpha = C lies outside it, all up to tol.
			slack := tc.tol + 1e-9
			up, low := math.Inf(-1), math.Inf(1)
			for i := range y {
				r := y[i] - mat.Dot(k.RowView(i), mat.NewVecDense(tc.n, d.Beta))
				a, as := s.alpha[i], s.alphaStar[i]
				if a < tc.c {
					up = math.Max(up, r-tc.eps)
				}
				if as > 0 {
					up = math.Max(up, r+tc.eps)
				}
				if a > 0 {
					low = math.Min(low, r-tc.eps)
				}
				if as < tc.c {
					low = math.Min(low, r+tc.eps)
				}
				dev := r - d.Bias // z_i - f(x_i)
				switch {
				case a == 0 && as == 0 && math.Abs(dev) > tc.eps+slack:
					t.Errorf("point %d outside the tube (|z-f| = %g > eps) with beta = 0", i, math.Abs(dev))
				case a > 0 && a < tc.c && math.Abs(dev-tc.eps) > slack:
					t.Errorf("free alpha_%d: z - f = %g, want eps = %g", i, dev, tc.eps)
				case as > 0 && as < tc.c && math.Abs(dev+tc.eps) > slack:
					t.Errorf("free alpha*_%d: z - f = %g, want -eps = %g", i, dev, -tc.eps)
				case a == tc.c && dev < tc.eps-slack:
					t.Errorf("alpha_%d = C but z - f = %g < eps", i, dev)
				case as == tc.c && dev > -tc.eps+slack:
					t.Errorf("alpha*_%d = C but z - f = %g > -eps", i, dev)
				}
			}
			if up-low >= slack {
				t.Errorf("KKT gap from scratch %g, tolerance %g", up-low, tc.tol)
			}
		})
	}
}

// Two points with an identity kernel: with z = (c + a, c - a) the dual is one-dimensional,
// beta = (b, -b) with b = min(C, max(0, a - eps)), and the bias is c.
func TestTwoPointKnownSolution(t *testing.T) {
	gram := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	for _, tc := range []struct{ a, c, eps, C, beta float64 }{
		{1, 0, 0.1, 10, 0.9},       // both free: f on the tube's edge
		{1, 0.3, 0.1, 10, 0.9},     // with an offset
		{1, -2, 0.1, 0.5, 0.5},     // both at the bound: bias is the midpoint
		{0.05, 1, 0.1, 10, 0},      // inside the tube: no support vectors
		{2, 0.7, 0, 100, 2},        // epsilon zero: interpolation
		{2, 0.7, 0.25, 1.75, 1.75}, // exactly at the bound
	} {
		d, err := solveDual(gram, []float64{tc.c + tc.a, tc.c - tc.a}, params{C: tc.C, Epsilon: tc.eps, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d.Beta[0]-tc.beta) > 1e-12 || math.Abs(d.Beta[1]+tc.beta) > 1e-12 {
			t.Errorf("%+v: beta = %v, want (%v, %v)", tc, d.Beta, tc.beta, -tc.beta)
		}
		if math.Abs(d.Bias-tc.c) > 1e-12 {
			t.Errorf("%+v: bias = %v, want %v", tc, d.Bias, tc.c)
		}
	}
}

// With epsilon = 0 and C large the SVR interpolates: [K 1; 1' 0][beta; b] = [z; 0], which
// is solved here directly (LU) and compared with SMO.
func TestInterpolationKnownSolution(t *testing.T) {
	const n = 12
	x, y := randomProblem(5, n, 3)
	h := hyperFor(3, 5)
	h.Gamma = 2
	k := naiveGram(x, x, h)
	sys := mat.NewDense(n+1, n+1, nil)
	rhs := mat.NewVecDense(n+1, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sys.Set(i, j, k.At(i, j))
		}
		sys.Set(i, n, 1)
		sys.Set(n, i, 1)
		rhs.SetVec(i, y[i])
	}
	var want mat.VecDense
	if err := want.SolveVec(sys, rhs); err != nil {
		t.Fatal(err)
	}
	maxBeta := 0.0
	for i := 0; i < n; i++ {
		maxBeta = math.Max(maxBeta, math.Abs(want.AtVec(i)))
	}
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, k.At(i, j))
		}
	}
	d, err := solveDual(sym, y, params{C: 10 * maxBeta, Epsilon: 0, Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if math.Abs(d.Beta[i]-want.AtVec(i)) > 1e-6*maxBeta {
			t.Errorf("beta_%d = %v, want %v", i, d.Beta[i], want.AtVec(i))
		}
	}
	if math.Abs(d.Bias-want.AtVec(n)) > 1e-6 {
		t.Errorf("bias = %v, want %v", d.Bias, want.AtVec(n))
	}
}

// referenceProblem is a small fixed problem whose numbers are exact in binary, so that it
// is built identically here and in Python.
func referenceProblem() (x *mat.Dense, y []float64, xt *mat.Dense) {
	const n, m, p = 30, 10, 3
	x = mat.NewDense(n, p, nil)
	y = make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, float64((i*7+j*13)%17)/16-0.25)
		}
		y[i] = x.At(i, 0)*x.At(i, 1) - x.At(i, 2) + float64((i*3)%7)/8
	}
	xt = mat.NewDense(m, p, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < p; j++ {
			xt.Set(i, j, float64((i*5+j*3)%19)/18)
		}
	}
	return x, y, xt
}

// Predictions on referenceProblem match scikit-learn's SVR (libsvm) to 1e-4.
//
// The reference values were computed once with scikit-learn 1.2.1 (Debian python3-sklearn)
// by this script, which builds the same problem as referenceProblem:
//
//	import numpy as np
//	from sklearn.svm import SVR
//	n, m, p = 30, 10, 3
//	X = np.array([[((i*7 + j*13) % 17)/16 - 0.25 for j in range(p)] for i in range(n)])
//	y = np.array([X[i,0]*X[i,1] - X[i,2] + ((i*3) % 7)/8 for i in range(n)])
//	Xt = np.array([[((i*5 + j*3) % 19)/18 for j in range(p)] for i in range(m)])
//	l = np.array([0.5, 1.0, 2.0])
//	for C, eps in [(2.0, 0.1), (0.3, 0.05)]:
//	    model = SVR(kernel='rbf', gamma=0.7, C=C, epsilon=eps, tol=1e-6).fit(X / l, y)
//	    print(len(model.support_), repr(model.intercept_[0]))
//	    print(", ".join("%.10f" % v for v in model.predict(Xt / l)))
//
// (scikit-learn's isotropic RBF on X/l is this package's ARD kernel with length-scales l.)
func TestMatchesLibsvmReference(t *testing.T) {
	x, y, xt := referenceProblem()
	for _, ref := range []struct {
		C, eps    float64
		nSV       int
		intercept float64
		pred      []float64
	}{
		{2.0, 0.1, 26, 0.046180539424692385, []float64{0.0097896180, 0.1218585289, 0.0361472388, 0.1870727469, 0.0574252039, 0.1078043984, 0.0319888481, 0.1809831917, 0.0940440972, 0.0878934401}},
		{0.3, 0.05, 28, 0.02283235528116282, []float64{-0.1385419628, 0.0470186408, 0.1715430180, 0.2300606268, -0.1061209555, 0.0819505102, 0.1797260635, 0.2525986137, -0.0694462577, 0.1125591096}},
	} {
		s := SVR{Tol: 1e-6}
		h := Hyper{Lengthscales: []float64{0.5, 1, 2}, Gamma: 0.7, C: ref.C, Epsilon: ref.eps}
		if err := s.Fit(x, y, h); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(ref.pred))
		if err := s.Predict(got, xt); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if math.Abs(got[i]-ref.pred[i]) > 1e-4 {
				t.Errorf("C=%v: prediction %d = %.10f, libsvm %.10f", ref.C, i, got[i], ref.pred[i])
			}
		}
		if math.Abs(s.Bias()-ref.intercept) > 1e-4 {
			t.Errorf("C=%v: bias %.10f, libsvm %.10f", ref.C, s.Bias(), ref.intercept)
		}
		if s.SupportVectors() != ref.nSV {
			t.Errorf("C=%v: %d support vectors, libsvm %d", ref.C, s.SupportVectors(), ref.nSV)
		}
	}
}

// Predict (support vectors only, blocked BLAS, table exponential) equals the fitted function
// summed over all training points by its definition.
func TestPredictMatchesDefinition(t *testing.T) {
	x, y := randomProblem(7, 150, 5)
	xv, _ := randomProblem(8, 77, 5)
	h := hyperFor(5, 7)
	s := SVR{PredictBlock: 16}
	if err := s.Fit(x, y, h); err != nil {
		t.Fatal(err)
	}
	if s.SupportVectors() == 0 || s.SupportVectors() == 150 {
		t.Fatalf("%d support vectors: the test needs some but not all", s.SupportVectors())
	}
	// Beta over all training points, from a second solve on the naive kernel.
	k := naiveGram(x, x, h)
	sym := mat.NewSymDense(150, nil)
	for i := 0; i < 150; i++ {
		for j := i; j < 150; j++ {
			sym.SetSym(i, j, k.At(i, j))
		}
	}
	d, err := solveDual(sym, y, params{C: h.C, Epsilon: h.Epsilon})
	if err != nil {
		t.Fatal(err)
	}
	kv := naiveGram(xv, x, h)
	// float64 cross products agree to rounding; float32 ones move each kernel value's
	// exponent by about 2 gamma |u.s| 2^-24 (here below 1e-6), so the prediction by at most
	// that times sum |beta|.
	for _, c := range []struct {
		single bool
		tol    float64
	}{{false, 1e-10}, {true, 1e-5}} {
		s.SinglePrecisionPredict = c.single
		got := make([]float64, 77)
		if err := s.Predict(got, xv); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range got {
			want := d.Bias + mat.Dot(kv.RowView(i), mat.NewVecDense(150, d.Beta))
			worst = max(worst, math.Abs(got[i]-want))
			if math.Abs(got[i]-want) > c.tol {
				t.Errorf("single precision %v: prediction %d = %.15g, definition %.15g", c.single, i, got[i], want)
			}
		}
		t.Logf("single precision %v: largest difference %.3g", c.single, worst)
	}
}

// The row cache (used when the matrix exceeds the budget) gives the same fit as the full
// matrix. Both solve to a tight tolerance, since rounding differences between the two ways
// of forming a kernel value may change the SMO path.
func TestRowCacheMatchesFullMatrix(t *testing.T) {
	x, y := randomProblem(9, 200, 4)
	xv, _ := randomProblem(10, 50, 4)
	h := hyperFor(4, 9)
	full := SVR{Tol: 1e-10}
	cached := SVR{Tol: 1e-10, CacheBytes: 8 * 200 * 5} // five rows
	pf, pc := make([]float64, 50), make([]float64, 50)
	for _, c := range []struct {
		s *SVR
		p []float64
	}{{&full, pf}, {&cached, pc}} {
		if err := c.s.Fit(x, y, h); err != nil {
			t.Fatal(err)
		}
		if err := c.s.Predict(c.p, xv); err != nil {
			t.Fatal(err)
		}
	}
	for i := range pf {
		if math.Abs(pf[i]-pc[i]) > 1e-8 {
			t.Errorf("prediction %d: %v (full) vs %v (row cache)", i, pf[i], pc[i])
		}
	}
}

func TestGramMatchesDefinition(t *testing.T) {
	x, _ := randomProblem(11, 37, 6)
	h := hyperFor(6, 11)
	s := SVR{}
	s.invLengthscale = make([]float64, 6)
	for j, l := range h.Lengthscales {
		s.invLengthscale[j] = 1 / l
	}
	u, norms := make([]float64, 37*6), make([]float64, 37)
	scaleRows(u, norms, x.RawMatrix(), s.invLengthscale)
	g := make([]float64, 37*37)
	gramRBF(g, u, kernelShift(make([]float64, 37), norms, h.Gamma), 37, 6, h.Gamma)
	want := naiveGram(x, x, h)
	for i := 0; i < 37; i++ {
		for j := 0; j < 37; j++ {
			if math.Abs(g[i*37+j]-want.At(i, j)) > 1e-13 {
				t.Fatalf("K[%d,%d] = %v, want %v", i, j, g[i*37+j], want.At(i, j))
			}
		}
	}
}

func TestMaxIterGuard(t *testing.T) {
	x, y := randomProblem(13, 60, 3)
	s := SVR{MaxIter: 3}
	err := s.Fit(x, y, hyperFor(3, 13))
	if !errors.Is(err, errMaxIter) {
		t.Fatalf("error %v, want errMaxIter", err)
	}
	if err := s.Predict(make([]float64, 1), x.Slice(0, 1, 0, 3).(*mat.Dense)); err == nil {
		t.Error("Predict after a failed fit: no error")
	}
}

func TestFitRejectsBadInput(t *testing.T) {
	x, y := randomProblem(14, 10, 2)
	good := Hyper{Lengthscales: []float64{1, 1}, Gamma: 1, Epsilon: 0.1, C: 1}
	for name, h := range map[string]Hyper{
		"length-scale count": {Lengthscales: []float64{1}, Gamma: 1, Epsilon: 0.1, C: 1},
		"zero length-scale":  {Lengthscales: []float64{1, 0}, Gamma: 1, Epsilon: 0.1, C: 1},
		"NaN gamma":          {Lengthscales: []float64{1, 1}, Gamma: math.NaN(), Epsilon: 0.1, C: 1},
		"negative C":         {Lengthscales: []float64{1, 1}, Gamma: 1, Epsilon: 0.1, C: -1},
		"negative epsilon":   {Lengthscales: []float64{1, 1}, Gamma: 1, Epsilon: -0.1, C: 1},
	} {
		var s SVR
		if err := s.Fit(x, y, h); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	var s SVR
	if err := s.Fit(x, y[:9], good); err == nil {
		t.Error("target count mismatch: no error")
	}
}

func ExampleSVR() {
	// y = x^2 on a grid, fitted with a wide tube.
	x := mat.NewDense(21, 1, nil)
	y := make([]float64, 21)
	for i := range y {
		v := float64(i)/10 - 1
		x.Set(i, 0, v)
		y[i] = v * v
	}
	var model SVR
	if err := model.Fit(x, y, Hyper{Lengthscales: []float64{0.5}, Gamma: 0.5, Epsilon: 0.05, C: 10}); err != nil {
		fmt.Println(err)
		return
	}
	pred := make([]float64, 1)
	if err := model.Predict(pred, mat.NewDense(1, 1, []float64{0.5})); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("f(0.5) = %.1f (true 0.25, tube 0.05)\n", pred[0])
	// Output: f(0.5) = 0.3 (true 0.25, tube 0.05)
}
