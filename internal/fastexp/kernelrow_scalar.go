//go:build !(goexperiment.simd && amd64)

package fastexp

// vectorAvailable is false without GOEXPERIMENT=simd on amd64: KernelRow runs its scalar
// loop.
const vectorAvailable = false

// kernelRowVector computes nothing in this build; KernelRow's scalar loop does every value.
func kernelRowVector(dst, cross, shift []float64, base float64) int { return 0 }

// scaledExpVector computes nothing in this build; ScaledExp's scalar loop does every value.
func scaledExpVector(dst []float64, scale float64) int { return 0 }

// kernelSumsVector computes nothing in this build; KernelSums's scalar loop does every sum.
func kernelSumsVector(dst []float64, cross []float32, stride int, base, shift, coef []float64, bias float64) int {
	return 0
}
