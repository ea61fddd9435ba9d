//go:build !goexperiment.simd

package runinfo

const builtWithSIMD = false
