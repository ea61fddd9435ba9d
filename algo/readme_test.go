package algo

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestREADMEExampleIsAProgram checks that README.md's library example, the ```go block
// between <!-- example: begin --> and <!-- example: end --> that .ci/run builds and runs in
// a module outside this one, is a whole program: package main importing dpgibo/algo and
// dpgibo/private, with a main that calls the one call, private.Tune, and algo.Minimize,
// formatted as gofmt would.
func TestREADMEExampleIsAProgram(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	const begin, end = "<!-- example: begin -->\n```go\n", "```\n<!-- example: end -->"
	i := strings.Index(text, begin)
	if i < 0 || strings.Count(text, begin) != 1 {
		t.Fatalf("README.md needs exactly one %q", begin)
	}
	rest := text[i+len(begin):]
	j := strings.Index(rest, end)
	if j < 0 {
		t.Fatalf("README.md: no %q after the example's start", end)
	}
	src := rest[:j]
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "README.md example", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("README.md's example does not parse: %v", err)
	}
	if formatted, err := format.Source([]byte(src)); err == nil && string(formatted) != src {
		t.Error("README.md's example is not formatted as gofmt formats it")
	}
	if file.Name.Name != "main" {
		t.Errorf("README.md's example is package %s, want main", file.Name.Name)
	}
	imported := map[string]bool{}
	for _, imp := range file.Imports {
		imported[imp.Path.Value] = true
	}
	if !imported[`"dpgibo/algo"`] || !imported[`"dpgibo/private"`] {
		t.Error(`README.md's example does not import "dpgibo/algo" and "dpgibo/private"`)
	}
	calls := map[string]bool{}
	hasMain := false
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != "main" {
			continue
		}
		hasMain = true
		ast.Inspect(fn, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					calls[id.Name+"."+sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	if !hasMain || !calls["private.Tune"] || !calls["algo.Minimize"] {
		t.Errorf("README.md's example: func main present %v, calls private.Tune %v and algo.Minimize %v", hasMain, calls["private.Tune"], calls["algo.Minimize"])
	}
}
