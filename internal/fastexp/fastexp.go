// Package fastexp is the exponential of non-positive arguments used by every RBF kernel
// of this project (algo's surrogate, the gpreg and svr tasks): table-driven, faster than
// math.Exp (BenchmarkExpNonPositive against BenchmarkMathExp) and accurate to 1e-15. It is
// internal: a numeric helper, not part of any package's API.
package fastexp

import "math"

// Table-driven exponential for the kernel's arguments x <= 0, the hot spot of every
// kernel matrix: exp(x) = 2^m * 2^(i/expTableSize) * exp(r) with x = (m expTableSize + i)
// ln2/expTableSize + r, |r| <= ln2/(2 expTableSize), and exp(r) from its Taylor polynomial
// of degree 5 (truncation below 1e-17). The relative error against math.Exp is below 1e-15
// on [-708, 0] (TestExpNonPositive); below -708 it returns 0 (the true value is under
// 1e-307).
const (
	expTableBits = 8
	expTableSize = 1 << expTableBits
	expInvStep   = expTableSize / math.Ln2
	expStepHi    = 6.93147180369123816490e-01 / expTableSize // ln2 split so that k*hi is exact
	expStepLo    = 1.90821492927058770002e-10 / expTableSize
	expShifter   = 0x1.8p52 // adding it rounds to an integer held in the low mantissa bits
)

var expTable = func() (t [expTableSize]uint64) {
	for i := range t {
		t[i] = math.Float64bits(math.Exp2(float64(i) / expTableSize))
	}
	return t
}()

// ExpNonPositive returns e^x for x <= 0 (the argument of every RBF kernel value) faster
// than math.Exp, with relative error below 1e-15 on [-708, 0] and 0 below -708. For x > 0
// the result is unspecified.
func ExpNonPositive(x float64) float64 {
	if x < -708 {
		return 0
	}
	kd := x*expInvStep + expShifter
	k := int64(math.Float64bits(kd)) - int64(math.Float64bits(expShifter)) // round(x/step)
	kd -= expShifter
	r := (x - kd*expStepHi) - kd*expStepLo
	poly := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120)))))
	scale := expTable[k&(expTableSize-1)] + uint64(k>>expTableBits)<<52
	return poly * math.Float64frombits(scale)
}
