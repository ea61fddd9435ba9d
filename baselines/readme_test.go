package baselines

import (
	"os"
	"strings"
	"testing"
)

// The example of docs/extending.md, section "Adding a baseline", lives in
// example_coordsearch_test.go so that it is compiled and run by every generic test of this
// package (budget, box, determinism, NaN, ledger) without being shipped. In a real addition
// the file is baselines/coordsearch.go and this registration is one line of registry.go.
func init() {
	if err := Register(MethodInfo{Name: "coordsearch", Legend: "Coordinate search", Reads: []string{"noise"}}, newCoordSearch); err != nil {
		panic(err)
	}
	scoreBased = append(scoreBased, "coordsearch")
}

// TestREADMEExampleCompiles checks that the code docs/extending.md shows for baselines/coordsearch.go
// is exactly the code compiled and tested here.
func TestREADMEExampleCompiles(t *testing.T) {
	readme, err := os.ReadFile("../docs/extending.md")
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
		t.Errorf("docs/extending.md's coordsearch.go differs from baselines/example_coordsearch_test.go; update one from the other")
	}
}

// TestExtendingQuotesTheModule checks that every Go block docs/extending.md shows from
// .ci/extendmodule/main.go (marked <!-- from .ci/extendmodule/main.go -->) is in that file
// as it is, so that the page shows the code CI runs.
func TestExtendingQuotesTheModule(t *testing.T) {
	page, err := os.ReadFile("../docs/extending.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../.ci/extendmodule/main.go")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- from .ci/extendmodule/main.go -->\n```go\n"
	parts := strings.Split(string(page), marker)
	if len(parts) < 4 {
		t.Fatalf("docs/extending.md quotes the module %d times, want the steps of the page", len(parts)-1)
	}
	for i, p := range parts[1:] {
		code, _, ok := strings.Cut(p, "```\n")
		if !ok {
			t.Fatalf("quote %d: unterminated block", i+1)
		}
		if !strings.Contains(string(src), code) {
			t.Errorf("quote %d of docs/extending.md is not in .ci/extendmodule/main.go as it is:\n%s", i+1, code)
		}
	}
}
