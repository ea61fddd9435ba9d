package fastexp

import "math"

// ExpNonPositiveSlice overwrites every x[i] with ExpNonPositive(x[i]), bit for bit: on amd64
// processors with AVX2 four values at a time by the same operations in the same order
// (slice_amd64.s), elsewhere (and in GOAMD64=v3 builds, where the Go compiler may fuse
// ExpNonPositive's multiply-adds) by ExpNonPositive itself. The kernel loops of the tasks
// form a row of arguments and call it once per row.
func ExpNonPositiveSlice(x []float64) {
	done := expSliceVector(x)
	for i := done; i < len(x); i++ {
		x[i] = ExpNonPositive(x[i])
	}
}

func f64bits(v float64) uint64 { return math.Float64bits(v) }
