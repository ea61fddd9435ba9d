package blasinfo

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// SelfCheckHook sees, when not nil, every result of SelfCheck before it is compared, with
// the name of the call and the offset in float64s of its buffers; a test sets it to make
// the check fail. It is nil in every run.
var SelfCheckHook func(call string, offset int, result []float64)

// selfCheckOffsets are the buffer offsets, in float64s, at which SelfCheck repeats every
// call: 0 to 7, so that the data start at every 8-byte position of a 64-byte line (both
// alignments mod 16, every one mod 32 and 64).
const selfCheckOffsets = 8

// SelfCheck runs the BLAS and LAPACK calls the project uses (ddot, dgemv, dgemm and dpotrf,
// through gonum's blas64 and lapack64, so on the backend this build selected) on the same
// data placed at every selfCheckOffsets alignment, and returns an error naming the call and
// the backend if any two placements give different bits. A kernel set whose results depend
// on where the data sit in memory (OpenBLAS's generic Prescott kernels) makes runs differ
// from one another; the project's runs stop rather than give such results. It takes well
// under a millisecond.
func SelfCheck() error {
	const n, rows, cols, inner = 1031, 53, 37, 29
	src := make([]float64, n+rows*cols+cols*inner+rows*inner)
	state := uint64(0x9e3779b97f4a7c15)
	for i := range src {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		src[i] = float64(state>>11)/(1<<53) - 0.5
	}
	spd := make([]float64, cols*cols) // A^T A + cols I: positive definite
	a := src[n : n+rows*cols]
	for i := 0; i < cols; i++ {
		for j := 0; j < cols; j++ {
			var s float64
			for k := 0; k < rows; k++ {
				s += a[k*cols+i] * a[k*cols+j]
			}
			spd[i*cols+j] = s
		}
		spd[i*cols+i] += cols
	}
	calls := []struct {
		name string
		run  func(buf []float64) []float64
	}{
		{"ddot", func(buf []float64) []float64 {
			x := place(buf, src[:n])
			y := place(buf[n+selfCheckOffsets:], src[1:n+1])
			return []float64{blas64.Dot(blas64.Vector{N: n, Inc: 1, Data: x}, blas64.Vector{N: n, Inc: 1, Data: y})}
		}},
		{"dgemv", func(buf []float64) []float64 {
			m := place(buf, a)
			x := place(buf[rows*cols+selfCheckOffsets:], src[:cols])
			y := make([]float64, rows)
			blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: m}, blas64.Vector{N: cols, Inc: 1, Data: x}, 0, blas64.Vector{N: rows, Inc: 1, Data: y})
			yt := make([]float64, cols)
			xt := place(buf[rows*cols+cols+2*selfCheckOffsets:], src[:rows])
			blas64.Gemv(blas.Trans, 1, blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: m}, blas64.Vector{N: rows, Inc: 1, Data: xt}, 0, blas64.Vector{N: cols, Inc: 1, Data: yt})
			return append(y, yt...)
		}},
		{"dgemm", func(buf []float64) []float64 {
			m := place(buf, a)
			b := place(buf[rows*cols+selfCheckOffsets:], src[n+rows*cols:n+rows*cols+cols*inner])
			c := make([]float64, rows*inner)
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: m}, blas64.General{Rows: cols, Cols: inner, Stride: inner, Data: b}, 0, blas64.General{Rows: rows, Cols: inner, Stride: inner, Data: c})
			return c
		}},
		{"dpotrf", func(buf []float64) []float64 {
			m := place(buf, spd)
			if _, ok := lapack64.Potrf(blas64.Symmetric{N: cols, Stride: cols, Uplo: blas.Upper, Data: m}); !ok {
				return []float64{math.NaN()}
			}
			return m[:cols*cols]
		}},
	}
	buf := make([]float64, len(src)+cols*cols+4*selfCheckOffsets)
	for _, call := range calls {
		var want []float64
		for off := 0; off < selfCheckOffsets; off++ {
			clear(buf)
			got := call.run(buf[off:])
			if SelfCheckHook != nil {
				SelfCheckHook(call.name, off, got)
			}
			if want == nil {
				want = append([]float64(nil), got...)
				continue
			}
			if !sameBits(got, want) {
				return fmt.Errorf("BLAS %s: %s gives different bits for the same data at another memory alignment (offset %d bytes), so runs would not repeat; %s",
					Backend(), call.name, 8*off, selfCheckFix())
			}
		}
	}
	return nil
}

// place copies data to the start of buf and returns that part of buf.
func place(buf, data []float64) []float64 {
	copy(buf, data)
	return buf[:len(data):len(data)]
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
