//go:build goexperiment.simd && amd64

package svr

import (
	"math"
	"simd/archsimd"
)

// vectorSMO says whether this CPU runs the solver's AVX-512 paths. Each computes exactly
// what the scalar loop of selectUp, selectLow or updateResid computes (the same operations
// on the same values, the same choices in the same order), so the solver's results do not
// depend on it (TestSMOVectorPathsBitIdentical, and the pins).
var vectorSMO = archsimd.X86.AVX512()

// lanePositions are 2k for k = 0..7: the scan position of alpha_k; alpha*_k is 2k + 1.
// A plain array: loading it into a vector register is an AVX-512 instruction, so it
// happens inside selectUpVector, behind the vectorSMO check, never at package init.
var lanePositions = [8]int64{0, 2, 4, 6, 8, 10, 12, 14}

// selectUpVector runs selectUp's scan over the first multiple of 8 points, eight lanes
// side by side, and returns how many points it covered with the state the scalar scan
// would have after them. Each lane keeps the first maximum (and first minimum) of its
// own points; as the scalar scan ends on the first of the values equal to the overall
// maximum, replaying the lanes' winners in scan order with the scalar comparison gives
// the same value and index.
func selectUpVector(resid, alpha, alphaStar []float64, C, eps float64) (done int, up, low float64, iUp int, iStar bool) {
	done = len(resid) &^ 7
	var (
		epsV    = archsimd.BroadcastFloat64x8(eps)
		cV      = archsimd.BroadcastFloat64x8(C)
		zero    = archsimd.BroadcastFloat64x8(0)
		upV     = archsimd.BroadcastFloat64x8(math.Inf(-1))
		lowV    = archsimd.BroadcastFloat64x8(math.Inf(1))
		upPos   = archsimd.BroadcastInt64x8(-1)
		lowPos  = archsimd.BroadcastInt64x8(-1)
		one     = archsimd.BroadcastInt64x8(1)
		step    = archsimd.BroadcastInt64x8(16)
		posDown = archsimd.LoadInt64x8(&lanePositions)
	)
	for k := 0; k < done; k += 8 {
		r := archsimd.LoadFloat64x8Slice(resid[k : k+8])
		a := archsimd.LoadFloat64x8Slice(alpha[k : k+8])
		as := archsimd.LoadFloat64x8Slice(alphaStar[k : k+8])
		va, vs := r.Sub(epsV), r.Add(epsV)
		posStar := posDown.Add(one)
		m := a.Less(cV).And(va.Greater(upV))
		upV, upPos = va.Merge(upV, m), posDown.Merge(upPos, m)
		m = as.Greater(zero).And(vs.Greater(upV))
		upV, upPos = vs.Merge(upV, m), posStar.Merge(upPos, m)
		m = a.Greater(zero).And(va.Less(lowV))
		lowV, lowPos = va.Merge(lowV, m), posDown.Merge(lowPos, m)
		m = as.Less(cV).And(vs.Less(lowV))
		lowV, lowPos = vs.Merge(lowV, m), posStar.Merge(lowPos, m)
		posDown = posDown.Add(step)
	}
	var upVals, lowVals [8]float64
	var upAt, lowAt [8]int64
	upV.Store(&upVals)
	lowV.Store(&lowVals)
	upPos.Store(&upAt)
	lowPos.Store(&lowAt)
	up, low, iUp = math.Inf(-1), math.Inf(1), -1
	var lanes [8]int
	for _, lane := range lanes[:scanOrder(&upAt, &lanes)] {
		if v := upVals[lane]; v > up {
			up, iUp, iStar = v, int(upAt[lane]/2), upAt[lane]%2 == 1
		}
	}
	for _, lane := range lanes[:scanOrder(&lowAt, &lanes)] {
		if v := lowVals[lane]; v < low {
			low = v
		}
	}
	return done, up, low, iUp, iStar
}

// scanOrder writes into lanes the lanes that hold a position (>= 0), by increasing
// position, and returns their number.
func scanOrder(pos *[8]int64, lanes *[8]int) int {
	n := 0
	for lane, p := range pos {
		if p < 0 {
			continue
		}
		i := n
		for ; i > 0 && pos[lanes[i-1]] > p; i-- {
			lanes[i] = lanes[i-1]
		}
		lanes[i] = lane
		n++
	}
	return n
}

// qualify computes, for the first multiple of 8 points, selectLow's curvature eta_t and
// the gains b of the two candidates of each point, with a bit per candidate that may be
// chosen (alpha_t > 0 and b > 0; alpha*_t < C and b > 0), and returns how many points it
// covered.
func (s *smo) qualify(resid, alpha, alphaStar, diag, ki []float64, dii, up, C, eps float64) int {
	done := len(resid) &^ 7
	var (
		epsV = archsimd.BroadcastFloat64x8(eps)
		cV   = archsimd.BroadcastFloat64x8(C)
		zero = archsimd.BroadcastFloat64x8(0)
		diiV = archsimd.BroadcastFloat64x8(dii)
		upV  = archsimd.BroadcastFloat64x8(up)
		two  = archsimd.BroadcastFloat64x8(2)
		tauV = archsimd.BroadcastFloat64x8(tau)
	)
	for t := 0; t < done; t += 8 {
		r := archsimd.LoadFloat64x8Slice(resid[t : t+8])
		eta := diiV.Add(archsimd.LoadFloat64x8Slice(diag[t : t+8])).Sub(two.Mul(archsimd.LoadFloat64x8Slice(ki[t : t+8])))
		eta = tauV.Merge(eta, eta.LessEqual(zero))
		bUp := upV.Sub(r.Sub(epsV))
		bDown := upV.Sub(r.Add(epsV))
		qUp := archsimd.LoadFloat64x8Slice(alpha[t : t+8]).Greater(zero).And(bUp.Greater(zero))
		qDown := archsimd.LoadFloat64x8Slice(alphaStar[t : t+8]).Less(cV).And(bDown.Greater(zero))
		eta.StoreSlice(s.eta[t : t+8])
		bUp.StoreSlice(s.gainUp[t : t+8])
		bDown.StoreSlice(s.gainDown[t : t+8])
		s.qualUp[t/8], s.qualDown[t/8] = qUp.ToBits(), qDown.ToBits()
	}
	return done
}

// updateResidVector does updateResid's update for the first multiple of 8 values and
// returns their number.
func updateResidVector(resid, ki, kj []float64, delta float64) int {
	done := len(resid) &^ 7
	deltaV := archsimd.BroadcastFloat64x8(delta)
	for m := 0; m < done; m += 8 {
		diff := archsimd.LoadFloat64x8Slice(ki[m : m+8]).Sub(archsimd.LoadFloat64x8Slice(kj[m : m+8]))
		r := archsimd.LoadFloat64x8Slice(resid[m : m+8])
		r.Sub(deltaV.Mul(diff)).StoreSlice(resid[m : m+8])
	}
	return done
}
