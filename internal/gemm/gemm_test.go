package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

func randMatrix(rng *rand.Rand, r, c, pad int) Matrix {
	m := Matrix{Rows: r, Cols: c, Stride: c + pad, Data: make([]float64, r*(c+pad))}
	for i := range m.Data {
		m.Data[i] = rng.NormFloat64()
	}
	return m
}

// Products of every shape class (multiples of the tile sizes and not, an inner dimension
// above KC, strided views) match the textbook triple loop, and Upper leaves the strict
// lower triangle untouched.
func TestProductsMatchDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][3]int{{1, 1, 1}, {4, 8, 3}, {5, 9, 17}, {64, 64, 64}, {67, 70, 300}, {130, 13, 15}, {3, 200, 600}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tri := range []Triangle{Full, Upper} {
			if tri == Upper {
				n = m
			}
			for _, trans := range []bool{false, true} {
				var a, b Matrix
				if trans {
					a, b = randMatrix(rng, k, m, 3), randMatrix(rng, k, n, 1)
				} else {
					a, b = randMatrix(rng, m, k, 2), randMatrix(rng, n, k, 0)
				}
				c := randMatrix(rng, m, n, 5)
				orig := append([]float64(nil), c.Data...)
				const alpha = -1.75
				var w Workspace
				if trans {
					w.MulTN(alpha, a, b, c, tri)
				} else {
					w.MulNT(alpha, a, b, c, tri)
				}
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						got, before := c.Data[i*c.Stride+j], orig[i*c.Stride+j]
						if tri == Upper && j < i {
							if math.Float64bits(got) != math.Float64bits(before) {
								t.Fatalf("%v trans=%v: entry (%d, %d) below the diagonal changed", sz, trans, i, j)
							}
							continue
						}
						sum, abs := 0.0, 0.0
						for l := 0; l < k; l++ {
							var x, y float64
							if trans {
								x, y = a.Data[l*a.Stride+i], b.Data[l*b.Stride+j]
							} else {
								x, y = a.Data[i*a.Stride+l], b.Data[j*b.Stride+l]
							}
							sum += x * y
							abs += math.Abs(x * y)
						}
						want := before + alpha*sum
						if math.Abs(got-want) > 1e-13*(math.Abs(before)+math.Abs(alpha)*abs) {
							t.Fatalf("%v tri=%v trans=%v: entry (%d, %d) = %v, want %v", sz, tri, trans, i, j, got, want)
						}
					}
				}
				// padding between rows is never written
				for i := 0; i < m; i++ {
					for j := n; j < c.Stride; j++ {
						if c.Data[i*c.Stride+j] != orig[i*c.Stride+j] {
							t.Fatalf("%v: padding (%d, %d) written", sz, i, j)
						}
					}
				}
			}
		}
	}
}

// The assembly micro-kernels (AVX2, and AVX-512 for pairs of panels) and the Go one give
// the same bits.
func TestKernelsAgreeBitwise(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2/FMA micro-kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := randMatrix(rng, 37, 700, 0), randMatrix(rng, 53, 700, 0)
	run := func(asm, wide bool) []float64 {
		prevAsm, prevWide := useAVX2, useWide
		useAVX2, useWide = asm, wide
		defer func() { useAVX2, useWide = prevAsm, prevWide }()
		c := randMatrix(rand.New(rand.NewPCG(5, 6)), 37, 53, 0)
		var w Workspace
		w.MulNT(0.3, a, b, c, Full)
		sq := randMatrix(rand.New(rand.NewPCG(5, 6)), 37, 37, 0)
		w.MulNT(-1.1, a, a, sq, Upper)
		return append(c.Data, sq.Data...)
	}
	want := run(false, false)
	for _, mode := range [][2]bool{{true, false}, {true, useWide}} {
		got := run(mode[0], mode[1])
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("AVX2 %v, AVX-512 %v: entry %d = %v, Go kernel %v", mode[0], mode[1], i, got[i], want[i])
			}
		}
	}
}

func TestShapeMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("mismatched shapes accepted")
		}
	}()
	var w Workspace
	w.MulNT(1, Matrix{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 6)}, Matrix{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 4)},
		Matrix{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 4)}, Full)
}

// BenchmarkMulNT times the products of the tasks' kernel matrices: GP regression's
// validation x training inner products (1000 x 1000, k = 15) and a block of SVR's
// prediction (128 validation rows x 512 support vectors, k = 100), against gonum's Dgemm.
func BenchmarkMulNT(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct {
		name    string
		m, n, k int
	}{{"gp-1000x1000x15", 1000, 1000, 15}, {"svr-128x512x100", 128, 512, 100}, {"chol-1000x1000x64", 1000, 1000, 64}} {
		a, bm, c := randMatrix(rng, sz.m, sz.k, 0), randMatrix(rng, sz.n, sz.k, 0), randMatrix(rng, sz.m, sz.n, 0)
		var w Workspace
		b.Run(sz.name+"/gemm", func(b *testing.B) {
			for b.Loop() {
				w.MulNT(1, a, bm, c, Full)
			}
		})
		b.Run(sz.name+"/gonum", func(b *testing.B) {
			ga := blas64.General{Rows: a.Rows, Cols: a.Cols, Stride: a.Stride, Data: a.Data}
			gb := blas64.General{Rows: bm.Rows, Cols: bm.Cols, Stride: bm.Stride, Data: bm.Data}
			gc := blas64.General{Rows: c.Rows, Cols: c.Cols, Stride: c.Stride, Data: c.Data}
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.Trans, 1, ga, gb, 1, gc)
			}
		})
	}
}
