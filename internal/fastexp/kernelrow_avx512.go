//go:build goexperiment.simd && amd64

package fastexp

import (
	"math"
	"simd/archsimd"
)

// vectorAvailable says whether this CPU runs the AVX-512 path of KernelRow.
var vectorAvailable = archsimd.X86.AVX512()

// kernelChunk is the number of values kernelRowVector handles per pass; its index and
// table buffers live on the stack.
const kernelChunk = 256

// kernelRowVector computes KernelRow's values eight at a time and returns how many it
// did (a multiple of 8; the caller does the rest).
func kernelRowVector(dst, cross, shift []float64, base float64) int {
	return expVector(dst, cross, shift, base, 1, true)
}

// scaledExpVector computes ScaledExp's values eight at a time and returns how many it did.
func scaledExpVector(dst []float64, scale float64) int {
	return expVector(dst, nil, nil, 0, scale, false)
}

// expVector writes scale * ExpNonPositive(min(x_k, 0)) into dst for the first multiple of
// 8 values and returns their number, where x_k = base + shift[k] + cross[k] if fromCross
// and x_k = dst[k] otherwise. Each chunk takes three passes, so that the table lookup,
// which AVX-512 can only do one lane at a time here, runs as a plain loop between vector
// passes rather than as a store-forwarding stall in each:
//
//  1. the argument, its clamp to 0, the reduction x = k ln2/256 + r and the polynomial
//     of exp(r) (stored in dst), and k;
//  2. the table entries 2^((k mod 256)/256);
//  3. the scale 2^(k div 256) put into the exponent field, times the polynomial, times
//     scale.
//
// Every lane performs ExpNonPositive's operations in its order; arguments below -708
// get k = 0 and polynomial 0, hence +0 as in ExpNonPositive. Multiplying by 1 changes no
// bit, so KernelRow's values are ExpNonPositive's.
func expVector(dst, cross, shift []float64, base, scale float64, fromCross bool) int {
	if !vectorAvailable {
		return 0
	}
	lanes := newExpLanes()
	baseV, scaleV := archsimd.BroadcastFloat64x8(base), archsimd.BroadcastFloat64x8(scale)
	var steps [kernelChunk]int64
	var table [kernelChunk]uint64
	total := len(dst) &^ 7
	for start := 0; start < total; start += kernelChunk {
		n := min(kernelChunk, total-start)
		d := dst[start : start+n]
		var c, s []float64
		if fromCross {
			c, s = cross[start:start+n], shift[start:start+n]
		}
		for i := 0; i < n; i += 8 {
			var x archsimd.Float64x8
			if fromCross {
				x = baseV.Add(archsimd.LoadFloat64x8Slice(s[i : i+8])).Add(archsimd.LoadFloat64x8Slice(c[i : i+8]))
			} else {
				x = archsimd.LoadFloat64x8Slice(d[i : i+8])
			}
			poly, k := lanes.reduce(x)
			poly.StoreSlice(d[i : i+8])
			k.StoreSlice(steps[i : i+8])
		}
		lookUp(table[:n], steps[:n])
		for i := 0; i < n; i += 8 {
			e := scaleByTable(archsimd.LoadFloat64x8Slice(d[i:i+8]), archsimd.LoadInt64x8Slice(steps[i:i+8]), table[i:i+8])
			e.Mul(scaleV).StoreSlice(d[i : i+8])
		}
	}
	return total
}

// sumsChunk is the number of support vectors kernelSumsVector handles per pass (eight
// values each).
const sumsChunk = kernelChunk / 8

// kernelSumsVector computes KernelSums for the first multiple of 8 rows, eight rows side
// by side, and returns their number. For each group of eight rows the support vectors
// are taken in chunks, with expVector's three passes (polynomial and k; table; scale),
// the third adding coef_k e_rk to each row's sum in the order of k.
func kernelSumsVector(dst []float64, cross []float32, stride int, base, shift, coef []float64, bias float64) int {
	if !vectorAvailable {
		return 0
	}
	lanes := newExpLanes()
	var polys [kernelChunk]float64
	var steps [kernelChunk]int64
	var table [kernelChunk]uint64
	rows := len(dst) &^ 7
	for r := 0; r < rows; r += 8 {
		baseV := archsimd.LoadFloat64x8Slice(base[r : r+8])
		sum := archsimd.BroadcastFloat64x8(bias)
		for k0 := 0; k0 < len(coef); k0 += sumsChunk {
			kn := min(sumsChunk, len(coef)-k0)
			for i := 0; i < kn; i++ {
				k := k0 + i
				c := archsimd.LoadFloat32x8Slice(cross[k*stride+r : k*stride+r+8]).ConvertToFloat64()
				poly, steps8 := lanes.reduce(baseV.Add(archsimd.BroadcastFloat64x8(shift[k])).Add(c))
				poly.StoreSlice(polys[i*8 : i*8+8])
				steps8.StoreSlice(steps[i*8 : i*8+8])
			}
			lookUp(table[:kn*8], steps[:kn*8])
			for i := 0; i < kn; i++ {
				e := scaleByTable(archsimd.LoadFloat64x8Slice(polys[i*8:i*8+8]), archsimd.LoadInt64x8Slice(steps[i*8:i*8+8]), table[i*8:i*8+8])
				sum = sum.Add(archsimd.BroadcastFloat64x8(coef[k0+i]).Mul(e))
			}
		}
		sum.StoreSlice(dst[r : r+8])
	}
	return rows
}

// expLanes holds ExpNonPositive's constants in eight lanes.
type expLanes struct {
	zero, floor, invStep, shifter, stepHi, stepLo, one, c2, c3, c4, c5 archsimd.Float64x8
	shiftInt, zeroInt                                                  archsimd.Int64x8
}

func newExpLanes() expLanes {
	return expLanes{
		zero:     archsimd.BroadcastFloat64x8(0),
		floor:    archsimd.BroadcastFloat64x8(-708),
		invStep:  archsimd.BroadcastFloat64x8(expInvStep),
		shifter:  archsimd.BroadcastFloat64x8(expShifter),
		stepHi:   archsimd.BroadcastFloat64x8(expStepHi),
		stepLo:   archsimd.BroadcastFloat64x8(expStepLo),
		one:      archsimd.BroadcastFloat64x8(1),
		c2:       archsimd.BroadcastFloat64x8(1.0 / 2),
		c3:       archsimd.BroadcastFloat64x8(1.0 / 6),
		c4:       archsimd.BroadcastFloat64x8(1.0 / 24),
		c5:       archsimd.BroadcastFloat64x8(1.0 / 120),
		shiftInt: archsimd.BroadcastInt64x8(int64(math.Float64bits(expShifter))),
		zeroInt:  archsimd.BroadcastInt64x8(0),
	}
}

// reduce clamps x to min(x, 0) (NaN kept) and returns ExpNonPositive's polynomial of
// exp(r) and its k, for x = k ln2/256 + r: pass 1 of expVector. Below -708 both are 0.
func (e *expLanes) reduce(x archsimd.Float64x8) (archsimd.Float64x8, archsimd.Int64x8) {
	x = e.zero.Merge(x, x.Greater(e.zero))
	kd := x.Mul(e.invStep).Add(e.shifter)
	k := kd.AsInt64x8().Sub(e.shiftInt)
	kd = kd.Sub(e.shifter)
	r := x.Sub(kd.Mul(e.stepHi)).Sub(kd.Mul(e.stepLo))
	poly := e.one.Add(r.Mul(e.one.Add(r.Mul(e.c2.Add(r.Mul(e.c3.Add(r.Mul(e.c4.Add(r.Mul(e.c5))))))))))
	under := x.Less(e.floor)
	return e.zero.Merge(poly, under), e.zeroInt.Merge(k, under)
}

// lookUp writes the table entries 2^((k mod 256)/256) of steps into table: pass 2.
func lookUp(table []uint64, steps []int64) {
	table = table[:len(steps)]
	for i, k := range steps {
		table[i] = expTable[k&(expTableSize-1)]
	}
}

// scaleByTable returns poly times 2^(k/256), the table entry (table, eight values) with
// 2^(k div 256) added to its exponent field: pass 3.
func scaleByTable(poly archsimd.Float64x8, k archsimd.Int64x8, table []uint64) archsimd.Float64x8 {
	pow2 := archsimd.LoadUint64x8Slice(table).AsInt64x8().Add(k.ShiftAllRight(expTableBits).ShiftAllLeft(52))
	return poly.Mul(pow2.AsFloat64x8())
}
