package gendisc_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	_ "github.com/gendisc/gendisc/models" // every kind of gendisc
	"github.com/gendisc/gendisc/registry"
)

// TestFamiliesRegisterKinds checks the model families of layering_test.go
// against package registry: the models of every registered kind are of a
// family's package, and every family registers a kind.
func TestFamiliesRegisterKinds(t *testing.T) {
	families := gendisc.FamilyPackages()
	registering := map[string]bool{}
	for _, name := range registry.Kinds() {
		k, _ := registry.Lookup(name)
		typ := k.Type
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(typ.PkgPath(), gendisc.Module), "/")
		if !slices.Contains(families, pkg) {
			t.Errorf("kind %s: its models (%v) are of package %q, not of a model family of layering_test.go", name, k.Type, pkg)
		}
		registering[pkg] = true
	}
	for _, pkg := range families {
		if !registering[pkg] {
			t.Errorf("the model family %s registers no kind", pkg)
		}
	}
}

// TestKindNameOnce checks that the name of every registered kind is
// written once as a string literal in the non-test Go files of the tree
// (the Beam module included): in the constant its family exports, which
// everything else uses. The benchmark harness (bench/) is left out: its
// workloads have names of their own, some of which are kinds' names.
func TestKindNameOnce(t *testing.T) {
	names := map[string]bool{}
	for _, name := range registry.Kinds() {
		names[name] = true
	}
	found := literalsOf(t, ".", names)
	for _, name := range registry.Kinds() {
		if n := len(found[name]); n != 1 {
			t.Errorf("the kind name %q is written %d times, want once (the family's constant): %s", name, n, strings.Join(found[name], ", "))
		}
	}
}

// literalsOf returns, for each string of names, the places of the string
// literals of that value in the non-test Go files under root.
func literalsOf(t *testing.T, root string, names map[string]bool) map[string][]string {
	t.Helper()
	found := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p == filepath.Join(root, "bench") || p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					found[s] = append(found[s], fset.Position(lit.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// familyImports are the import names of the model families.
var familyImports = map[string]bool{"gda": true, "linear": true, "logistic": true, "mixture": true, "naivebayes": true, "ngram": true}

// kindSpecialCases returns, as "file:line: expression", the comparisons
// (== and !=) and switch cases of the parsed file f that test a value
// against a kind: a string literal in names, or a family's Kind constant
// (gda.KindLDA, ngram.Kind).
func kindSpecialCases(fset *token.FileSet, f *ast.File, names map[string]bool) []string {
	isKind := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return e.Kind == token.STRING && err == nil && names[s]
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			return ok && familyImports[x.Name] && strings.HasPrefix(e.Sel.Name, "Kind")
		}
		return false
	}
	var found []string
	report := func(e ast.Expr) {
		found = append(found, fmt.Sprintf("%s: %s", fset.Position(e.Pos()), types(e)))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isKind(n.X) || isKind(n.Y)) {
				report(n)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if isKind(e) {
					report(e)
				}
			}
		}
		return true
	})
	return found
}

// types returns the source text of e, roughly, for a message.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		return types(e.X) + " " + e.Op.String() + " " + types(e.Y)
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	}
	return fmt.Sprintf("%T", e)
}

// TestCLINoKindSpecialCase checks that the command line treats no kind
// apart by its name: it asks package registry for a kind's declaration
// and a model for its capabilities. inspect, which describes each
// family's parameters (inspect_*.go), is the exception.
func TestCLINoKindSpecialCase(t *testing.T) {
	names := map[string]bool{}
	for _, name := range registry.Kinds() {
		names[name] = true
	}
	paths, err := filepath.Glob(filepath.Join("cmd", "gendisc", "internal", "cli", "*.go"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("found %d files of the command line: %v", len(paths), err)
	}
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || strings.HasPrefix(filepath.Base(p), "inspect_") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range kindSpecialCases(fset, f, names) {
			t.Errorf("%s: a special case of a kind", s)
		}
	}
}

// TestKindSpecialCasesCatches checks the checker on a planted file.
func TestKindSpecialCasesCatches(t *testing.T) {
	const src = `package p

func f(kind string, m any) {
	if kind == "ngram" || kind != mixture.Kind {
	}
	switch kind {
	case gda.KindLDA, "other":
	}
	if kind == defaultKind || format == "csv" || k.Target == registry.None {
	}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := kindSpecialCases(fset, f, map[string]bool{"ngram": true})
	want := []string{`p.go:4:5: kind == "ngram"`, `p.go:4:24: kind != mixture.Kind`, `p.go:7:7: gda.KindLDA`}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
