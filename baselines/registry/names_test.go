package registry_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dpgibo/baselines/registry"
	_ "dpgibo/private" // registers dp-auto
)

// namesMayAppear are the folders whose code may name a method: the methods' own packages
// (a family declares its methods' names in their Info, the registry lists them), the suites
// (which methods a figure runs) and the claims (which methods a statement compares).
var namesMayAppear = []string{"baselines", "experiments/suites", "figures/claims"}

// TestNoBehaviourKeyedOnAMethodName reads every non-test Go file of the module outside
// namesMayAppear and fails on a string literal that is a registered method's name, or a
// prefix of one passed to a strings function: the engine, the cost model, the plots and the
// tables ask the method value or its Info, never its name. A method's own Info declaration
// (package private's dp-auto) and the module path are the exceptions.
func TestNoBehaviourKeyedOnAMethodName(t *testing.T) {
	names := registry.Names()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || slices.Contains(namesMayAppear, rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		prefixArgs := map[*ast.BasicLit]bool{}
		// A method declares its own name in its Info (baselines.Info{Name: ...}), and the
		// module's path, data.ModulePath, is the literal "dpgibo": neither keys behaviour.
		declared := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if isInfo(n.Type) {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Name" {
								if lit, ok := kv.Value.(*ast.BasicLit); ok {
									declared[lit] = true
								}
							}
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if name.Name == "ModulePath" && i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok {
							declared[lit] = true
						}
					}
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "strings" {
						for _, a := range call.Args {
							if lit, ok := a.(*ast.BasicLit); ok {
								prefixArgs[lit] = true
							}
						}
					}
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.ImportSpec); ok {
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || declared[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, name := range names {
				if s == name || (prefixArgs[lit] && len(s) >= 3 && strings.HasPrefix(name, s)) {
					found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
					break
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("a method's name outside the registry, the suites and the claims: %s", f)
	}
	t.Logf("%d literals naming a method outside %s", len(found), strings.Join(namesMayAppear, ", "))
}

// isInfo reports whether t names the type baselines.Info (Info inside package baselines).
func isInfo(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name == "Info"
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && x.Name == "baselines" && t.Sel.Name == "Info"
	}
	return false
}
