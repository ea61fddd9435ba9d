package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"dpgibo/figures/claims"
	"dpgibo/internal/blasinfo"
	"dpgibo/internal/fastexp"
	"dpgibo/internal/records"
	"dpgibo/internal/runinfo"
)

// manifest records what a run did, so that every CSV can be traced to its configuration
// and code: manifest.json in the output directory, manifest-NAME.json for an -only=NAME
// run (so that running one figure again never overwrites the full run's record), and
// manifest[-NAME]-shard-K-of-N.json for a shard.
type manifest struct {
	runinfo.Manifest
	// Figures is the full configuration of every figure; CellList the stem of every cell
	// in plan order.
	Figures  []Figure `json:"figures"`
	CellList []string `json:"cell_list"`
}

// configHash is the hex SHA-256 of the figures and the plan's cells: the manifest's
// config_hash, which the run's lock and the committed results' staleness checks compare.
func configHash(suite string, p *runPlan) string {
	b, err := json.Marshal(struct {
		Suite   string
		Figures []Figure
		Cells   []string
	}{suite, p.Figures, p.Stems})
	if err != nil {
		panic(fmt.Sprintf("experiments: encoding configuration: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// newManifest is the manifest of a run of p with o started at start.
func newManifest(o Options, p *runPlan, start time.Time) *manifest {
	commit, dirty := runinfo.Commit()
	m := &manifest{Manifest: runinfo.Manifest{
		Suite: o.Suite, Only: o.Only, Args: o.Args, Commit: commit, Dirty: dirty,
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), BLAS: blasinfo.Backend(), BLASConfig: blasinfo.Config(),
		KernelExp: fastexp.Vectorised(), GoExperiment: runinfo.GoExperiment(),
		Workers: o.Workers, Shard: o.Shard.String(), Resume: o.Resume,
		Start: start.Format(time.RFC3339),
	}}
	if core := blasinfo.CoreType(); core != "" {
		m.BLASReproduce = "OPENBLAS_CORETYPE=" + core
	}
	if p != nil {
		m.ConfigHash = configHash(o.Suite, p)
		m.Cells = len(p.Cells)
		m.Figures = p.Figures
		m.CellList = p.Stems
		m.ClaimsHashes = claimsHashes(p.Figures)
		for _, c := range p.Cells {
			if c.DataSource != "" {
				m.DataSource = c.DataSource
				break
			}
		}
	}
	return m
}

// claimsHashes returns claims.Hash of every figure that has claims.
func claimsHashes(figs []Figure) map[string]string {
	statements := claims.Statements()
	out := map[string]string{}
	for _, f := range figs {
		if h := claims.Hash(f.Name, statements); h != "" {
			out[f.Name] = h
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// write stores the manifest atomically in dir under its name.
func (m *manifest) write(dir string, end time.Time) error {
	m.End = end.Format(time.RFC3339)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return records.WriteFileAtomic(filepath.Join(dir, m.fileName()), append(b, '\n'))
}

// fileName is the manifest's file name: manifest.json for a full run, with "-NAME" for an
// -only run and "-shard-K-of-N" for a shard.
func (m *manifest) fileName() string {
	name := "manifest"
	if m.Only != "" {
		name += "-" + m.Only
	}
	if m.Shard != "" {
		name += "-shard-" + strings.Replace(m.Shard, "/", "-of-", 1)
	}
	return name + ".json"
}
