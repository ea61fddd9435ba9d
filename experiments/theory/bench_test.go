package theory

import (
	"context"
	"testing"

	"dpgibo/internal/rates"
)

// BenchmarkRateRun is one run of the rate sweep (d = 2, n = 400, mu = 1, T = 30).
func BenchmarkRateRun(b *testing.B) {
	cfg, err := DefaultConfig().withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	st := setting{sweep: rates.RateSweep, dim: cfg.RateDim, users: 400, mu: 1, batch: cfg.RateBatch}
	for b.Loop() {
		if _, err := cfg.runOne(context.Background(), st); err != nil {
			b.Fatal(err)
		}
	}
}
