//go:build !openblas

package algo

// BLASBackend names the BLAS and LAPACK implementation compiled in: pure-Go gonum by
// default, "openblas" with the openblas build tag.
const BLASBackend = "gonum"

// SetBLASThreads is a no-op in the pure-Go build (gonum's BLAS runs in the calling
// goroutine); with the openblas build tag it sets OpenBLAS's thread count.
func SetBLASThreads(n int) {}
