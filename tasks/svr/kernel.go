package svr

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"dpgibo/internal/fastexp"
)

// The ARD-RBF kernel of this package is
//
//	k(x, x') = exp(-gamma * sum_j (x_j - x'_j)^2 / l_j^2)
//
// with per-feature length-scales l_j and a global bandwidth gamma. Every kernel matrix is
// built on features pre-scaled by 1/l_j, so that the squared distance is |u|^2 + |v|^2 -
// 2 u.v with all cross products u.v from one BLAS call (Syrk for train x train, Gemm for
// validation x support vectors).

// scaleRows writes x_ij / l_j into dst (rows x p, row-major) and the squared row norms of
// the result into norms. Four rows are handled side by side, each norm summed in the order
// of j: four independent chains of additions instead of one.
func scaleRows(dst, norms []float64, x blas64.General, invLengthscale []float64) {
	p := x.Cols
	inv := invLengthscale[:p]
	i := 0
	for ; i+4 <= x.Rows; i += 4 {
		x0, x1 := x.Data[i*x.Stride:i*x.Stride+p], x.Data[(i+1)*x.Stride:(i+1)*x.Stride+p]
		x2, x3 := x.Data[(i+2)*x.Stride:(i+2)*x.Stride+p], x.Data[(i+3)*x.Stride:(i+3)*x.Stride+p]
		u0, u1, u2, u3 := dst[i*p:(i+1)*p], dst[(i+1)*p:(i+2)*p], dst[(i+2)*p:(i+3)*p], dst[(i+3)*p:(i+4)*p]
		s0, s1, s2, s3 := 0.0, 0.0, 0.0, 0.0
		for j, w := range inv {
			v0, v1, v2, v3 := x0[j]*w, x1[j]*w, x2[j]*w, x3[j]*w
			u0[j], u1[j], u2[j], u3[j] = v0, v1, v2, v3
			s0 += v0 * v0
			s1 += v1 * v1
			s2 += v2 * v2
			s3 += v3 * v3
		}
		norms[i], norms[i+1], norms[i+2], norms[i+3] = s0, s1, s2, s3
	}
	for ; i < x.Rows; i++ {
		src := x.Data[i*x.Stride : i*x.Stride+p]
		out := dst[i*p : (i+1)*p]
		s := 0.0
		for j, w := range inv {
			u := src[j] * w
			out[j] = u
			s += u * u
		}
		norms[i] = s
	}
}

// gramRBF writes the full n x n kernel matrix of the pre-scaled rows u (n x p, row-major,
// shift = kernelShift of their squared norms) into dst (n*n, row-major). One Syrk computes
// the upper triangle of the cross products; the exponentials are taken there and mirrored
// below.
func gramRBF(dst, u, shift []float64, n, p int, gamma float64) {
	if n == 0 {
		return
	}
	a := blas64.General{Rows: n, Cols: p, Stride: p, Data: u}
	c := blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: dst}
	blas64.Syrk(blas.NoTrans, 2*gamma, a, 0, c)
	for i := 0; i < n; i++ {
		row := dst[i*n : (i+1)*n]
		row[i] = 1
		// exp(-gamma |u_i - u_j|^2) with the cross product already scaled by 2 gamma
		fastexp.KernelRow(row[i+1:], row[i+1:], shift[i+1:], shift[i])
	}
	for i := 1; i < n; i++ {
		row := dst[i*n : i*n+i]
		for j := range row {
			row[j] = dst[j*n+i]
		}
	}
}

// kernelShift writes -gamma |u_j|^2 into dst for every squared norm and returns dst: the
// per-column term of fastexp.KernelRow, so that the exponent of k(u_i, u_j) is
// -gamma |u_i|^2 + shift_j + 2 gamma u_i.u_j.
func kernelShift(dst, norms []float64, gamma float64) []float64 {
	for j, v := range norms {
		dst[j] = -gamma * v
	}
	return dst
}

// rowCache serves kernel rows computed on demand when the full matrix does not fit in the
// cache budget: each row is one Gemv on the pre-scaled training rows, and the most recently
// used rows are kept (at least two, as the solver needs).
type rowCache struct {
	u       []float64
	shift   []float64 // -gamma |u_j|^2
	n, p    int
	gamma   float64
	slots   [][]float64
	owner   []int   // owner[s] = row held by slot s, -1 if none
	slotOf  []int32 // slotOf[i] = slot holding row i, -1 if none
	lastUse []int64
	clock   int64
}

func newRowCache(u, shift []float64, n, p int, gamma float64, capacity int) *rowCache {
	capacity = max(2, min(capacity, n))
	c := &rowCache{u: u, shift: shift, n: n, p: p, gamma: gamma,
		slots: make([][]float64, capacity), owner: make([]int, capacity),
		slotOf: make([]int32, n), lastUse: make([]int64, capacity)}
	for s := range c.slots {
		c.slots[s] = make([]float64, n)
		c.owner[s] = -1
	}
	for i := range c.slotOf {
		c.slotOf[i] = -1
	}
	return c
}

func (c *rowCache) row(i int) []float64 {
	c.clock++
	if s := c.slotOf[i]; s >= 0 {
		c.lastUse[s] = c.clock
		return c.slots[s]
	}
	victim := 0
	for s := range c.slots {
		if c.lastUse[s] < c.lastUse[victim] {
			victim = s
		}
	}
	if old := c.owner[victim]; old >= 0 {
		c.slotOf[old] = -1
	}
	c.owner[victim], c.slotOf[i], c.lastUse[victim] = i, int32(victim), c.clock
	out := c.slots[victim]
	a := blas64.General{Rows: c.n, Cols: c.p, Stride: c.p, Data: c.u}
	x := blas64.Vector{N: c.p, Inc: 1, Data: c.u[i*c.p : (i+1)*c.p]}
	blas64.Gemv(blas.NoTrans, 2*c.gamma, a, x, 0, blas64.Vector{N: c.n, Inc: 1, Data: out})
	fastexp.KernelRow(out, out, c.shift, c.shift[i])
	out[i] = 1
	return out
}
