// Command exported counts, per package, the exported identifiers a reader of the project
// pays for: top-level consts, vars, funcs and types, methods, and struct fields, in every
// package but package main, leaving _test.go files out. It prints one table row per
// package and a total, and exits 1 when the exported top-level names (consts, vars, funcs,
// types) number more than budget.
//
//	cd .ci/exported && go run . ../..
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
)

// counts are one package's exported identifiers.
type counts struct{ consts, vars, funcs, types, methods, fields int }

func (c counts) topLevel() int { return c.consts + c.vars + c.funcs + c.types }

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	byPkg := map[string]*counts{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		c := byPkg[filepath.ToSlash(rel)]
		if c == nil {
			c = &counts{}
			byPkg[filepath.ToSlash(rel)] = c
		}
		count(f, c)
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "exported:", err)
		os.Exit(1)
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\tconsts\tvars\tfuncs\ttypes\ttop-level\tmethods\tfields\t")
	var total counts
	for _, p := range pkgs {
		c := byPkg[p]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", p, c.consts, c.vars, c.funcs, c.types, c.topLevel(), c.methods, c.fields)
		total.consts, total.vars, total.funcs, total.types = total.consts+c.consts, total.vars+c.vars, total.funcs+c.funcs, total.types+c.types
		total.methods, total.fields = total.methods+c.methods, total.fields+c.fields
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", total.consts, total.vars, total.funcs, total.types, total.topLevel(), total.methods, total.fields)
	tw.Flush()
	if n := total.topLevel(); n > budget {
		fmt.Fprintf(os.Stderr, "exported: %d exported top-level names, above the budget of %d: unexport what no other package and no user needs, or raise the budget in .ci/exported/main.go with the reason\n", n, budget)
		os.Exit(1)
	}
}

// budget is the most exported top-level names the project may have (issue 59: 789 when it
// was set). A change that needs more raises it here, in the same commit, with its reason.
const budget = 600

// count adds the exported identifiers of one file to c.
func count(f *ast.File, c *counts) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil {
				c.methods++
			} else {
				c.funcs++
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						if d.Tok == token.CONST {
							c.consts++
						} else {
							c.vars++
						}
					}
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						c.types++
					}
					ast.Inspect(s.Type, func(n ast.Node) bool {
						switch t := n.(type) {
						case *ast.StructType:
							for _, fld := range t.Fields.List {
								for _, n := range fld.Names {
									if n.IsExported() {
										c.fields++
									}
								}
							}
						case *ast.InterfaceType:
							for _, m := range t.Methods.List {
								for _, n := range m.Names {
									if n.IsExported() {
										c.methods++
									}
								}
							}
						}
						return true
					})
				}
			}
		}
	}
}
