package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeMaxLines is README's length budget: the two commands, the tally and the one call
// fit on a page; details live in docs/.
const readmeMaxLines = 220

func TestReadmeFitsItsBudget(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, above its budget of %d: move details to docs/", n, readmeMaxLines)
	}
}
