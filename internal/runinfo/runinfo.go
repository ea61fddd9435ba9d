// Package runinfo is the experiment runner's manifest as its readers outside the runner see
// it: what a run did and with which code, configuration and claims (manifest.json,
// manifest-NAME.json). The runner's own manifest adds the figures' full configuration.
package runinfo

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// Version describes the running binary, for the commands' -version flag: the module and
// its version, the VCS commit and whether the work tree had uncommitted changes, the build
// tags, GOEXPERIMENT, and the Go toolchain and platform, one "name: value" line each, from
// the build information that go build stamps. go run and go test stamp no commit, and
// neither does a build outside a git checkout: the commit line then says so.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "no build information in this binary\n"
	}
	return formatVersion(info)
}

// formatVersion is Version for the build information info.
func formatVersion(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	orNone := func(v string) string {
		if v == "" {
			return "none"
		}
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module: %s %s\n", info.Main.Path, orNone(info.Main.Version))
	switch commit := settings["vcs.revision"]; {
	case commit == "":
		b.WriteString("commit: unknown (not stamped: go run, go test and builds outside a git checkout record none)\n")
	case settings["vcs.modified"] == "true":
		fmt.Fprintf(&b, "commit: %s (work tree modified)\n", commit)
	default:
		fmt.Fprintf(&b, "commit: %s\n", commit)
	}
	if t := settings["vcs.time"]; t != "" {
		fmt.Fprintf(&b, "commit time: %s\n", t)
	}
	fmt.Fprintf(&b, "build tags: %s\n", orNone(settings["-tags"]))
	fmt.Fprintf(&b, "GOEXPERIMENT: %s\n", orNone(settings["GOEXPERIMENT"]))
	fmt.Fprintf(&b, "go: %s %s/%s\n", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
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

// RerunEnv names the environment variable that holds the command line a user typed to
// start this run (run_all.sh sets it, e.g. "./run_all.sh -only=fig3c"), which messages
// that say how to resume or redo a run repeat.
const RerunEnv = "DPGIBO_RERUN"

// Rerun returns the command line that repeats this run with flag added (e.g. "-resume"):
// $DPGIBO_RERUN when set, else the program as it was started with args (with "go run
// ./experiments" for a binary that go run built in a temporary directory). -resume and
// -overwrite in args are dropped first, so that the flag given decides. "" when args is nil
// and $DPGIBO_RERUN is unset (a caller of the runner's API, not a command line).
func Rerun(args []string, flag string) string {
	if cmd := os.Getenv(RerunEnv); cmd != "" {
		return cmd + " " + flag
	}
	if args == nil {
		return ""
	}
	prog := os.Args[0]
	if strings.Contains(prog, "go-build") {
		prog = "go run ./experiments"
	}
	words := []string{prog}
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "resume", "resume=true", "overwrite", "overwrite=true":
			continue
		}
		words = append(words, shellQuote(a))
	}
	return strings.Join(append(words, flag), " ")
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain characters.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Unfinished is the record a run leaves in its output directory while its figures are not
// all written (UnfinishedFile): an interrupted run, or a shard whose siblings have not
// finished. The figures command reads it to say which figures are unfinished and how to
// complete them.
type Unfinished struct {
	Suite string `json:"suite"`
	// Figures are the run's figures; Cells and Finished count its cells (of this shard).
	Figures  []string `json:"figures"`
	Cells    int      `json:"cells"`
	Finished int      `json:"finished"`
	// Resume is the command that completes the run ("" when it was started through the
	// runner's API rather than a command line).
	Resume string `json:"resume,omitempty"`
}

// UnfinishedFile is the file of a run's Unfinished record in its output directory: one per
// -only figure, so that runs of several figures into one directory keep theirs apart.
func UnfinishedFile(only string) string {
	if only == "" {
		return "unfinished.json"
	}
	return "unfinished-" + only + ".json"
}

// ReadUnfinished returns the Unfinished records in dir (none when every run there
// finished). A record that cannot be read is returned with its file's name as Suite.
func ReadUnfinished(dir string) []Unfinished {
	paths, _ := filepath.Glob(filepath.Join(dir, "unfinished*.json"))
	var out []Unfinished
	for _, p := range paths {
		var u Unfinished
		if b, err := os.ReadFile(p); err != nil || json.Unmarshal(b, &u) != nil {
			u = Unfinished{Suite: filepath.Base(p)}
		}
		out = append(out, u)
	}
	return out
}

// Describe says, in one line, which figures of u are unfinished and how to complete them.
func (u Unfinished) Describe() string {
	s := fmt.Sprintf("%s (suite %s) unfinished, at least %d of its %d cells done", strings.Join(u.Figures, ", "), u.Suite, u.Finished, u.Cells)
	if u.Resume != "" {
		s += "; complete it with: " + u.Resume
	}
	return s
}

// ResumeWithBackend says how to resume, with a build of BLAS backend made (as recorded in a
// cell's done record), the run of args, by the routes README teaches: run_all.sh (which
// builds with OpenBLAS when it is installed, and with DPGIBO_BLAS=go without it), or a
// binary built with or without -tags openblas.
func ResumeWithBackend(made string, args []string) string {
	rerun := Rerun(args, "-resume")
	if rerun == "" {
		rerun = "the run with Options.Resume"
	}
	viaScript := os.Getenv(RerunEnv) != ""
	if !strings.HasPrefix(made, "openblas") {
		if viaScript {
			return "DPGIBO_BLAS=go " + rerun
		}
		return "go build -o .bin/experiments ./experiments, then " + rerun
	}
	core := ""
	if _, c, ok := strings.Cut(made, " core="); ok && c != "" {
		core = "OPENBLAS_CORETYPE=" + c + " "
	}
	if viaScript {
		return core + rerun + " with OpenBLAS installed (apt-get install libopenblas-dev liblapacke-dev)"
	}
	return "CGO_ENABLED=1 go build -tags openblas -o .bin/experiments ./experiments, then " + core + rerun
}
