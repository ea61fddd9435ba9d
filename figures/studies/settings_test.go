package studies

import (
	"os"
	"path/filepath"
	"testing"
)

// A figure's labels are built from its manifest's typed blocks: the swept mu of the methods
// that read it, DP-GIBO's defaults and own config, a block's label; a method that reads no
// mu keeps the block's.
func TestFigureSettingsFromTheManifest(t *testing.T) {
	dir := t.TempDir()
	manifest := `{"suite": "s", "figures": [{"Name": "f", "Blocks": [
		{"Methods": ["dpgibo", "dp-rnm", "random"], "Sweep": "mu", "Values": [0.5, 2], "Algo": {"Mu": 1, "Defaults": "library"}},
		{"Methods": ["dpgibo"], "Sweep": "mu", "Values": [0.5], "Algo": {"Mu": 1, "Defaults": "library"}, "Config": {"release": "fallback", "fallback_snr": 0.2}},
		{"Label": "currency=gdp", "Methods": ["dp-rnm"], "Sweep": "mu", "Values": [1], "Algo": {"Mu": 1, "Currency": "gdp"}}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "manifest-f.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := figureSettings(dir, "f")
	if err != nil {
		t.Fatal(err)
	}
	for label, mu := range map[string]float64{
		"mu=0.5,defaults=library": 0.5, "mu=2,defaults=library": 2, "mu=0.5": 0.5, "mu=2": 2, "": 1,
		"mu=0.5,release=fallback,fallback_snr=0.2,defaults=library": 0.5, "currency=gdp,mu=1": 1,
	} {
		s, ok := got[label]
		if !ok || s.mu != mu {
			t.Errorf("label %q: %+v, %v; want mu %v", label, s, ok, mu)
		}
	}
	if len(got) != 7 {
		t.Errorf("%d labels, want 7: %v", len(got), got)
	}
	if _, err := figureSettings(dir, "g"); err == nil {
		t.Errorf("a figure the manifest does not record: no error")
	}
}
