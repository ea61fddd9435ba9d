//go:build !amd64

package gemm

// useAVX2 is false off amd64: the Go micro-kernel runs everywhere.
var useAVX2 = false

func kernel(kc int, a, b, c []float64, ldc int, alpha float64) {
	kernelGo(kc, a, b, c, ldc, alpha)
}

// useWide is false off amd64.
var useWide = false

func kernelWide(kc int, a, b, c []float64, ldc int, alpha float64) {
	kernelGo(kc, a, b[:nr*kc], c, ldc, alpha)
	kernelGo(kc, a, b[nr*kc:], c[nr:], ldc, alpha)
}
