//go:build !amd64

package gemm

func kernel(kc int, a, b, c []float64, ldc int, alpha float64) {
	kernelGo(kc, a, b, c, ldc, alpha)
}
