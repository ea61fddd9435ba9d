package runinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// Version names the module, the commit (and a modified work tree), the build tags and
// GOEXPERIMENT of the build information it is given, and says when the commit is unknown.
func TestVersionFormatsBuildInformation(t *testing.T) {
	platform := "go: go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "dpgibo", Version: "v0.0.0-20261128165321-ad5ed15a1b2c+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "-tags", Value: "openblas"},
			{Key: "GOEXPERIMENT", Value: "simd"},
			{Key: "vcs.revision", Value: "ad5ed15a1b2c3d4e5f60718293a4b5c6d7e8f901"},
			{Key: "vcs.time", Value: "2026-11-28T16:53:21Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	want := "module: dpgibo v0.0.0-20261128165321-ad5ed15a1b2c+dirty\n" +
		"commit: ad5ed15a1b2c3d4e5f60718293a4b5c6d7e8f901 (work tree modified)\n" +
		"commit time: 2026-11-28T16:53:21Z\n" +
		"build tags: openblas\n" +
		"GOEXPERIMENT: simd\n" + platform
	if got := formatVersion(stamped); got != want {
		t.Errorf("a stamped build:\n%s\nwant\n%s", got, want)
	}

	stamped.Settings[4].Value = "false"
	if got := formatVersion(stamped); !strings.Contains(got, "commit: ad5ed15a1b2c3d4e5f60718293a4b5c6d7e8f901\n") {
		t.Errorf("a clean work tree:\n%s", got)
	}

	bare := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "dpgibo", Version: "(devel)"}}
	want = "module: dpgibo (devel)\n" +
		"commit: unknown (not stamped: go run, go test and builds outside a git checkout record none)\n" +
		"build tags: none\n" +
		"GOEXPERIMENT: none\n" + platform
	if got := formatVersion(bare); got != want {
		t.Errorf("a build without VCS stamp, tags or GOEXPERIMENT:\n%s\nwant\n%s", got, want)
	}
}

// Version describes this very binary: its GOEXPERIMENT line names simd exactly when the
// build tag goexperiment.simd was set, and it agrees with GoExperiment.
func TestVersionDescribesThisBinary(t *testing.T) {
	got := Version()
	line := "GOEXPERIMENT: none\n"
	if e := GoExperiment(); e != "" {
		line = "GOEXPERIMENT: " + e + "\n"
	}
	if !strings.Contains(got, line) {
		t.Errorf("Version() lacks %q:\n%s", line, got)
	}
	if strings.Contains(got, "simd") != builtWithSIMD {
		t.Errorf("Version() names simd: %v; the build tag goexperiment.simd is %v:\n%s", !builtWithSIMD, builtWithSIMD, got)
	}
	if !strings.HasPrefix(got, "module: dpgibo") || !strings.Contains(got, "go: "+runtime.Version()+" ") {
		t.Errorf("Version() does not name the module dpgibo and this toolchain %s:\n%s", runtime.Version(), got)
	}
}
