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
