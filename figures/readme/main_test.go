package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpgibo/figures/verdict"
)

// README's generated section is exactly what reproduction/ gives: a result committed
// without regenerating README, or README edited by hand, fails here.
func TestReadmeMatchesReproduction(t *testing.T) {
	old, updated, err := generate(filepath.Join("..", "..", "README.md"), filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if old != updated {
		t.Fatal("README.md's reproduction section differs from reproduction/: run go run ./figures/readme")
	}
	// Every judged claim appears in README with its verdict.
	claims, err := os.ReadFile(filepath.Join("..", "..", "reproduction", "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(claims)), "\n")[1:] {
		id, _, _ := strings.Cut(line, ",")
		if !strings.Contains(old, "`"+id+"`") {
			t.Errorf("claim %s is not in README", id)
		}
	}
}

func TestCheckFailsOnAStaleReadme(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	var stale strings.Builder
	stale.WriteString("intro\n")
	for _, s := range verdict.Sections() {
		stale.WriteString(verdict.SectionBegin(s.Dir) + "\nhand-written numbers\n" + verdict.ReportEnd + "\nbetween\n")
	}
	stale.WriteString("outro\n")
	if err := os.WriteFile(readme, []byte(stale.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	if err := run([]string{"-check", "-readme", readme, "-root", root}, os.Stderr); err == nil {
		t.Fatal("-check accepted a hand-edited section")
	}
	if err := run([]string{"-readme", readme, "-root", root}, os.Stderr); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-check", "-readme", readme, "-root", root}, os.Stderr); err != nil {
		t.Fatalf("after rewriting: %v", err)
	}
	b, _ := os.ReadFile(readme)
	if !strings.HasPrefix(string(b), "intro\n") || !strings.HasSuffix(string(b), "\noutro\n") || strings.Contains(string(b), "hand-written") {
		t.Fatal("the text around the sections changed, or a hand-written body survived")
	}
	if err := os.WriteFile(readme, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-readme", readme, "-root", root}, os.Stderr); err == nil || !strings.Contains(err.Error(), "no generated section") {
		t.Fatalf("README without markers: %v", err)
	}
}
