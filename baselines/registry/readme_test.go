package registry_test

import (
	"os"
	"strings"
	"testing"

	"dpgibo/baselines/registry"
)

// The example of docs/extending.md, section "Adding a baseline", lives in
// example_coordsearch_test.go so that it is compiled and run by every generic test of this
// package (budget, box, determinism, NaN, ledger) without being shipped. In a real addition
// the method is a file of its family's package and this registration is one line of
// registry.go.
func init() {
	if err := registry.Register(CoordSearch{}, newCoordSearch); err != nil {
		panic(err)
	}
	scoreBased = append(scoreBased, "coordsearch")
}

// TestREADMEExampleCompiles checks that the code docs/extending.md shows for baselines/coordsearch.go
// is exactly the code compiled and tested here.
func TestREADMEExampleCompiles(t *testing.T) {
	readme, err := os.ReadFile("../../docs/extending.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_coordsearch_test.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	const marker = "<!-- example: baselines/coordsearch.go -->"
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("docs/extending.md has no %q", marker)
	}
	rest := text[i+len(marker):]
	start := strings.Index(rest, "```go\n")
	if start < 0 {
		t.Fatal("docs/extending.md: no ```go block after the example marker")
	}
	rest = rest[start+len("```go\n"):]
	end := strings.Index(rest, "```")
	if end < 0 {
		t.Fatal("docs/extending.md: unterminated example block")
	}
	if got, want := strings.TrimSpace(rest[:end]), strings.TrimSpace(string(example)); got != want {
		t.Errorf("docs/extending.md's coordsearch.go differs from baselines/registry/example_coordsearch_test.go; update one from the other")
	}
}
