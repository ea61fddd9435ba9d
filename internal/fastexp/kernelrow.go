package fastexp

// KernelRow writes dst[k] = ExpNonPositive(min(base+shift[k]+cross[k], 0)), the sums taken
// left to right, for every k: one row of an RBF kernel matrix from its scaled cross
// products, with base = -gamma |u|^2 and shift[k] = -gamma |v_k|^2. dst may be cross
// itself; shift and cross must be at least as long as dst.
//
// Built with GOEXPERIMENT=simd on amd64 and run on a CPU with AVX-512, it computes eight
// values at a time (Vectorised reports whether it does). Every operation is the scalar
// one, in the same order and without fused multiply-adds, so the result is bit for bit
// that of the scalar loop (TestKernelRowBitIdentical).
func KernelRow(dst, cross, shift []float64, base float64) {
	cross, shift = cross[:len(dst)], shift[:len(dst)]
	done := kernelRowVector(dst, cross, shift, base)
	for k := done; k < len(dst); k++ {
		dst[k] = ExpNonPositive(min(base+shift[k]+cross[k], 0))
	}
}

// KernelSums writes into dst[r], for every r < len(dst), the kernel sum
//
//	bias + sum_k coef[k] * ExpNonPositive(min(base[r]+shift[k]+float64(cross[k*stride+r]), 0))
//
// over k < len(coef), in the order of k, every sum and product as written: the
// prediction of a kernel machine from single-precision cross products laid out one
// support vector per row (stride >= len(dst)). On the vector path eight values of r are
// summed side by side, each in the order of k, so the result is bit for bit the scalar
// one (TestKernelSumsBitIdentical).
func KernelSums(dst []float64, cross []float32, stride int, base, shift, coef []float64, bias float64) {
	base, shift = base[:len(dst)], shift[:len(coef)]
	if len(coef) > 0 && len(dst) > 0 {
		_ = cross[(len(coef)-1)*stride+len(dst)-1] // every index in range, checked once
	}
	done := kernelSumsVector(dst, cross, stride, base, shift, coef, bias)
	// The rest row by row in memory order: every row's sum still runs through k in order.
	rest := dst[done:]
	for r := range rest {
		rest[r] = bias
	}
	for k, c := range coef {
		row, sk := cross[k*stride+done:k*stride+len(dst)], shift[k]
		for r, x := range row {
			rest[r] += c * ExpNonPositive(min(base[done+r]+sk+float64(x), 0))
		}
	}
}

// ScaledExp replaces every dst[k] by scale * ExpNonPositive(min(dst[k], 0)), with the
// same eight-at-a-time path and bit-for-bit guarantee as KernelRow: the exponentials of a
// kernel row whose arguments are already formed.
func ScaledExp(dst []float64, scale float64) {
	for k := scaledExpVector(dst, scale); k < len(dst); k++ {
		dst[k] = scale * ExpNonPositive(min(dst[k], 0))
	}
}

// Vectorised returns "avx512" when KernelRow computes eight values at a time and "scalar"
// otherwise, for benchmark labels and run manifests.
func Vectorised() string {
	if vectorAvailable {
		return "avx512"
	}
	return "scalar"
}
