// Package runinfo is the experiment runner's manifest as its readers outside the runner see
// it: what a run did and with which code, configuration and claims (manifest.json,
// manifest-NAME.json). The runner's own manifest adds the figures' full configuration.
package runinfo

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
)

// Manifest is everything of a run's manifest but the figures' configuration.
type Manifest struct {
	// Suite and Only are the -suite and -only flags.
	Suite string `json:"suite"`
	Only  string `json:"only,omitempty"`
	// Args is the command line.
	Args []string `json:"args"`
	// ConfigHash is the SHA-256 of the figures' configuration and the cell list: two runs
	// with the same hash produce the same result CSVs.
	ConfigHash string `json:"config_hash"`
	// Commit is the git commit of the code (from `git rev-parse HEAD` or the build
	// information); Dirty is true when the work tree had uncommitted changes.
	Commit string `json:"commit,omitempty"`
	Dirty  bool   `json:"dirty,omitempty"`
	// GoVersion is runtime.Version(); OS and Arch the platform.
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CPUs      int    `json:"cpus"`
	// BLAS is the BLAS/LAPACK backend of this build (blasinfo.Backend): "gonum", or
	// "openblas VERSION core=CORE"; BLASConfig is OpenBLAS's build description, and
	// BLASReproduce the environment that selects the same OpenBLAS kernels on another
	// machine of the same architecture (OPENBLAS_CORETYPE=CORE).
	BLAS          string `json:"blas"`
	BLASConfig    string `json:"blas_config,omitempty"`
	BLASReproduce string `json:"blas_reproduce,omitempty"`
	// KernelExp is the path of the kernels' exponentials (fastexp.Vectorised): "avx512"
	// in a GOEXPERIMENT=simd build on an AVX-512 CPU, "scalar" otherwise. Both give the
	// same bits; it matters for the timings only.
	KernelExp string `json:"kernel_exp,omitempty"`
	// GoExperiment is the GOEXPERIMENT the binary was built with (its build information;
	// "simd" for run_all.sh's build where the toolchain has Go's SIMD package), "" for none.
	GoExperiment string `json:"go_experiment,omitempty"`
	// CellBLAS lists the distinct backends that computed the merged cells (more than one
	// only with -allow-mixed-backend).
	CellBLAS []string `json:"cell_blas,omitempty"`
	Workers  int      `json:"workers"`
	Shard    string   `json:"shard,omitempty"`
	Resume   bool     `json:"resume"`
	// DataSource says where the SVR data came from (a file or the stand-in).
	DataSource string `json:"data_source,omitempty"`
	// Start and End are wall-clock times (RFC 3339).
	Start string `json:"start"`
	End   string `json:"end"`
	// Cells is the number of cells of the full run; Ran those this invocation ran.
	Cells int `json:"cells"`
	Ran   int `json:"ran"`
	// ClaimsHashes maps each figure of the run with declared claims to the hash of their
	// judged content (claims.Hash), so that claims changed after the run show.
	ClaimsHashes map[string]string `json:"claims_hashes,omitempty"`
}

// Read reads the manifest at path.
func Read(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// GoExperiment returns the GOEXPERIMENT setting of the running binary's build information,
// "" when it was built without one.
func GoExperiment() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "GOEXPERIMENT" {
				return s.Value
			}
		}
	}
	return ""
}

// Commit returns the commit the running binary was built from and whether its work tree
// had uncommitted changes, from the build information that go build stamps; a binary without
// it (go run, go test) falls back to the working directory's repository. "" when unknown.
// The build information comes first: the code that ran is the binary's, and the work tree
// may have moved on while a long run went.
func Commit() (commit string, dirty bool) {
	if info, ok := debug.ReadBuildInfo(); ok {
		var commit string
		var dirty bool
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if commit != "" {
			return commit, dirty
		}
	}
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		commit := strings.TrimSpace(string(out))
		dirty := false
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil {
			dirty = len(strings.TrimSpace(string(st))) > 0
		}
		return commit, dirty
	}
	return "", false
}
