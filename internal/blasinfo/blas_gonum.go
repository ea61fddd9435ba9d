//go:build !openblas

package blasinfo

// Backend names the BLAS and LAPACK implementation compiled in: "gonum" (pure Go) in
// the default build; with the openblas build tag "openblas VERSION core=CORE". Results
// agree across backends (and across OpenBLAS core types) only to rounding, so the runner
// records it with every cell.
func Backend() string { return "gonum" }

// Config is OpenBLAS's build description (openblas_get_config) in the openblas build,
// "" in the pure-Go build.
func Config() string { return "" }

// CoreType is the CPU kernel set OpenBLAS selected at start-up (openblas_get_corename),
// which the environment variable OPENBLAS_CORETYPE forces; "" in the pure-Go build.
func CoreType() string { return "" }

// SetThreads is a no-op in the pure-Go build (gonum's BLAS runs in the calling
// goroutine); with the openblas build tag it sets OpenBLAS's thread count.
func SetThreads(n int) {}

// ReplaceFallbackCore does nothing in the pure-Go build: there is no kernel set to choose.
func ReplaceFallbackCore(force bool) error { return nil }

// Replaced is "" in the pure-Go build.
func Replaced() string { return "" }

func selfCheckFix() string {
	return "gonum's kernels should not depend on alignment: please report it with the output of go version and go env"
}
