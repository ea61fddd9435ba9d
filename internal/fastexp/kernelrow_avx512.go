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
	var (
		baseV    = archsimd.BroadcastFloat64x8(base)
		zero     = archsimd.BroadcastFloat64x8(0)
		floor    = archsimd.BroadcastFloat64x8(-708)
		invStep  = archsimd.BroadcastFloat64x8(expInvStep)
		shifter  = archsimd.BroadcastFloat64x8(expShifter)
		shiftInt = archsimd.BroadcastInt64x8(int64(math.Float64bits(expShifter)))
		stepHi   = archsimd.BroadcastFloat64x8(expStepHi)
		stepLo   = archsimd.BroadcastFloat64x8(expStepLo)
		one      = archsimd.BroadcastFloat64x8(1)
		c2       = archsimd.BroadcastFloat64x8(1.0 / 2)
		c3       = archsimd.BroadcastFloat64x8(1.0 / 6)
		c4       = archsimd.BroadcastFloat64x8(1.0 / 24)
		c5       = archsimd.BroadcastFloat64x8(1.0 / 120)
		zeroInt  = archsimd.BroadcastInt64x8(0)
		scaleV   = archsimd.BroadcastFloat64x8(scale)
	)
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
			x = zero.Merge(x, x.Greater(zero)) // min(x, 0), NaN kept
			kd := x.Mul(invStep).Add(shifter)
			k := kd.AsInt64x8().Sub(shiftInt)
			kd = kd.Sub(shifter)
			r := x.Sub(kd.Mul(stepHi)).Sub(kd.Mul(stepLo))
			poly := one.Add(r.Mul(one.Add(r.Mul(c2.Add(r.Mul(c3.Add(r.Mul(c4.Add(r.Mul(c5))))))))))
			under := x.Less(floor)
			zero.Merge(poly, under).StoreSlice(d[i : i+8])
			zeroInt.Merge(k, under).StoreSlice(steps[i : i+8])
		}
		for i, k := range steps[:n] {
			table[i] = expTable[k&(expTableSize-1)]
		}
		for i := 0; i < n; i += 8 {
			k := archsimd.LoadInt64x8Slice(steps[i : i+8])
			pow2 := archsimd.LoadUint64x8Slice(table[i : i+8]).AsInt64x8().Add(k.ShiftAllRight(expTableBits).ShiftAllLeft(52))
			archsimd.LoadFloat64x8Slice(d[i : i+8]).Mul(pow2.AsFloat64x8()).Mul(scaleV).StoreSlice(d[i : i+8])
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
	var (
		zero     = archsimd.BroadcastFloat64x8(0)
		floor    = archsimd.BroadcastFloat64x8(-708)
		invStep  = archsimd.BroadcastFloat64x8(expInvStep)
		shifter  = archsimd.BroadcastFloat64x8(expShifter)
		shiftInt = archsimd.BroadcastInt64x8(int64(math.Float64bits(expShifter)))
		stepHi   = archsimd.BroadcastFloat64x8(expStepHi)
		stepLo   = archsimd.BroadcastFloat64x8(expStepLo)
		one      = archsimd.BroadcastFloat64x8(1)
		c2       = archsimd.BroadcastFloat64x8(1.0 / 2)
		c3       = archsimd.BroadcastFloat64x8(1.0 / 6)
		c4       = archsimd.BroadcastFloat64x8(1.0 / 24)
		c5       = archsimd.BroadcastFloat64x8(1.0 / 120)
		zeroInt  = archsimd.BroadcastInt64x8(0)
	)
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
				x := baseV.Add(archsimd.BroadcastFloat64x8(shift[k])).Add(c)
				x = zero.Merge(x, x.Greater(zero)) // min(x, 0), NaN kept
				kd := x.Mul(invStep).Add(shifter)
				kk := kd.AsInt64x8().Sub(shiftInt)
				kd = kd.Sub(shifter)
				rem := x.Sub(kd.Mul(stepHi)).Sub(kd.Mul(stepLo))
				poly := one.Add(rem.Mul(one.Add(rem.Mul(c2.Add(rem.Mul(c3.Add(rem.Mul(c4.Add(rem.Mul(c5))))))))))
				under := x.Less(floor)
				zero.Merge(poly, under).StoreSlice(polys[i*8 : i*8+8])
				zeroInt.Merge(kk, under).StoreSlice(steps[i*8 : i*8+8])
			}
			for i, kk := range steps[:kn*8] {
				table[i] = expTable[kk&(expTableSize-1)]
			}
			for i := 0; i < kn; i++ {
				kk := archsimd.LoadInt64x8Slice(steps[i*8 : i*8+8])
				pow2 := archsimd.LoadUint64x8Slice(table[i*8 : i*8+8]).AsInt64x8().Add(kk.ShiftAllRight(expTableBits).ShiftAllLeft(52))
				e := archsimd.LoadFloat64x8Slice(polys[i*8 : i*8+8]).Mul(pow2.AsFloat64x8())
				sum = sum.Add(archsimd.BroadcastFloat64x8(coef[k0+i]).Mul(e))
			}
		}
		sum.StoreSlice(dst[r : r+8])
	}
	return rows
}
