package audit

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkDPGIBORun is one run of the audited mechanism (the unit of the audit's cost).
func BenchmarkDPGIBORun(b *testing.B) {
	cfg, err := DefaultConfig().withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	m, err := buildMechanism(cfg, DPGIBO)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := m.Run(context.Background(), false, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimateMu is the threshold audit of R = 5000 runs per dataset.
func BenchmarkEstimateMu(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, xp := gaussianPair(rng, 5000, 1)
	for b.Loop() {
		if _, err := EstimateMu(x, xp, 0.95); err != nil {
			b.Fatal(err)
		}
	}
}
