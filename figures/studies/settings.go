package studies

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"dpgibo/baselines"
	"dpgibo/baselines/registry"
	"dpgibo/experiments/algocfg"
	"dpgibo/internal/jsonnum"
)

// setting is what a config label of a figure stands for: the block it was run in and the
// swept value (the typed values the runner built the label from).
type setting struct {
	// mu is the cell's mu: the swept value of a block that sweeps mu, else the block's.
	mu float64
	// algo are the block's settings; blockLabel its own label ("" for none).
	algo       algocfg.Config
	blockLabel string
	// config is the method's own config in the block (nil for none).
	config baselines.Config
}

// manifestBlock is a block of a manifest's figure, as the runner records it (runner.Block's
// JSON), with the fields the labels are built from.
type manifestBlock struct {
	Label   string
	Sweep   string
	Values  []jsonnum.Float
	Methods []string
	Algo    algocfg.Config
	Config  json.RawMessage
}

// figureSettings reads figure fig's blocks from the manifest in dir that records it
// (manifest-FIG.json, else manifest.json) and returns, for every config label its rows
// carry, the setting it stands for: each label built from the blocks' typed values
// (algocfg.Label, as the runner builds it), never parsed.
func figureSettings(dir, fig string) (map[string]setting, error) {
	var path string
	var raw []byte
	for _, name := range []string{"manifest-" + fig + ".json", "manifest.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		path, raw = filepath.Join(dir, name), b
		break
	}
	if raw == nil {
		return nil, fmt.Errorf("no manifest of figure %s in %s (manifest-%s.json or manifest.json)", fig, dir, fig)
	}
	var m struct {
		Figures []struct {
			Name   string
			Blocks []manifestBlock
		} `json:"figures"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range m.Figures {
		if f.Name != fig {
			continue
		}
		out := map[string]setting{}
		for _, b := range f.Blocks {
			values := b.Values
			if b.Sweep == "" {
				values = []jsonnum.Float{0}
			}
			for _, method := range b.Methods {
				config, err := methodConfig(method, b.Config)
				if err != nil {
					return nil, fmt.Errorf("%s: figure %s: %w", path, fig, err)
				}
				for _, v := range values {
					s := setting{mu: float64(b.Algo.Mu), algo: b.Algo, blockLabel: b.Label, config: config}
					if b.Sweep == "mu" && algocfg.Reads(method, "mu") {
						s.mu = float64(v)
					}
					out[algocfg.Label(b.Label, b.Sweep, float64(v), method, config, b.Algo)] = s
				}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s records no figure %s", path, fig)
}

// methodConfig decodes a block's recorded config as method's own config type (nil when the
// block has none or the method takes none).
func methodConfig(method string, raw json.RawMessage) (baselines.Config, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	c, _, err := registry.DecodeConfig(method, raw)
	return c, err
}
