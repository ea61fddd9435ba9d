package audit

import (
	"context"
	"testing"
)

// The private tuner's calibrations to its target, end to end through Tune: each row passes
// against its claim and each control, run at 20 times the target while claiming it, is
// caught.
func TestTuneAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("a few thousand runs of Tune")
	}
	cfg := QuickConfig()
	cfg.Runs = 1000
	cfg.Mechanisms = tuneNames()
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		want := pass
		if isControl(r.Mechanism) {
			want = violation
		}
		if r.Verdict != want {
			t.Errorf("%s: %s (mu_lb %v, eps_lb %v), want %s", r.Mechanism, r.Verdict, r.MuLB, r.EpsLB, want)
		}
	}
}
