//go:build !amd64 || amd64.v3

package fastexp

var useAVX2 = false

func expSliceVector(x []float64) int { return 0 }
