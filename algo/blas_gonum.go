//go:build !openblas

package algo

// BLASBackend names the BLAS and LAPACK implementation compiled in: "gonum" (pure Go) in
// the default build; with the openblas build tag "openblas VERSION core=CORE". Results
// agree across backends (and across OpenBLAS core types) only to rounding, so the runner
// records it with every cell.
func BLASBackend() string { return "gonum" }

// BLASConfig is OpenBLAS's build description (openblas_get_config) in the openblas build,
// "" in the pure-Go build.
func BLASConfig() string { return "" }

// BLASCoreType is the CPU kernel set OpenBLAS selected at start-up (openblas_get_corename),
// which the environment variable OPENBLAS_CORETYPE forces; "" in the pure-Go build.
func BLASCoreType() string { return "" }

// SetBLASThreads is a no-op in the pure-Go build (gonum's BLAS runs in the calling
// goroutine); with the openblas build tag it sets OpenBLAS's thread count.
func SetBLASThreads(n int) {}
