package svr

import (
	"cmp"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"dpgibo/internal/fastexp"
)

// defaultCacheBytes is the default kernel-cache budget of an SVR: the full n x n training
// kernel matrix is cached when 8 n^2 bytes fit (n <= 5792); otherwise rows are computed on
// demand and the most recently used ones kept within the budget.
const defaultCacheBytes = 256 << 20

// defaultPredictBlock is the default number of rows Predict handles per BLAS product.
const defaultPredictBlock = 128

// Hyper are the hyperparameters of one epsilon-SVR fit with the ARD-RBF kernel
// k(x, x') = exp(-Gamma sum_j (x_j - x'_j)^2 / Lengthscales[j]^2), in natural units.
type Hyper struct {
	// Lengthscales are l_j > 0, one per feature.
	Lengthscales []float64
	// Gamma is the global bandwidth (> 0).
	Gamma float64
	// Epsilon is the half-width of the insensitive tube (>= 0).
	Epsilon float64
	// C is the box constraint (> 0).
	C float64
}

func (h Hyper) check(p int) error {
	if len(h.Lengthscales) != p {
		return fmt.Errorf("svr: %d length-scales for %d features", len(h.Lengthscales), p)
	}
	for j, l := range h.Lengthscales {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("svr: length-scale %d must be finite and > 0, got %v", j, l)
		}
	}
	if !(h.Gamma > 0) || math.IsInf(h.Gamma, 0) {
		return fmt.Errorf("svr: gamma must be finite and > 0, got %v", h.Gamma)
	}
	return nil
}

// SVR is an epsilon-support-vector regressor with the ARD-RBF kernel, fitted by SMO with
// second-order working-set selection (see the solver's documentation). It keeps
// its buffers between fits, so refitting with new hyperparameters allocates nothing once
// the sizes are known. The zero value is ready to use. An SVR is not safe for concurrent
// use.
//
// Only the support vectors (Beta != 0) are kept for prediction, pre-scaled by 1/l_j.
type SVR struct {
	// Tol is the SMO stopping tolerance on the KKT gap; 0 means 1e-3.
	Tol float64
	// MaxIter is the SMO iteration guard; 0 means max(10 000 000, 100 n) for n training
	// points.
	MaxIter int
	// CacheBytes is the kernel-cache budget; 0 means 256 MiB.
	CacheBytes int
	// PredictBlock is the number of rows per BLAS product in Predict; 0 means 128.
	PredictBlock int
	// SinglePrecisionPredict computes the prediction's cross products u.s in float32
	// (one Sgemm per block, from the pre-scaled rows and support vectors rounded to
	// float32) instead of float64: about twice as fast on that product, the largest of an
	// evaluation. The squared norms, the exponentials and the sums stay in float64; the
	// kernel values move by about 1e-7 relative (exp of an argument off by
	// 2 gamma |u.s| 2^-24), the predictions by far less than the fit's tolerance.
	SinglePrecisionPredict bool

	solver smo

	// Training buffers.
	invLengthscale []float64
	scaled, norms  []float64
	gram, shift    []float64
	diag           []float64

	// The fitted model.
	fitted  bool
	p, nSV  int
	sv      []float64 // nSV x p, pre-scaled support vectors
	svNorms []float64
	svArg   []float64 // -gamma |s|^2 per support vector
	coef    []float64
	bias    float64
	gamma   float64
	iter    int
	gap     float64

	// Prediction buffers.
	blockScaled, blockNorms, blockCross []float64
	blockBase                           []float64
	sv32, blockScaled32                 []float32
	blockCross32                        []float32
}

// grow returns buf resized to n, reallocating only when its capacity is short.
func grow[T float32 | float64](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// Fit trains the SVR on the rows of X with targets y.
func (s *SVR) Fit(X *mat.Dense, y []float64, h Hyper) error {
	n, p := X.Dims()
	if n != len(y) {
		return fmt.Errorf("svr: %d training rows but %d targets", n, len(y))
	}
	if err := h.check(p); err != nil {
		return err
	}
	s.fitted = false
	x := X.RawMatrix()
	s.invLengthscale = grow(s.invLengthscale, p)
	for j, l := range h.Lengthscales {
		s.invLengthscale[j] = 1 / l
	}
	s.scaled = grow(s.scaled, n*p)
	s.norms = grow(s.norms, n)
	scaleRows(s.scaled, s.norms, x, s.invLengthscale)
	s.diag = grow(s.diag, n)
	for i := range s.diag {
		s.diag[i] = 1
	}

	budget := s.CacheBytes
	budget = cmp.Or(budget, defaultCacheBytes)
	s.shift = kernelShift(grow(s.shift, n), s.norms, h.Gamma)
	var rows kernelRows
	if 8*n*n <= budget {
		s.gram = grow(s.gram, n*n)
		gramRBF(s.gram, s.scaled, s.shift, n, p, h.Gamma)
		rows = denseRows{data: s.gram, n: n}
	} else {
		rows = newRowCache(s.scaled, s.shift, n, p, h.Gamma, budget/(8*n))
	}
	dual, err := s.solver.solve(rows, s.diag, y, params{C: h.C, Epsilon: h.Epsilon, Tol: s.Tol, MaxIter: s.MaxIter})
	if err != nil {
		return err
	}

	// Keep the support vectors only.
	nSV := 0
	for _, b := range dual.Beta {
		if b != 0 {
			nSV++
		}
	}
	s.sv = grow(s.sv, nSV*p)
	s.svNorms = grow(s.svNorms, nSV)
	s.coef = grow(s.coef, nSV)
	k := 0
	for i, b := range dual.Beta {
		if b == 0 {
			continue
		}
		copy(s.sv[k*p:(k+1)*p], s.scaled[i*p:(i+1)*p])
		s.svNorms[k] = s.norms[i]
		s.coef[k] = b
		k++
	}
	s.p, s.nSV = p, nSV
	s.bias, s.gamma = dual.Bias, h.Gamma
	s.iter, s.gap = dual.Iter, dual.Gap
	s.fitted = true
	return nil
}

// Predict writes the fitted function at the rows of X into dst (len(dst) = rows of X). The
// rows are handled in blocks: each block is pre-scaled, multiplied with the support vectors
// in one Gemm, and the kernel values are summed with the dual coefficients as they are
// formed.
func (s *SVR) Predict(dst []float64, X *mat.Dense) error {
	if !s.fitted {
		return fmt.Errorf("svr: Predict before a successful Fit")
	}
	m, p := X.Dims()
	if p != s.p {
		return fmt.Errorf("svr: %d features to predict, fitted on %d", p, s.p)
	}
	if len(dst) != m {
		return fmt.Errorf("svr: %d predictions requested into a slice of %d", m, len(dst))
	}
	if s.nSV == 0 {
		for i := range dst {
			dst[i] = s.bias
		}
		return nil
	}
	block := s.PredictBlock
	if block <= 0 {
		block = defaultPredictBlock
	}
	block = min(block, m)
	s.blockScaled = grow(s.blockScaled, block*p)
	s.blockNorms = grow(s.blockNorms, block)
	// exp(-gamma |u - s|^2) = exp(c_u + a_s + 2 gamma u.s) with c_u = -gamma |u|^2 and
	// a_s = -gamma |s|^2; the factor 2 gamma is applied by the Gemm.
	s.svArg = kernelShift(grow(s.svArg, s.nSV), s.svNorms, s.gamma)
	x := X.RawMatrix()
	svs := blas64.General{Rows: s.nSV, Cols: p, Stride: p, Data: s.sv}
	var svs32 blas32.General
	if s.SinglePrecisionPredict {
		s.sv32 = grow(s.sv32, s.nSV*p)
		for i, v := range s.sv[:s.nSV*p] {
			s.sv32[i] = float32(v)
		}
		svs32 = blas32.General{Rows: s.nSV, Cols: p, Stride: p, Data: s.sv32}
		s.blockScaled32 = grow(s.blockScaled32, block*p)
		s.blockCross32 = grow(s.blockCross32, block*s.nSV)
		s.blockBase = grow(s.blockBase, block)
	} else {
		s.blockCross = grow(s.blockCross, block*s.nSV)
	}
	for start := 0; start < m; start += block {
		rows := min(block, m-start)
		sub := blas64.General{Rows: rows, Cols: p, Stride: x.Stride, Data: x.Data[start*x.Stride:]}
		scaleRows(s.blockScaled, s.blockNorms, sub, s.invLengthscale)
		if s.SinglePrecisionPredict {
			s.predictBlock32(dst[start:start+rows], svs32)
		} else {
			s.predictBlock64(dst[start:start+rows], svs)
		}
	}
	return nil
}

// predictBlock64 predicts the len(dst) rows held in the block buffers (pre-scaled rows and
// squared norms) with float64 cross products: one Gemm (rows x support vectors), the kernel
// rows in place, then the sums with the coefficients.
func (s *SVR) predictBlock64(dst []float64, svs blas64.General) {
	rows, p := len(dst), s.p
	a := blas64.General{Rows: rows, Cols: p, Stride: p, Data: s.blockScaled}
	c := blas64.General{Rows: rows, Cols: s.nSV, Stride: s.nSV, Data: s.blockCross}
	blas64.Gemm(blas.NoTrans, blas.Trans, 2*s.gamma, a, svs, 0, c)
	for r := 0; r < rows; r++ {
		cross := s.blockCross[r*s.nSV : (r+1)*s.nSV]
		fastexp.KernelRow(cross, cross, s.svArg, -s.gamma*s.blockNorms[r])
	}
	s.sumKernelRows(dst, s.blockCross[:rows*s.nSV])
}

// predictBlock32 is predictBlock64 with float32 cross products, laid out one support
// vector per row (support vectors x rows) so that fastexp.KernelSums forms the kernel
// values and sums them eight rows at a time.
func (s *SVR) predictBlock32(dst []float64, svs blas32.General) {
	rows, p := len(dst), s.p
	for i, v := range s.blockScaled[:rows*p] {
		s.blockScaled32[i] = float32(v)
	}
	a := blas32.General{Rows: rows, Cols: p, Stride: p, Data: s.blockScaled32}
	c := blas32.General{Rows: s.nSV, Cols: rows, Stride: rows, Data: s.blockCross32}
	blas32.Gemm(blas.NoTrans, blas.Trans, float32(2*s.gamma), svs, a, 0, c)
	base := kernelShift(s.blockBase[:rows], s.blockNorms[:rows], s.gamma)
	fastexp.KernelSums(dst, s.blockCross32, rows, base, s.svArg, s.coef[:s.nSV], s.bias)
}

// sumKernelRows writes b + sum_k coef_k K_rk into dst[r] for each row r of the kernel
// values K (len(dst) rows of nSV, row-major), every sum taken in the order of k. Four rows
// are summed side by side: each row's additions form one chain of dependent adds, and four
// independent chains keep the floating-point units busy without changing any sum.
func (s *SVR) sumKernelRows(dst, K []float64) {
	n, coef := s.nSV, s.coef[:s.nSV]
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		k0, k1, k2, k3 := K[r*n:(r+1)*n], K[(r+1)*n:(r+2)*n], K[(r+2)*n:(r+3)*n], K[(r+3)*n:(r+4)*n]
		f0, f1, f2, f3 := s.bias, s.bias, s.bias, s.bias
		for k, c := range coef {
			f0 += c * k0[k]
			f1 += c * k1[k]
			f2 += c * k2[k]
			f3 += c * k3[k]
		}
		dst[r], dst[r+1], dst[r+2], dst[r+3] = f0, f1, f2, f3
	}
	for ; r < len(dst); r++ {
		f := s.bias
		for k, c := range coef {
			f += c * K[r*n+k]
		}
		dst[r] = f
	}
}

// SupportVectors returns the number of support vectors of the last fit.
func (s *SVR) SupportVectors() int { return s.nSV }

// Bias returns b of the last fit.
func (s *SVR) Bias() float64 { return s.bias }

// Iterations returns the number of SMO steps of the last fit.
func (s *SVR) Iterations() int { return s.iter }

// Gap returns the final KKT gap of the last fit (below the tolerance).
func (s *SVR) Gap() float64 { return s.gap }
