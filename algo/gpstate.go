package algo

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// errNotPD reports a kernel matrix (or Schur complement) that is not numerically positive
// definite.
var errNotPD = errors.New("algo: kernel matrix is not positive definite (duplicate design points with a tiny noise variance?)")

// gradState is the surrogate's view of a design D at a point theta. It holds the Cholesky
// factor L of k(D,D) + noiseVar*I, grown by block (Schur-complement) updates, and the
// theta-dependent quantities every gradient-posterior formula needs:
//
//	P    = (k(D,D) + noiseVar I)^{-1} J^T   (m x d), J^T row r = grad_theta k(theta, D_r)
//	base = tr(grad k grad^T) - tr(J P)       the trace of the posterior gradient covariance.
//
// P is the matrix W of GradientMean: the per-user posterior-mean gradients are Y P.
type gradState struct {
	k        RBF
	noiseVar float64
	d        int
	m        int       // points in D
	capacity int       // allocated rows of pts and L
	pts      []float64 // D, capacity x d row-major
	chol     []float64 // L, capacity x capacity, lower triangle of the leading m x m block
	cholT    []float64 // L^T, capacity x capacity, upper triangle: row k holds column k of L
	theta    []float64
	p        []float64 // P, capacity x d row-major (first m rows valid)
	base     float64
	work     acqWork
}

func newGradState(k RBF, noiseVar float64, d int) *gradState {
	return &gradState{k: k, noiseVar: noiseVar, d: d, theta: make([]float64, d)}
}

func (s *gradState) lower() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: s.m, Stride: max(s.capacity, 1), Data: s.chol}
}

func (s *gradState) design() blas64.General {
	return blas64.General{Rows: s.m, Cols: s.d, Stride: s.d, Data: s.pts[:s.m*s.d]}
}

func (s *gradState) pMat() blas64.General {
	return blas64.General{Rows: s.m, Cols: s.d, Stride: s.d, Data: s.p[:s.m*s.d]}
}

// reserve makes room for n points in total, copying L into a larger stride if needed.
func (s *gradState) reserve(n int) {
	if n <= s.capacity {
		return
	}
	c := max(n, 2*s.capacity, 16)
	pts := make([]float64, c*s.d)
	copy(pts, s.pts[:s.m*s.d])
	p := make([]float64, c*s.d)
	copy(p, s.p[:s.m*s.d])
	chol := make([]float64, c*c)
	cholT := make([]float64, c*c)
	for i := 0; i < s.m; i++ {
		copy(chol[i*c:i*c+i+1], s.chol[i*s.capacity:i*s.capacity+i+1])
		copy(cholT[i*c+i:i*c+s.m], s.cholT[i*s.capacity+i:i*s.capacity+s.m])
	}
	s.pts, s.p, s.chol, s.cholT, s.capacity = pts, p, chol, cholT, c
}

// solveL overwrites x (m x n) with L^{-1} x, and solveLT with L^{-T} x, by Dtrsm, except
// for one column (the greedy design's case, thousands of solves per iteration). With
// gonumOrderSolves (the pure-Go build) one column is solved column-oriented by axpys along
// rows of L^T (forward) and L (backward): gonum's Dtrsm operations in Dtrsm's order, so the
// results are bitwise Dtrsm's, without its function call per matrix entry. Otherwise (the
// openblas build) one column goes to OpenBLAS's Dtrsv. (A blocked several-column variant
// in Dtrsm's order, calling blas64.Axpy per entry pair, measured slower than Dtrsm.)
func (s *gradState) solveL(x blas64.General) {
	switch {
	case x.Cols == 1 && !gonumOrderSolves:
		blas64.Trsv(blas.NoTrans, s.lower(), blas64.Vector{N: s.m, Inc: x.Stride, Data: x.Data})
	case x.Cols == 1:
		m, cp := s.m, s.capacity
		v := x.Data[:m]
		for k := 0; k < m; k++ {
			v[k] *= 1 / s.chol[k*cp+k]
			if k+1 < m {
				blas64.Axpy(-v[k], vec(s.cholT[k*cp+k+1:k*cp+m]), vec(v[k+1:m]))
			}
		}
	default:
		blas64.Trsm(blas.Left, blas.NoTrans, 1, s.lower(), x)
	}
}

func (s *gradState) solveLT(x blas64.General) {
	switch {
	case x.Cols == 1 && !gonumOrderSolves:
		blas64.Trsv(blas.Trans, s.lower(), blas64.Vector{N: s.m, Inc: x.Stride, Data: x.Data})
	case x.Cols == 1:
		cp := s.capacity
		v := x.Data[:s.m]
		for k := s.m - 1; k >= 0; k-- {
			v[k] *= 1 / s.chol[k*cp+k]
			if k > 0 {
				blas64.Axpy(-v[k], vec(s.chol[k*cp:k*cp+k]), vec(v[:k]))
			}
		}
	default:
		blas64.Trsm(blas.Left, blas.Trans, 1, s.lower(), x)
	}
}

func vec(x []float64) blas64.Vector { return blas64.Vector{N: len(x), Inc: 1, Data: x} }

// reset factorises k(D,D)+noiseVar I from scratch for the rows of D.
func (s *gradState) reset(D blas64.General) error {
	s.m = 0
	s.reserve(D.Rows)
	if D.Rows == 0 {
		return nil
	}
	return s.grow(D)
}

// setTheta recomputes P and base at theta: two triangular solves, O(m^2 d).
func (s *gradState) setTheta(theta []float64) {
	copy(s.theta, theta)
	s.base = float64(s.d) * s.k.GradCov()
	if s.m == 0 {
		return
	}
	s.k.gradCross(s.p[:s.m*s.d], theta, s.design(), nil)
	pm := s.pMat()
	L := s.lower()
	blas64.Trsm(blas.Left, blas.NoTrans, 1, L, pm) // A = L^{-1} J^T
	for _, v := range pm.Data {
		s.base -= v * v
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, L, pm) // P = L^{-T} A
}

// acqWork holds the buffers of one acquisition evaluation, reused across calls.
type acqWork struct {
	kdz, c, h []float64 // m x b
	norms     []float64 // m + b
	szz       []float64 // b x b
	kz        []float64 // b
	e, q, v   []float64 // b x d (v: m x d)
	wd        []float64 // b x m
	wdD       []float64 // b x d
	u         []float64 // b x b
}

func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// block evaluates the acquisition alpha(z; D, theta) of section 3.1 for the b x d block z
// (row-major) by a Schur-complement update of the Cholesky factor of D: with
// C = L^{-1} k(D,z), S = k(z,z) + noiseVar I - C^T C and E = J_z^T - k(z,D) P,
//
//	alpha = base - tr(E^T S^{-1} E),
//
// which costs O(m^2 b + m b d + b^2 (m + d) + b^3) instead of O((m+b)^3). When grad is
// non-nil (b x d), it receives d alpha / d z. ok is false when S is not positive definite.
func (s *gradState) block(z []float64, b int, grad []float64) (alpha float64, ok bool) {
	alpha, ok = s.value(z, b)
	if ok && grad != nil {
		s.gradient(z, b, grad)
	}
	return alpha, ok
}

// value is the first half of block: alpha(z; D, theta) alone, leaving in s.work what
// gradient needs (C, k(D,z), k(z,z), the factor U of S and U^{-T} E).
func (s *gradState) value(z []float64, b int) (alpha float64, ok bool) {
	d, m := s.d, s.m
	w := &s.work
	zg := blas64.General{Rows: b, Cols: d, Stride: d, Data: z[:b*d]}

	// S = k(z,z) + noiseVar I - C^T C, stored in szz (b x b, lower used after Potrf).
	w.szz = grow(w.szz, b*b)
	szz := blas64.Symmetric{Uplo: blas.Upper, N: b, Stride: b, Data: w.szz}
	w.norms = grow(w.norms, m+b)
	s.k.gramRaw(szz, zg, s.noiseVar, w.norms)
	// Keep k(z,z) for the gradient before the update and Potrf overwrite it.
	w.u = grow(w.u, b*b)
	copy(w.u, w.szz)
	var kdz blas64.General
	if m > 0 {
		w.kdz = grow(w.kdz, m*b)
		w.c = grow(w.c, m*b)
		kdz = blas64.General{Rows: m, Cols: b, Stride: b, Data: w.kdz}
		s.k.crossRaw(kdz, s.design(), zg, w.norms)
		c := blas64.General{Rows: m, Cols: b, Stride: b, Data: w.c}
		copy(w.c, w.kdz)
		s.solveL(c) // C = L^{-1} k(D,z)
		blas64.Syrk(blas.Trans, -1, c, 1, szz)
	}
	// Potrf on the upper triangle gives U with S = U^T U; U^T is the lower factor L22.
	U, pd := lapack64.Potrf(szz)
	if !pd {
		return math.Inf(1), false
	}

	// E = J_z^T - k(z,D) P  (b x d).
	w.e = grow(w.e, b*d)
	w.kz = grow(w.kz, b)
	s.k.gradCross(w.e, s.theta, zg, w.kz)
	e := blas64.General{Rows: b, Cols: d, Stride: d, Data: w.e}
	if m > 0 {
		blas64.Gemm(blas.Trans, blas.NoTrans, -1, kdz, s.pMat(), 1, e)
	}
	// F = U^{-T} E; R = |F|_F^2.
	w.q = grow(w.q, b*d)
	copy(w.q, w.e)
	q := blas64.General{Rows: b, Cols: d, Stride: d, Data: w.q}
	blas64.Trsm(blas.Left, blas.Trans, 1, U, q)
	reduction := 0.0
	for _, v := range w.q {
		reduction += v * v
	}
	return s.base - reduction, true
}

// gradient is the second half of block: d alpha / d z into grad (b x d), for the z that the
// preceding call of value (with no state change in between) evaluated successfully.
func (s *gradState) gradient(z []float64, b int, grad []float64) {
	d, m := s.d, s.m
	w := &s.work
	il2 := 1 / (s.k.Lengthscale * s.k.Lengthscale)
	U := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: b, Stride: b, Data: w.szz[:b*b]}
	q := blas64.General{Rows: b, Cols: d, Stride: d, Data: w.q[:b*d]}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, U, q) // Q = S^{-1} E

	// dR = 2<Q, dJ_z^T> + <Gzd, dk(z,D)> - <Q Q^T, dk(z,z)>, Gzd = 2 Q (H Q - P)^T with
	// H = L^{-T} C = (k(D,D)+noiseVar I)^{-1} k(D,z); dalpha = -dR.
	for r := 0; r < b; r++ {
		zr := z[r*d : r*d+d]
		qr := w.q[r*d : r*d+d]
		g := grad[r*d : r*d+d]
		// Third term: 2 k(theta,z_r)/l^2 (Q_r - (theta - z_r)/l^2 <Q_r, theta - z_r>).
		dot := 0.0
		for j := range qr {
			dot += qr[j] * (s.theta[j] - zr[j])
		}
		kr := w.kz[r]
		for j := range g {
			g[j] = -2 * kr * il2 * (qr[j] - (s.theta[j]-zr[j])*il2*dot)
		}
	}
	// k(z,z) term: +(2/l^2) sum_q U_rq k_rq (z_r - z_q) in dR.
	for r := 0; r < b; r++ {
		for qi := r + 1; qi < b; qi++ {
			uq := 0.0
			for j := 0; j < d; j++ {
				uq += w.q[r*d+j] * w.q[qi*d+j]
			}
			coef := 2 * il2 * uq * w.u[r*b+qi]
			for j := 0; j < d; j++ {
				diff := z[r*d+j] - z[qi*d+j]
				grad[r*d+j] -= coef * diff
				grad[qi*d+j] += coef * diff
			}
		}
	}
	if m > 0 {
		// V = H Q - P (m x d).
		w.h = grow(w.h, m*b)
		copy(w.h, w.c)
		h := blas64.General{Rows: m, Cols: b, Stride: b, Data: w.h}
		s.solveLT(h)
		w.v = grow(w.v, m*d)
		copy(w.v, s.p[:m*d])
		v := blas64.General{Rows: m, Cols: d, Stride: d, Data: w.v}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, h, q, -1, v)
		// Gzd (b x m) = 2 Q V^T, then weighted by k(z_r, D_s) elementwise.
		w.wd = grow(w.wd, b*m)
		wd := blas64.General{Rows: b, Cols: m, Stride: m, Data: w.wd}
		blas64.Gemm(blas.NoTrans, blas.Trans, 2, q, v, 0, wd)
		for r := 0; r < b; r++ {
			row := w.wd[r*m : r*m+m]
			for sIdx := range row {
				row[sIdx] *= w.kdz[sIdx*b+r]
			}
		}
		// <Gzd, dk(z,D)> derivative: -(1/l^2) (rowsum(W)_r z_r - (W D)_r); into dalpha with +.
		// grad += (1/l^2) (rowsum_r z_r - W D).
		w.wdD = grow(w.wdD, b*d)
		wdD := blas64.General{Rows: b, Cols: d, Stride: d, Data: w.wdD}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, wd, s.design(), 0, wdD)
		for r := 0; r < b; r++ {
			rs := 0.0
			for _, v := range w.wd[r*m : r*m+m] {
				rs += v
			}
			for j := 0; j < d; j++ {
				grad[r*d+j] += il2 * (rs*z[r*d+j] - wdD.Data[r*d+j])
			}
		}
	}
}

// grow appends the block z (rows of Z) to D: the Cholesky factor gains the rows
// [C^T, L22] and P and base are updated at the current theta by the block-inverse formula
// P' = [P - H S^{-1} E; S^{-1} E], base' = base - tr(E^T S^{-1} E).
func (s *gradState) grow(Z blas64.General) error {
	b, d, m := Z.Rows, s.d, s.m
	if b == 0 {
		return nil
	}
	s.reserve(m + b)
	z := make([]float64, b*d)
	for r := 0; r < b; r++ {
		copy(z[r*d:r*d+d], Z.Data[r*Z.Stride:r*Z.Stride+d])
	}
	alpha, ok := s.block(z, b, nil)
	if !ok {
		return errNotPD
	}
	w := &s.work
	// After block: w.c = C (m x b), w.szz holds U (upper, S = U^T U), w.q = U^{-T} E.
	U := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: b, Stride: b, Data: w.szz}
	qg := blas64.General{Rows: b, Cols: d, Stride: d, Data: w.q}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, U, qg) // Q = S^{-1} E
	cp := s.capacity
	for r := 0; r < b; r++ {
		row := s.chol[(m+r)*cp : (m+r)*cp+m+r+1]
		for c := 0; c < m; c++ {
			row[c] = w.c[c*b+r]
		}
		for c := 0; c <= r; c++ {
			row[m+c] = w.szz[c*b+r]
		}
		for c, v := range row {
			s.cholT[c*cp+m+r] = v
		}
	}
	if m > 0 {
		w.h = grow(w.h, m*b)
		copy(w.h, w.c[:m*b])
		h := blas64.General{Rows: m, Cols: b, Stride: b, Data: w.h}
		s.solveLT(h)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, h, qg, 1, s.pMat())
	}
	copy(s.p[m*d:(m+b)*d], w.q[:b*d])
	copy(s.pts[m*d:(m+b)*d], z)
	s.m = m + b
	s.base = alpha
	return nil
}
