package algo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The noise formula the package documentation gives (doc.go, "The algorithm", step 4) and
// PrivacyNoiseStd's doc comment are the same expression, and evaluating it gives what
// PrivacyNoiseStd computes, for the clip B, T iterations, n users and mu_g it is given.
func TestDocumentedNoiseFormulaIsPrivacyNoiseStd(t *testing.T) {
	formula := func(file, pattern string) ast.Expr {
		t.Helper()
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(pattern).FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s: no noise formula matching %q", file, pattern)
		}
		expr, err := parser.ParseExpr(string(m[1]))
		if err != nil {
			t.Fatalf("%s: formula %q: %v", file, m[1], err)
		}
		return expr
	}
	doc := formula("doc.go", `PrivacyNoiseStd = (\S+) to`)
	comment := formula("settings.go", `mu_g, the part of Settings.Mu spent on the gradients:\n// (\S+)\. `)
	for _, c := range []struct{ clip, iters, users, mu float64 }{{1, 25, 1000, 1}, {0.1, 30, 89, 0.2}, {3.7, 7, 12, 2.5}} {
		vars := map[string]float64{"B": c.clip, "T": c.iters, "n": c.users, "mu_g": c.mu}
		want := PrivacyNoiseStd(c.clip, int(c.iters), int(c.users), c.mu)
		for name, expr := range map[string]ast.Expr{"doc.go": doc, "PrivacyNoiseStd's comment": comment} {
			if got := eval(t, expr, vars); math.Abs(got-want) > 1e-15*want {
				t.Errorf("%s's formula at %+v gives %v, PrivacyNoiseStd %v", name, c, got, want)
			}
		}
	}
}

// eval evaluates a formula of numbers, the variables in vars, + - * / and sqrt.
func eval(t *testing.T, e ast.Expr, vars map[string]float64) float64 {
	t.Helper()
	switch x := e.(type) {
	case *ast.BasicLit:
		v, err := strconv.ParseFloat(x.Value, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	case *ast.Ident:
		v, ok := vars[x.Name]
		if !ok {
			t.Fatalf("unknown variable %s in the formula", x.Name)
		}
		return v
	case *ast.ParenExpr:
		return eval(t, x.X, vars)
	case *ast.CallExpr:
		if f, ok := x.Fun.(*ast.Ident); ok && f.Name == "sqrt" && len(x.Args) == 1 {
			return math.Sqrt(eval(t, x.Args[0], vars))
		}
	case *ast.BinaryExpr:
		a, b := eval(t, x.X, vars), eval(t, x.Y, vars)
		switch x.Op {
		case token.ADD:
			return a + b
		case token.SUB:
			return a - b
		case token.MUL:
			return a * b
		case token.QUO:
			return a / b
		}
	}
	t.Fatalf("cannot evaluate %T in the formula", e)
	return 0
}
