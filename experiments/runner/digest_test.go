package runner_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpgibo/figures/verdict"
	"dpgibo/internal/artefacts"
	"dpgibo/internal/blasinfo"
)

// digestFile is the byte guard of the quick suite for this build: the SHA-256 of every
// figure CSV and fstar.csv of the reference quick run. Pure Go on amd64 has one file, OpenBLAS
// one for blasinfo.RecordedCore (results agree across kernel sets and architectures to
// rounding only; elsewhere TestQuickSuiteDigests says so and skips, and the runs' repetition
// is checked by TestWorkersGiveIdenticalBytes, TestShardsMergedEqualUnsharded and
// TestResumeAfterCancelEqualsUninterrupted).
func digestFile() string {
	name := "gonum"
	if core := blasinfo.CoreType(); core != "" {
		name = "openblas-" + strings.ToLower(core)
	}
	return filepath.Join("testdata", "quick-digests-"+name+".txt")
}

// quickDigests returns "sha256  name" lines of the reference run's figure CSVs and fstar.csv
// (the verdict files are derived from them and follow the declared claims).
func quickDigests(t *testing.T) string {
	t.Helper()
	var lines []string
	for name, b := range resultFiles(t, reference(t)) {
		if slices.Contains(verdict.Files, name) {
			continue
		}
		sum := sha256.Sum256(b)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+name)
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[66:], b[66:]) })
	return strings.Join(lines, "\n") + "\n"
}

// The quick suite's results are the committed digests: a refactor moves no byte. A change
// that means to move results rewrites the fixture (DPGIBO_UPDATE_DIGESTS=1 go test -run
// TestQuickSuiteDigests ./experiments) and says so in its commit.
func TestQuickSuiteDigests(t *testing.T) {
	if os.Getenv("DPGIBO_UPDATE_DIGESTS") != "1" {
		artefacts.Check(t)
	}
	got := quickDigests(t)
	path := digestFile()
	if os.Getenv("DPGIBO_UPDATE_DIGESTS") == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if ok, why := blasinfo.PinsApply(); !ok {
		t.Skipf("%s: the digests of %s do not apply", why, path)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the quick suite's results differ from %s:\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines of want missing from got and of got missing from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if l != "" && !slices.Contains(g, l) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if l != "" && !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
