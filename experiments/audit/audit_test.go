package audit

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNeighboursDifferInUserZeroOnly(t *testing.T) {
	x, xp, err := newLinearNeighbours(3, 5, 4, 10)
	if err != nil {
		t.Fatal(err)
	}
	theta := []float64{0.7, -2, 3}
	lx := make([]float64, 5)
	lxp := make([]float64, 5)
	if err := x.Losses(theta, lx); err != nil {
		t.Fatal(err)
	}
	if err := xp.Losses(theta, lxp); err != nil {
		t.Fatal(err)
	}
	if lx[0] != 4*0.7 || lxp[0] != -4*0.7 {
		t.Errorf("user 0 losses %v, %v; want +-2.8", lx[0], lxp[0])
	}
	for i := 1; i < 5; i++ {
		if lx[i] != lxp[i] {
			t.Errorf("user %d differs between X and X': %v vs %v", i, lx[i], lxp[i])
		}
	}
	if err := x.Losses(theta[:2], lx); err == nil {
		t.Error("short theta: no error")
	}
	if _, _, err := newLinearNeighbours(1, 0, 4, 10); err == nil {
		t.Error("zero users: no error")
	}
}

func TestConfigValidation(t *testing.T) {
	for name, mutate := range map[string]func(*config){
		"negative slope": func(c *config) { c.Slope = -1 },
		"runs":           func(c *config) { c.Runs = 3 },
		"confidence":     func(c *config) { c.Confidence = 1 },
		"mu inf":         func(c *config) { c.Mu = math.Inf(1) },
		"unknown":        func(c *config) { c.Mechanisms = []string{"dp-nothing"} },
	} {
		c := QuickConfig()
		mutate(&c)
		if _, err := mechanisms(c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestWorstCaseConstruction(t *testing.T) {
	if err := checkWorstCase(context.Background(), QuickConfig()); err != nil {
		t.Fatal(err)
	}
	// A slope so small that user 0's surrogate gradient is not clipped is not a worst
	// case, and the check must say so.
	c := QuickConfig()
	c.Slope = 0.5 * c.Clip
	if err := checkWorstCase(context.Background(), c); err == nil {
		t.Error("slope below Clip passed the worst-case check")
	}
}

func TestFlipNeighbours(t *testing.T) {
	if err := checkFlip(context.Background(), QuickConfig()); err != nil {
		t.Fatal(err)
	}
	x, xp, err := newFlipNeighbours(2, 4, 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	lx, lxp := make([]float64, 4), make([]float64, 4)
	_ = x.Losses([]float64{0.5, 1}, lx)
	_ = xp.Losses([]float64{0.5, 1}, lxp)
	if lx[0] != 1.5 || lxp[0] != 0 || lx[1] != 0 || lxp[1] != 0 {
		t.Fatalf("flip neighbours' losses %v and %v, want user 0 at 1.5 and 0, others 0", lx, lxp)
	}
	// With user 0's slope below B_0 it is never clipped in X: not a flip, and the check
	// must say so.
	c := QuickConfig()
	c.Slope = 0.5 * c.Clip
	if err := checkFlip(context.Background(), c); err == nil {
		t.Error("slope below B_0 passed the flip check")
	}
}

// The calibration's first count flips between the neighbours without noise, and a slope
// below the first candidate (so user 0 is not counted above it in X) fails the check.
func TestCalibrationFlip(t *testing.T) {
	if err := checkCalibrationFlip(context.Background(), QuickConfig()); err != nil {
		t.Fatal(err)
	}
	c := QuickConfig()
	c.Slope = 1e-4 * c.Clip
	if err := checkCalibrationFlip(context.Background(), c); err == nil {
		t.Error("a slope below the first candidate passed the calibration flip check")
	}
}

// TestQuickAudit is the short audit of the issue: the real mechanism passes and both broken
// controls are flagged, at a few hundred runs per dataset.
func TestQuickAudit(t *testing.T) {
	cfg := QuickConfig()
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(cfg.Mechanisms) {
		t.Fatalf("%d rows for %d mechanisms", len(rows), len(cfg.Mechanisms))
	}
	for _, r := range rows {
		t.Logf("%-22s mu=%.2f mu_hat=%.3f mu_lb=%.3f R=%d %s", r.Mechanism, r.MuClaimed, r.MuHat, r.MuLB, r.Runs, r.Verdict)
		want := pass
		if isControl(r.Mechanism) {
			want = violation
		}
		if r.Verdict != want {
			t.Errorf("%s: verdict %s, want %s (mu_lb %.3f, claimed %.3f)", r.Mechanism, r.Verdict, want, r.MuLB, r.MuClaimed)
		}
	}
}

func TestRunWritesTable(t *testing.T) {
	if testing.Short() {
		t.Skip("second quick audit")
	}
	dir := t.TempDir()
	cfg := QuickConfig()
	cfg.Runs = 100
	cfg.Mechanisms = []string{DPGIBO, controlNoClip}
	if err := Run(context.Background(), cfg, dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "audit.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0][:6], ","); got != "mechanism,mu_claimed,mu_hat,mu_lb,R,verdict" {
		t.Errorf("header %q", got)
	}
	if len(recs) != 3 || recs[1][0] != DPGIBO || recs[2][0] != controlNoClip {
		t.Errorf("rows %v", recs)
	}
	md, err := os.ReadFile(filepath.Join(dir, "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| "+controlNoClip+" |") {
		t.Errorf("audit.md lacks the control row:\n%s", md)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestAuditIndependentOfWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("two small audits")
	}
	cfg := QuickConfig()
	cfg.Runs = 40
	cfg.Mechanisms = []string{DPGIBO}
	var rows [2][]row
	for i, w := range []int{1, 2} {
		cfg.Workers = w
		r, err := Audit(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = r
	}
	if rows[0][0] != rows[1][0] {
		t.Errorf("1 worker %+v, 2 workers %+v", rows[0][0], rows[1][0])
	}
}

func TestDefaultConfigAuditsEveryKnownMechanism(t *testing.T) {
	got := DefaultConfig().Mechanisms
	for _, name := range knownMechanisms() {
		found := false
		for _, g := range got {
			found = found || g == name
		}
		if !found {
			t.Errorf("DefaultConfig does not audit %s", name)
		}
	}
	if _, err := mechanisms(DefaultConfig()); err != nil {
		t.Error(err)
	}
}

// dp-zo's row reads its claim (mu_hat near mu: the slope neighbours separate its released
// scalars by exactly the sensitivity the noise is calibrated to), and its control, run with
// half the noise, is flagged.
func TestZerothOrderAudit(t *testing.T) {
	cfg := QuickConfig()
	cfg.Runs = 3000
	cfg.Mechanisms = []string{dpZO, controlDPZONoiseHalved}
	rows, err := Audit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Verdict != pass || rows[1].Verdict != violation {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0].MuHat / rows[0].MuClaimed; r < 0.8 || r > 1.2 {
		t.Errorf("dp-zo: mu_hat/mu = %v, want near 1 (a tight audit)", r)
	}
}
