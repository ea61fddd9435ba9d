package stats

import "sync"

// pmfKey names an exact null distribution: Mann-Whitney's U for samples of sizes m <= n, or
// (mannWhitney false) the signed-rank statistic for n differences.
type pmfKey struct {
	mannWhitney bool
	m, n        int
}

// pmfs holds every exact null distribution computed so far, by pmfKey. Judging a folder asks
// for the same few sample sizes thousands of times, and each distribution is a function of
// its sizes alone, so it is computed once per process; the slices are shared and only read.
var pmfs sync.Map // pmfKey -> []float64

// rememberedPMF returns the distribution of key, computing it with compute the first time.
func rememberedPMF(key pmfKey, compute func() []float64) []float64 {
	if p, ok := pmfs.Load(key); ok {
		return p.([]float64)
	}
	p, _ := pmfs.LoadOrStore(key, compute())
	return p.([]float64)
}
