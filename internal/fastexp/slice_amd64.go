//go:build amd64 && !amd64.v3

package fastexp

import "golang.org/x/sys/cpu"

var useAVX2 = cpu.X86.HasAVX2

// vectorConsts are the constants of ExpNonPositive, each repeated four times, in the order
// slice_amd64.s reads them; the same constant expressions give the same float64 values.
var vectorConsts = func() (c [11 * 4]uint64) {
	vals := [...]uint64{
		f64bits(expInvStep), f64bits(expShifter), f64bits(expStepHi), f64bits(expStepLo),
		f64bits(1.0 / 120), f64bits(1.0 / 24), f64bits(1.0 / 6), f64bits(1.0 / 2), f64bits(1), f64bits(-708),
		expTableSize - 1,
	}
	for i, v := range vals {
		for j := 0; j < 4; j++ {
			c[4*i+j] = v
		}
	}
	return c
}()

// expSliceAVX2 computes ExpNonPositive of x[0:n] in place, n a positive multiple of 4
// (slice_amd64.s).
//
//go:noescape
func expSliceAVX2(x *float64, n int, consts *uint64, table *uint64)

// expSliceVector handles the longest prefix of x that the vector code takes and returns
// its length.
func expSliceVector(x []float64) int {
	n := len(x) &^ 3
	if !useAVX2 || n == 0 {
		return 0
	}
	expSliceAVX2(&x[0], n, &vectorConsts[0], &expTable[0])
	return n
}
