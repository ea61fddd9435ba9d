package audit_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"dpgibo/experiments/audit"
)

// A mechanism whose output is N(0, 1) on X and N(1, 1) on X' is exactly 1-GDP; the audit
// estimates its mu and bounds it from below.
func ExampleEstimateMu() {
	rng := rand.New(rand.NewPCG(1, 2))
	outX := make([]float64, 20000)
	outXPrime := make([]float64, 20000)
	for i := range outX {
		outX[i] = rng.NormFloat64()
		outXPrime[i] = 1 + rng.NormFloat64()
	}
	est, err := audit.EstimateMu(outX, outXPrime, 0.95)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mu_hat about 1: %v, mu_lb <= 1: %v\n", est.MuHat > 0.9 && est.MuHat < 1.1, est.MuLB <= 1)
	// Output: mu_hat about 1: true, mu_lb <= 1: true
}

// The short audit: the real DP-GIBO passes, a copy with half the noise is caught.
func ExampleAudit() {
	cfg := audit.QuickConfig()
	cfg.Mechanisms = []string{audit.DPGIBO, audit.ControlNoiseHalved}
	rows, err := audit.Audit(context.Background(), cfg)
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Println(r.Mechanism, r.Verdict)
	}
	// Output:
	// dp-gibo pass
	// control:noise-halved violation
}
