package gemm

// Block sizes: the inner dimension is handled KC at a time, the rows of op(A) MC at a time
// (an MC x KC packed block of A, 128 KiB, stays in L2) and the columns of the result in
// micro-panels of nr with one kc x nr packed panel of B (16 KiB) in L1.
const (
	mr = 4
	nr = 8
	KC = 256
	MC = 64
)

// Matrix is a row-major view: element (i, j) is Data[i*Stride+j].
type Matrix struct {
	Rows, Cols, Stride int
	Data               []float64
}

// Triangle selects which entries of C a product writes.
type Triangle int

const (
	// Full writes every entry of C.
	Full Triangle = iota
	// Upper writes only the entries with column >= row (C square); the others are not
	// touched. The work is about half of Full.
	Upper
)

// Workspace holds the packed panels of a product; reusing one across calls avoids
// allocations. The zero value is ready to use. A Workspace is not safe for concurrent use.
type Workspace struct {
	packA, packB []float64
}

func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// MulNT computes C += alpha A B^T for A m x k, B n x k and C m x n (only the triangle tri of
// C when tri is Upper, which needs m == n). It panics on mismatched shapes.
func (w *Workspace) MulNT(alpha float64, a, b, c Matrix, tri Triangle) {
	if a.Cols != b.Cols || c.Rows != a.Rows || c.Cols != b.Rows {
		panic("gemm: MulNT shape mismatch")
	}
	w.mul(alpha, a, false, b, false, c, a.Cols, tri)
}

// MulTN computes C += alpha A^T B for A k x m, B k x n and C m x n (only the triangle tri of
// C when tri is Upper, which needs m == n). It panics on mismatched shapes.
func (w *Workspace) MulTN(alpha float64, a, b, c Matrix, tri Triangle) {
	if a.Rows != b.Rows || c.Rows != a.Cols || c.Cols != b.Cols {
		panic("gemm: MulTN shape mismatch")
	}
	w.mul(alpha, a, true, b, true, c, a.Rows, tri)
}

// mul computes C += alpha opA(A) opB(B) where row i of opA(A) is row i of A (aT false) or
// column i of A (aT true), and column j of the product's right factor is row j of B (bT
// false) or column j of B (bT true).
func (w *Workspace) mul(alpha float64, a Matrix, aT bool, b Matrix, bT bool, c Matrix, k int, tri Triangle) {
	m, n := c.Rows, c.Cols
	if tri == Upper && m != n {
		panic("gemm: Upper needs a square C")
	}
	if m == 0 || n == 0 || k == 0 {
		return
	}
	nPanels := (n + nr - 1) / nr
	wide := useWide
	for pc := 0; pc < k; pc += KC {
		kc := min(KC, k-pc)
		w.packB = grow(w.packB, nPanels*nr*kc)
		packB(w.packB, b, bT, pc, kc, n)
		for ic := 0; ic < m; ic += MC {
			mc := min(MC, m-ic)
			jStart := 0
			if tri == Upper {
				jStart = ic / nr * nr // panels left of the block lie below the diagonal
			}
			mPanels := (mc + mr - 1) / mr
			w.packA = grow(w.packA, mPanels*mr*kc)
			packA(w.packA, a, aT, ic, mc, pc, kc)
			for jr := jStart; jr < n; {
				if wide && jr+2*nr <= n {
					bp := w.packB[jr*kc : jr*kc+2*nr*kc]
					for ir := 0; ir < mc; ir += mr {
						i0 := ic + ir
						if tri == Upper && jr+2*nr <= i0 {
							continue
						}
						if mr <= mc-ir && (tri == Full || jr >= i0+mr-1) {
							kernelWide(kc, w.packA[ir*kc:ir*kc+mr*kc], bp, c.Data[i0*c.Stride+jr:], c.Stride, alpha)
							continue
						}
						w.tile(alpha, c, tri, kc, ic, mc, ir, jr, n)
						w.tile(alpha, c, tri, kc, ic, mc, ir, jr+nr, n)
					}
					jr += 2 * nr
					continue
				}
				for ir := 0; ir < mc; ir += mr {
					w.tile(alpha, c, tri, kc, ic, mc, ir, jr, n)
				}
				jr += nr
			}
		}
	}
}

// tile updates the mr x nr tile of C at rows ic+ir.., columns jr.. from the packed panels
// (the panel of A at ir, of B at jr), clipped to C and, for Upper, to its triangle.
func (w *Workspace) tile(alpha float64, c Matrix, tri Triangle, kc, ic, mc, ir, jr, n int) {
	i0 := ic + ir
	mb, nb := min(mr, mc-ir), min(nr, n-jr)
	if tri == Upper && jr+nb <= i0 {
		return // tile entirely below the diagonal
	}
	ap := w.packA[ir*kc : ir*kc+mr*kc]
	bp := w.packB[jr*kc : jr*kc+nr*kc]
	if mb == mr && nb == nr && (tri == Full || jr >= i0+mr-1) {
		kernel(kc, ap, bp, c.Data[i0*c.Stride+jr:], c.Stride, alpha)
		return
	}
	var tile [mr * nr]float64
	for r := 0; r < mb; r++ {
		for cc := 0; cc < nb; cc++ {
			tile[r*nr+cc] = c.Data[(i0+r)*c.Stride+jr+cc]
		}
	}
	kernel(kc, ap, bp, tile[:], nr, alpha)
	for r := 0; r < mb; r++ {
		c0 := 0
		if tri == Upper {
			c0 = max(0, i0+r-jr)
		}
		for cc := c0; cc < nb; cc++ {
			c.Data[(i0+r)*c.Stride+jr+cc] = tile[r*nr+cc]
		}
	}
}

// packA copies rows ic..ic+mc of opA(A), inner indices pc..pc+kc, into panels of mr rows:
// panel p holds, for each inner index l, the mr values of rows ic+p*mr.. at l (zeros past
// the last row).
func packA(dst []float64, a Matrix, aT bool, ic, mc, pc, kc int) {
	for p := 0; p*mr < mc; p++ {
		panel := dst[p*mr*kc : (p+1)*mr*kc]
		rows := min(mr, mc-p*mr)
		i0 := ic + p*mr
		if aT {
			for l := 0; l < kc; l++ {
				src := a.Data[(pc+l)*a.Stride+i0:]
				out := panel[l*mr : l*mr+mr]
				for r := 0; r < rows; r++ {
					out[r] = src[r]
				}
				for r := rows; r < mr; r++ {
					out[r] = 0
				}
			}
			continue
		}
		for r := 0; r < mr; r++ {
			if r >= rows {
				for l := 0; l < kc; l++ {
					panel[l*mr+r] = 0
				}
				continue
			}
			src := a.Data[(i0+r)*a.Stride+pc : (i0+r)*a.Stride+pc+kc]
			for l, v := range src {
				panel[l*mr+r] = v
			}
		}
	}
}

// packB copies the n columns of the right factor, inner indices pc..pc+kc, into panels of
// nr columns laid out like packA's (zeros past the last column).
func packB(dst []float64, b Matrix, bT bool, pc, kc, n int) {
	for p := 0; p*nr < n; p++ {
		panel := dst[p*nr*kc : (p+1)*nr*kc]
		cols := min(nr, n-p*nr)
		j0 := p * nr
		if bT {
			for l := 0; l < kc; l++ {
				src := b.Data[(pc+l)*b.Stride+j0:]
				out := panel[l*nr : l*nr+nr]
				for cc := 0; cc < cols; cc++ {
					out[cc] = src[cc]
				}
				for cc := cols; cc < nr; cc++ {
					out[cc] = 0
				}
			}
			continue
		}
		for cc := 0; cc < nr; cc++ {
			if cc >= cols {
				for l := 0; l < kc; l++ {
					panel[l*nr+cc] = 0
				}
				continue
			}
			src := b.Data[(j0+cc)*b.Stride+pc : (j0+cc)*b.Stride+pc+kc]
			for l, v := range src {
				panel[l*nr+cc] = v
			}
		}
	}
}

// kernelGo is the micro-kernel in Go: C[r][c] = alpha*acc + C[r][c] with acc the fused
// multiply-add sum over l of a[l*mr+r]*b[l*nr+c], in the order of the assembly kernel.
func kernelGo(kc int, a, b, c []float64, ldc int, alpha float64) {
	var acc [mr][nr]float64
	for l := 0; l < kc; l++ {
		bl := b[l*nr : l*nr+nr : l*nr+nr]
		al := a[l*mr : l*mr+mr : l*mr+mr]
		for r, av := range al {
			row := &acc[r]
			for cc, bv := range bl {
				row[cc] = fma(av, bv, row[cc])
			}
		}
	}
	for r := 0; r < mr; r++ {
		out := c[r*ldc : r*ldc+nr]
		for cc := range out {
			out[cc] = fma(alpha, acc[r][cc], out[cc])
		}
	}
}
