package svr

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	mathbits "math/bits"

	"gonum.org/v1/gonum/mat"
)

// defaultTol is the default stopping tolerance of the SMO solver: the fit stops when the
// maximal violation of the KKT conditions (dual.Gap) is below it. It is the usual 1e-3 of
// libsvm and scikit-learn, in units of the target.
const defaultTol = 1e-3

// defaultMaxIter is the default iteration guard of the SMO solver for n training points:
// max(10 000 000, 100 n). Reaching it is an error.
func defaultMaxIter(n int) int { return max(10_000_000, 100*n) }

// tau replaces a non-positive curvature in the working-set selection and the two-variable
// step, as in Fan, Chen and Lin (2005).
const tau = 1e-12

// errMaxIter is returned (wrapped) when the SMO solver reaches its iteration guard.
var errMaxIter = errors.New("svr: SMO reached its iteration limit before the KKT gap fell below the tolerance")

// params configure one solve of the epsilon-SVR dual.
type params struct {
	// C is the box constraint (> 0): 0 <= alpha_k, alpha*_k <= C.
	C float64
	// Epsilon is the half-width of the insensitive tube (>= 0).
	Epsilon float64
	// Tol is the stopping tolerance on the KKT gap; 0 means defaultTol.
	Tol float64
	// MaxIter is the iteration guard; 0 means defaultMaxIter(n).
	MaxIter int
}

func (p params) check() error {
	if !(p.C > 0) || math.IsInf(p.C, 0) {
		return fmt.Errorf("svr: C must be finite and > 0, got %v", p.C)
	}
	if !(p.Epsilon >= 0) || math.IsInf(p.Epsilon, 0) {
		return fmt.Errorf("svr: epsilon must be finite and >= 0, got %v", p.Epsilon)
	}
	if p.Tol < 0 || math.IsNaN(p.Tol) {
		return fmt.Errorf("svr: tolerance must be >= 0, got %v", p.Tol)
	}
	if p.MaxIter < 0 {
		return fmt.Errorf("svr: MaxIter must be >= 0, got %d", p.MaxIter)
	}
	return nil
}

// dual is the solution of the epsilon-SVR dual returned by the solver. The fitted function
// is f(x) = sum_k Beta[k] k(x_k, x) + Bias.
type dual struct {
	// Beta[k] = alpha_k - alpha*_k; the support vectors are the k with Beta[k] != 0.
	Beta []float64
	// Bias is b, from the KKT conditions: the mean of the free variables' values, or the
	// midpoint of the feasible interval when no variable is free.
	Bias float64
	// Iter is the number of SMO steps taken.
	Iter int
	// Gap is the final KKT gap, the largest violation of the optimality conditions: the
	// largest residual-minus-tube value z_k - f_k -+ epsilon over the variables that may
	// still grow, minus the smallest over those that may still shrink (bias excluded). It
	// is <= 0 at an exact optimum and below Tol on success, in units of the target.
	Gap float64
}

// kernelRows gives the solver rows of the n x n kernel matrix. The slice returned by row
// must stay valid until row has been called twice more.
type kernelRows interface {
	row(i int) []float64
}

// denseRows serves rows of a full n x n row-major matrix.
type denseRows struct {
	data []float64
	n    int
}

func (d denseRows) row(i int) []float64 { return d.data[i*d.n : (i+1)*d.n] }

// smo holds the solver's state and buffers, reused across solves.
//
// The problem. With kernel matrix K, targets z and beta = alpha - alpha*, the epsilon-SVR
// dual is
//
//	min  1/2 beta' K beta + eps sum_k (alpha_k + alpha*_k) - z' beta
//	s.t. sum_k beta_k = 0,  0 <= alpha_k, alpha*_k <= C.
//
// Written over the 2n variables a = (alpha, alpha*) with signs s = (+1, ..., -1, ...) it is
// the standard form min 1/2 a'Qa + p'a, s'a = 0, 0 <= a <= C, with Q_uv = s_u s_v K and
// p = (eps - z, eps + z). Its gradient G = Qa + p depends on a only through the residual
// r = z - K beta: -s_u G_u equals r_k - eps for alpha_k and r_k + eps for alpha*_k. The
// solver keeps r up to date and never stores G.
//
// KKT conditions. Let "up" be the variables that may move so that -s G grows (alpha_k < C,
// alpha*_k > 0) and "low" those that may move the other way (alpha_k > 0, alpha*_k < C).
// With m = max over up of -s_u G_u and M = min over low, a feasible a is optimal iff
// m <= M; the gap m - M is what Tol bounds.
//
// Working set (second order, Fan, Chen and Lin 2005). i is the maximiser of m. Among the
// low variables t with -s_t G_t < m, j maximises b^2/eta with b = m - (-s_t G_t) and
// eta = K_ii + K_tt - 2 K_it (tau when not positive): the decrease of the objective by
// the exact step on the pair, ignoring the box.
//
// Step. Moving alpha-type i up and j down by delta (a_i += s_i delta, a_j -= s_j delta)
// keeps s'a = 0, adds delta to beta of i's point and subtracts it from j's, and changes the
// objective by -delta b + delta^2 eta / 2, so delta = min(b/eta, room of i, room of j) and
// r -= delta (K_i - K_j).
type smo struct {
	alpha, alphaStar, resid, beta []float64
	// Buffers of selectLow's vector path: eta_t and the gains b of the two candidates
	// of each point, and per 8 points a bit mask of the candidates that qualify.
	eta, gainUp, gainDown []float64
	qualUp, qualDown      []uint8
}

func (s *smo) resize(n int) {
	if cap(s.alpha) < n {
		s.alpha = make([]float64, n)
		s.alphaStar = make([]float64, n)
		s.resid = make([]float64, n)
		s.beta = make([]float64, n)
	}
	s.alpha, s.alphaStar = s.alpha[:n], s.alphaStar[:n]
	s.resid, s.beta = s.resid[:n], s.beta[:n]
	if vectorSMO {
		s.eta, s.gainUp, s.gainDown = grow(s.eta, n), grow(s.gainUp, n), grow(s.gainDown, n)
		if cap(s.qualUp) < n/8 {
			s.qualUp, s.qualDown = make([]uint8, n/8), make([]uint8, n/8)
		}
		s.qualUp, s.qualDown = s.qualUp[:n/8], s.qualDown[:n/8]
	}
}

// solve runs SMO from a = 0 on the n x n kernel given by rows and diag (K_kk) with targets
// z. The returned dual's Beta aliases s.beta.
func (s *smo) solve(rows kernelRows, diag, z []float64, p params) (dual, error) {
	if err := p.check(); err != nil {
		return dual{}, err
	}
	n := len(z)
	if n == 0 {
		return dual{}, errors.New("svr: no training points")
	}
	if len(diag) != n {
		return dual{}, fmt.Errorf("svr: kernel diagonal has %d entries for %d points", len(diag), n)
	}
	tol := p.Tol
	tol = cmp.Or(tol, defaultTol)
	maxIter := p.MaxIter
	if maxIter == 0 {
		maxIter = defaultMaxIter(n)
	}
	s.resize(n)
	alpha, alphaStar, resid := s.alpha, s.alphaStar, s.resid
	for k := range alpha {
		alpha[k], alphaStar[k] = 0, 0
	}
	copy(resid, z)
	C, eps := p.C, p.Epsilon

	iter := 0
	var gap float64
	for {
		// i: maximiser of -s G over the up set; M: minimum over the low set.
		up, low, iUp, iStar := selectUp(resid, alpha, alphaStar, C, eps)
		gap = up - low
		if iUp < 0 || gap < tol {
			break
		}
		if iter >= maxIter {
			return dual{}, fmt.Errorf("%w (%d iterations, gap %.3g, tolerance %.3g)", errMaxIter, iter, gap, tol)
		}
		iter++

		// j: second-order choice among the low variables below up. The score b^2/eta is
		// compared as bestB2*eta < b^2*bestEta to avoid a division per candidate.
		ki := rows.row(iUp)
		bestB, bestEta, jLow, jStar := s.selectLow(resid, alpha, alphaStar, diag, ki, diag[iUp], up, C, eps)
		if jLow < 0 {
			// No violating partner although the gap exceeds tol: cannot happen for a
			// feasible point (low holds a value below up); stop defensively.
			break
		}

		// Step on the pair, clipped to the box.
		roomI := C - alpha[iUp]
		if iStar {
			roomI = alphaStar[iUp]
		}
		roomJ := alpha[jLow]
		if jStar {
			roomJ = C - alphaStar[jLow]
		}
		delta := bestB / bestEta
		if delta > roomI {
			delta = roomI
		}
		if delta > roomJ {
			delta = roomJ
		}
		if iStar {
			alphaStar[iUp] -= delta
			if delta == roomI {
				alphaStar[iUp] = 0
			}
		} else {
			alpha[iUp] += delta
			if delta == roomI {
				alpha[iUp] = C
			}
		}
		if jStar {
			alphaStar[jLow] += delta
			if delta == roomJ {
				alphaStar[jLow] = C
			}
		} else {
			alpha[jLow] -= delta
			if delta == roomJ {
				alpha[jLow] = 0
			}
		}
		if jLow != iUp {
			kj := rows.row(jLow)
			ki = rows.row(iUp) // may have been evicted by the call above
			updateResid(resid, ki, kj, delta)
		}
	}

	// Bias from the KKT conditions.
	sum, free := 0.0, 0
	for k, r := range resid {
		if alpha[k] > 0 && alpha[k] < C {
			sum += r - eps
			free++
		}
		if alphaStar[k] > 0 && alphaStar[k] < C {
			sum += r + eps
			free++
		}
	}
	var bias float64
	if free > 0 {
		bias = sum / float64(free)
	} else {
		up, low := math.Inf(-1), math.Inf(1)
		for k, r := range resid {
			if alpha[k] < C {
				up = math.Max(up, r-eps)
			} else {
				low = math.Min(low, r-eps)
			}
			if alphaStar[k] > 0 {
				up = math.Max(up, r+eps)
			} else {
				low = math.Min(low, r+eps)
			}
		}
		switch {
		case math.IsInf(up, -1):
			bias = low
		case math.IsInf(low, 1):
			bias = up
		default:
			bias = (up + low) / 2
		}
	}
	for k := range s.beta {
		s.beta[k] = alpha[k] - alphaStar[k]
	}
	return dual{Beta: s.beta, Bias: bias, Iter: iter, Gap: gap}, nil
}

// selectUp returns m = max over the up set of -s G (the value va = r - eps of alpha_k < C
// or vs = r + eps of alpha*_k > 0), its index and type, and M = min over the low set, the
// scan going through k in order and alpha before alpha* at each k, the first of equal
// values winning. The vector path (AVX-512) returns the same values and index.
func selectUp(resid, alpha, alphaStar []float64, C, eps float64) (up, low float64, iUp int, iStar bool) {
	up, low, iUp = math.Inf(-1), math.Inf(1), -1
	start := 0
	if vectorSMO {
		start, up, low, iUp, iStar = selectUpVector(resid, alpha, alphaStar, C, eps)
	}
	for k := start; k < len(resid); k++ {
		r := resid[k]
		va, vs := r-eps, r+eps
		if alpha[k] < C && va > up {
			up, iUp, iStar = va, k, false
		}
		if alphaStar[k] > 0 && vs > up {
			up, iUp, iStar = vs, k, true
		}
		if alpha[k] > 0 && va < low {
			low = va
		}
		if alphaStar[k] < C && vs < low {
			low = vs
		}
	}
	return up, low, iUp, iStar
}

// selectLow returns the second-order choice j among the low variables below up, with its
// gain b and curvature eta: the candidates are scanned in order (alpha before alpha* at
// each point) and one replaces the best so far when b^2 eta_best > b_best^2 eta, the score
// b^2/eta compared without a division. ki is the kernel row of i and dii = K_ii. The
// vector path computes eta and b for every point eight at a time and then runs the same
// comparisons, in the same order, over the qualifying candidates only.
func (s *smo) selectLow(resid, alpha, alphaStar, diag, ki []float64, dii, up, C, eps float64) (bestB, bestEta float64, jLow int, jStar bool) {
	bestB, bestB2, bestEta := 0.0, 0.0, 1.0
	jLow = -1
	start := 0
	if vectorSMO {
		start = s.qualify(resid, alpha, alphaStar, diag, ki, dii, up, C, eps)
		for blk := 0; blk < start/8; blk++ {
			for bits := s.qualUp[blk] | s.qualDown[blk]; bits != 0; bits &= bits - 1 {
				lane := uint8(1) << mathbits.TrailingZeros8(bits)
				t := blk*8 + mathbits.TrailingZeros8(bits)
				eta := s.eta[t]
				if s.qualUp[blk]&lane != 0 {
					if b := s.gainUp[t]; b*b*bestEta > bestB2*eta {
						bestB, bestB2, bestEta, jLow, jStar = b, b*b, eta, t, false
					}
				}
				if s.qualDown[blk]&lane != 0 {
					if b := s.gainDown[t]; b*b*bestEta > bestB2*eta {
						bestB, bestB2, bestEta, jLow, jStar = b, b*b, eta, t, true
					}
				}
			}
		}
	}
	for t := start; t < len(resid); t++ {
		r := resid[t]
		eta := dii + diag[t] - 2*ki[t]
		if eta <= 0 {
			eta = tau
		}
		if alpha[t] > 0 {
			if b := up - (r - eps); b > 0 && b*b*bestEta > bestB2*eta {
				bestB, bestB2, bestEta, jLow, jStar = b, b*b, eta, t, false
			}
		}
		if alphaStar[t] < C {
			if b := up - (r + eps); b > 0 && b*b*bestEta > bestB2*eta {
				bestB, bestB2, bestEta, jLow, jStar = b, b*b, eta, t, true
			}
		}
	}
	return bestB, bestEta, jLow, jStar
}

// updateResid does resid_m -= delta (ki_m - kj_m) for every m (eight at a time on the
// vector path, with the same operations).
func updateResid(resid, ki, kj []float64, delta float64) {
	start := 0
	if vectorSMO {
		start = updateResidVector(resid, ki, kj, delta)
	}
	for m := start; m < len(resid); m++ {
		resid[m] -= delta * (ki[m] - kj[m])
	}
}

// solveDual solves the epsilon-SVR dual for a given symmetric n x n kernel matrix (any
// positive semi-definite kernel) and targets y, from alpha = alpha* = 0. The returned Beta
// is a fresh slice.
func solveDual(gram mat.Symmetric, y []float64, p params) (dual, error) {
	n := gram.SymmetricDim()
	if n != len(y) {
		return dual{}, fmt.Errorf("svr: kernel matrix is %dx%d for %d targets", n, n, len(y))
	}
	full := make([]float64, n*n)
	diag := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			full[i*n+j] = gram.At(i, j)
		}
		diag[i] = full[i*n+i]
	}
	var s smo
	d, err := s.solve(denseRows{data: full, n: n}, diag, y, p)
	if err != nil {
		return dual{}, err
	}
	d.Beta = append([]float64(nil), d.Beta...)
	return d, nil
}
