package gemm

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly micro-kernel; both kernels give the same bits.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// kernelAVX2 is kernelGo in AVX2/FMA assembly (kernel_amd64.s); a, b and c point to the
// first elements of the packed panels and of the 4 x 8 tile of C (ldc elements apart).
//
//go:noescape
func kernelAVX2(kc int, a, b, c *float64, ldc int, alpha float64)

func kernel(kc int, a, b, c []float64, ldc int, alpha float64) {
	_ = a[mr*kc-1]
	_ = b[nr*kc-1]
	_ = c[(mr-1)*ldc+nr-1]
	if useAVX2 && kc > 0 {
		kernelAVX2(kc, &a[0], &b[0], &c[0], ldc, alpha)
		return
	}
	kernelGo(kc, a, b, c, ldc, alpha)
}

// useWide selects the AVX-512 micro-kernel for pairs of adjacent B panels (a 4 x 16 tile);
// each entry is computed by the same fused multiply-adds, so the bits do not change.
var useWide = useAVX2 && cpu.X86.HasAVX512F

// kernelAVX512 is kernelWide in AVX-512 assembly (kernel_amd64.s).
//
//go:noescape
func kernelAVX512(kc int, a, b, c *float64, ldc int, alpha float64)

// kernelWide updates the 4 x 16 tile of C at c from the packed A panel and two adjacent
// packed B panels (b holds 2 nr kc values).
func kernelWide(kc int, a, b, c []float64, ldc int, alpha float64) {
	_ = a[mr*kc-1]
	_ = b[2*nr*kc-1]
	_ = c[(mr-1)*ldc+2*nr-1]
	kernelAVX512(kc, &a[0], &b[0], &c[0], ldc, alpha)
}
