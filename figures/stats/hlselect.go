package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The Hodges-Lehmann estimates and intervals need a few order statistics (the median's one
// or two ranks, the k-th smallest and the k-th largest) of all pairwise differences a_i - b_j
// or of all Walsh averages. Materialising and sorting the n m (or n(n+1)/2) pairs costs
// O(n m log(n m)); the selection below costs O((n + m) log(n + m)) expected.
//
// The algorithm is Monahan's (J. F. Monahan, "Algorithm 616: Fast computation of the
// Hodges-Lehmann location estimator", ACM Transactions on Mathematical Software 10(3),
// 265-270, 1984), a randomised form of the selection in a sorted matrix of Johnson and
// Mizoguchi ("Selecting the Kth element in X + Y and X1 + X2 + ... + Xm", SIAM Journal on
// Computing 7(2), 147-153, 1978). The pairs form a matrix whose rows and columns are
// non-decreasing once the samples are sorted. Each row keeps a range of candidate columns,
// those whose value may still be the answer. A pivot drawn uniformly from the remaining
// candidates is ranked by counting, with one pointer that walks down the columns as the
// rows go up (a staircase), the pairs below it and the pairs at or below it, in O(rows +
// cols). Then either the pivot is the answer, or every candidate on the wrong side of it is
// dropped. As in Hoare's FIND, a uniform pivot leaves a constant fraction of the candidates
// in expectation, so O(log(n m)) rounds are expected.

// pairValues is a matrix of pair values, non-decreasing along each row and down each
// column: at(i, j) <= at(i, j+1) and at(i, j) <= at(i+1, j) wherever both are defined.
type pairValues interface {
	at(i, j int) float64
}

// differences is the matrix a[i] - b[j] with a sorted ascending and b descending. IEEE
// subtraction rounds the exact difference, which is monotone in each argument, and rounding
// is monotone, so the matrix is exactly monotone and holds exactly the values x - y of the
// original pairs.
type differences struct{ a, b []float64 }

func (d differences) at(i, j int) float64 { return d.a[i] - d.b[j] }

// halfSums is the matrix h[i] + h[j] with h ascending, h[i] = s[i]*0.5 for the sorted
// sample s: the symmetric Walsh average (s[i] + s[j])/2, monotone for the same reason
// (halving is monotone too), and never overflowing.
type halfSums struct{ h []float64 }

func (s halfSums) at(i, j int) float64 { return s.h[i] + s.h[j] }

// pairMatrix selects order statistics among the values of a pairValues matrix: rows x cols
// entries, or the upper triangle j >= i when triangle is set (rows == cols then).
type pairMatrix[P pairValues] struct {
	v          P
	rows, cols int
	triangle   bool
	lo, hi     []int // the candidate columns of row i are lo[i] <= j < hi[i]
	lt, le     []int // staircase boundaries (see boundary)
	rng        *rand.Rand
	buf        []float64 // the last candidates (see sortCandidates)

	cached bool // nextV is the value of rank lastK+1
	lastK  int
	nextV  float64
}

func newPairMatrix[P pairValues](v P, rows, cols int, triangle bool) *pairMatrix[P] {
	return &pairMatrix[P]{
		v: v, rows: rows, cols: cols, triangle: triangle,
		lo: make([]int, rows), hi: make([]int, rows), lt: make([]int, rows), le: make([]int, rows),
		// A fixed seed: the values returned do not depend on the pivots, only the time
		// does, and that time is then the same on every call.
		rng: rand.New(rand.NewPCG(0x48_4c, 0x616)),
	}
}

// first is the first column of row i.
func (m *pairMatrix[P]) first(i int) int {
	if m.triangle {
		return i
	}
	return 0
}

// boundary sets out[i] to the first column of row i whose value is >= x (orEqual false) or
// > x (orEqual true), cols if none, and returns the number of entries before those columns:
// the count of values < x, or <= x. A row's boundary is at most the previous row's (or its
// own first column), since each column is non-decreasing downwards, so one pointer walks
// the staircase in O(rows + cols).
func (m *pairMatrix[P]) boundary(x float64, orEqual bool, out []int) int {
	j, count := m.cols, 0
	for i := range m.rows {
		f := m.first(i)
		j = max(j, f)
		if orEqual {
			for j > f && m.v.at(i, j-1) > x {
				j--
			}
		} else {
			for j > f && m.v.at(i, j-1) >= x {
				j--
			}
		}
		out[i] = j
		count += j - f
	}
	return count
}

// kth returns the k-th smallest value of the matrix (k from 1 to the number of entries):
// an entry equal to it, which is the value itself unless it is a zero (-0 and +0 are
// equal to the comparisons).
//
// Invariant: every entry whose value equals the answer is a candidate, every entry left of
// the candidates of its row is below the answer and every entry right of them above. A
// pivot p with fewer than k values below it has the answer >= p; with fewer than k values
// at or below it too, the answer is > p and the columns at or below p leave each row's
// range. With k or more values below it, the answer is < p and the columns at or above p
// leave. Else the answer is p. Either way the pivot leaves, so the loop ends. Once the
// candidates are no more than a staircase walk would visit, they are sorted instead: the
// answer is the (k - L)-th of them, L the entries left of them.
//
// The median of an even count asks for two adjacent ranks; kth keeps the value of rank k+1
// from its last call (p again, or the smallest value above p), so the second costs nothing.
func (m *pairMatrix[P]) kth(k int) float64 {
	if m.cached && k == m.lastK+1 {
		return m.nextV
	}
	for i := range m.rows {
		m.lo[i], m.hi[i] = m.first(i), m.cols
	}
	m.cached = false
	for {
		left, lower := 0, 0
		for i := range m.rows {
			left += m.hi[i] - m.lo[i]
			lower += m.lo[i] - m.first(i)
		}
		if left <= m.rows+m.cols {
			return m.sortCandidates(k, k-lower)
		}
		r := m.rng.IntN(left)
		var p float64
		for i := range m.rows {
			if c := m.hi[i] - m.lo[i]; r < c {
				p = m.v.at(i, m.lo[i]+r)
				break
			} else {
				r -= c
			}
		}
		if below := m.boundary(p, false, m.lt); k <= below {
			for i := range m.rows {
				m.hi[i] = min(m.hi[i], m.lt[i])
			}
			continue
		}
		if atOrBelow := m.boundary(p, true, m.le); k <= atOrBelow {
			// The rank k+1 is p too, or else (k = atOrBelow) the smallest value above p.
			m.remember(k, p, k < atOrBelow, m.le)
			return p
		}
		for i := range m.rows {
			m.lo[i] = max(m.lo[i], m.le[i])
		}
	}
}

// sortCandidates returns the r-th smallest candidate, the k-th value of the matrix.
func (m *pairMatrix[P]) sortCandidates(k, r int) float64 {
	m.buf = m.buf[:0]
	for i := range m.rows {
		for j := m.lo[i]; j < m.hi[i]; j++ {
			m.buf = append(m.buf, m.v.at(i, j))
		}
	}
	slices.Sort(m.buf)
	v := m.buf[r-1]
	if r < len(m.buf) {
		m.lastK, m.nextV, m.cached = k, m.buf[r], true
	} else {
		// The rank k+1 is the smallest entry right of the candidates.
		m.remember(k, v, false, m.hi)
	}
	return v
}

// remember keeps the value of rank k+1 for the next call of kth: v when same, else the
// smallest of the entries at the columns from (the first column of each row whose value
// exceeds the k-th, v); none when k is the last rank.
func (m *pairMatrix[P]) remember(k int, v float64, same bool, from []int) {
	if !same {
		found := false
		for i := range m.rows {
			if j := from[i]; j < m.cols {
				if x := m.v.at(i, j); !found || x < v {
					v, found = x, true
				}
			}
		}
		if !found {
			return
		}
	}
	m.lastK, m.nextV, m.cached = k, v, true
}

// orderStats returns, from at(r) the r-th smallest of m ordered values (r from 1), their
// median with sortedMedian's formula (the middle value for odd m, else the two middle
// values' midpoint as sortedMedian computes it), the k-th smallest and the k-th largest.
// ok is false as soon as at reports that it cannot give a rank.
func orderStats(m, k int, at func(r int) (float64, bool)) (est, lo, hi float64, ok bool) {
	if m%2 == 1 {
		est, ok = at(m/2 + 1)
	} else {
		var below, above float64
		if below, ok = at(m / 2); ok {
			above, ok = at(m/2 + 1)
		}
		est = sortedMedian([]float64{below, above})
	}
	if ok {
		lo, ok = at(k)
	}
	if ok {
		hi, ok = at(m + 1 - k)
	}
	return est, lo, hi, ok
}

// diffSelector gives the order statistics of the n m differences x - y, x from a and y from
// b, as sorting them all would.
//
// Sorting leaves -0 and +0 in an order of its own choosing, since they compare equal. The
// selection cannot know that order, so a rank whose value is zero, among differences that
// hold zeros of both signs, is left to the caller (at's ok is false). In IEEE arithmetic
// x - y is -0 only for x = -0 and y = +0 (equal non-zero operands give +0, and a difference
// too small to be normal is exact, so not zero); that counts the -0 differences.
type diffSelector struct {
	m        *pairMatrix[differences]
	negZeros int // differences that are -0
}

func newDiffSelector(a, b []float64) *diffSelector {
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	slices.Reverse(sb)
	var aNeg, bPos int
	for _, x := range a {
		if x == 0 && math.Signbit(x) {
			aNeg++
		}
	}
	for _, y := range b {
		if y == 0 && !math.Signbit(y) {
			bPos++
		}
	}
	return &diffSelector{m: newPairMatrix(differences{sa, sb}, len(sa), len(sb), false), negZeros: aNeg * bPos}
}

// at returns the r-th smallest difference (r from 1 to n m); ok is false only for a zero
// among zeros of both signs (see diffSelector). The selection compares with < and <=, so
// it returns some difference equal to the answer: the answer itself unless that is a zero.
func (s *diffSelector) at(r int) (v float64, ok bool) {
	v = s.m.kth(r)
	if v != 0 || s.negZeros == 0 {
		return v, true // no -0 difference: a zero is +0
	}
	zeros := s.m.boundary(0, true, s.m.le) - s.m.boundary(0, false, s.m.lt)
	if zeros > s.negZeros {
		return 0, false
	}
	return math.Copysign(0, -1), true
}

// maxWalshSelect is the magnitude of the differences from which walshSelector is not used:
// below it, no difference d_j - d_i of two of them overflows (|d_j - d_i| < 2^1023), which
// the bound of walshSelector.band needs.
const maxWalshSelect = 0x1p1022

// walshSelector gives the order statistics of the n(n+1)/2 Walsh averages of d as walshCI
// has always computed them, d[i] + (d[j]-d[i])/2 for i <= j by index in d (swapping i and j
// changes the last bit for about half the pairs), sorted.
//
// The symmetric average h[p] + h[q] (h = sorted d halved) of the sorted positions p <= q is
// monotone, so pairMatrix selects its k-th value t. The original averages differ from the
// symmetric ones by at most e (see band), so the k-th original average w* lies within e of t
// (an order statistic moves no more than the values it is taken from). Every pair whose
// symmetric value is below t - 2e has its original value below t - e <= w*, strictly; every
// pair above t + 2e is strictly above w*. So with L pairs below the band, w* is the
// (k - L)-th smallest original value among the pairs in the band: the pairs below are all
// before it and those above all after it, in any order of ties. Only the band is evaluated
// with the original formula (each pair of sorted positions p <= q is the pair of input
// indices min, max of perm[p], perm[q]) and sorted. The band is a few pairs unless many
// values tie near t; then it costs what the ties hold.
//
// As for diffSelector, a zero answer with zeros of both signs among the averages is left to
// the caller: every average equal to w* is in the band (its symmetric value is within e of
// w*), so the band shows whether both signs are there.
type walshSelector struct {
	d    []float64
	perm []int // perm[p] is the index in d of the p-th smallest value
	m    *pairMatrix[halfSums]
	e    float64 // the bound of band
	band []float64
}

// newWalshSelector returns the selector of d's Walsh averages, or nil when max |d| reaches
// maxWalshSelect.
func newWalshSelector(d []float64) *walshSelector {
	n := len(d)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	slices.SortFunc(perm, func(i, j int) int {
		switch {
		case d[i] < d[j]:
			return -1
		case d[i] > d[j]:
			return 1
		}
		return 0
	})
	h := make([]float64, n)
	var maxAbs float64
	for p, i := range perm {
		h[p] = d[i] * 0.5
		maxAbs = max(maxAbs, math.Abs(d[i]))
	}
	if maxAbs >= maxWalshSelect {
		return nil
	}
	// The bound on |original - symmetric|, with u = 2^-53 the unit roundoff, M = max |d|,
	// every operation rounding to nearest (relative error <= u, or an absolute error <=
	// 2^-1075 for a halving into the subnormals; a sum or difference that is subnormal is
	// exact) and no overflow (M < maxWalshSelect):
	//   - original: fl(d_j - d_i) is within u|d_j - d_i| <= 2uM of d_j - d_i, its half
	//     within uM + 2^-1075 of (d_j - d_i)/2, and the final sum, of magnitude at most
	//     M + uM + 2^-1075, adds u times that: within 2uM + u^2 M + 2^-1074 of (d_i + d_j)/2;
	//   - symmetric: the two halvings err by at most 2^-1075 each, the sum by u M (1 + u):
	//     within uM + u^2 M + 2^-1074 of (d_i + d_j)/2;
	//   - so |original - symmetric| <= 3uM + 2u^2 M + 2^-1073 < M 2^-51 + 2^-1072 = b.
	// e = M 2^-50 + 2^-1070 is twice b on the M term and eight times on the other. The
	// margin covers the rounding of e and of t -+ 2e (|t| <= M, so an end moves by at most
	// u (M + 2e) < M 2^-52): the computed ends lie outside [t - 2b, t + 2b], which is what
	// the argument above needs.
	return &walshSelector{d: d, perm: perm, m: newPairMatrix(halfSums{h}, n, n, true), e: maxAbs*0x1p-50 + 0x1p-1070}
}

// at returns the r-th smallest Walsh average (r from 1 to n(n+1)/2) by the original
// formula; ok is false only for a zero among zeros of both signs.
func (w *walshSelector) at(r int) (v float64, ok bool) {
	t := w.m.kth(r)
	below := w.m.boundary(t-2*w.e, false, w.m.lt) // the band starts at column lt[p] of row p
	w.m.boundary(t+2*w.e, true, w.m.le)           // and ends before column le[p]
	w.band = w.band[:0]
	for p := range w.m.rows {
		for q := w.m.lt[p]; q < w.m.le[p]; q++ {
			i, j := w.perm[p], w.perm[q]
			if i > j {
				i, j = j, i
			}
			w.band = append(w.band, w.d[i]+(w.d[j]-w.d[i])/2)
		}
	}
	slices.Sort(w.band)
	v = w.band[r-1-below]
	if v != 0 {
		return v, true
	}
	var neg, pos bool
	for _, x := range w.band {
		if x == 0 {
			neg, pos = neg || math.Signbit(x), pos || !math.Signbit(x)
		}
	}
	return v, !(neg && pos)
}
