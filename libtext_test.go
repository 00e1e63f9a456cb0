package gendisc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// flagRE matches a command-line flag in a string: two dashes and a letter,
// not inside a word or a longer run of dashes ("a--b", "---x" are not flags).
var flagRE = regexp.MustCompile(`(?:^|[^\w-])--[A-Za-z]`)

// flagDefiners are the methods of flag.FlagSet that define a flag, whose
// last argument is the flag's usage.
var flagDefiners = map[string]bool{
	"Var": true, "TextVar": true, "Func": true, "BoolFunc": true,
	"String": true, "StringVar": true, "Bool": true, "BoolVar": true,
	"Int": true, "IntVar": true, "Int64": true, "Int64Var": true,
	"Uint": true, "UintVar": true, "Uint64": true, "Uint64Var": true,
	"Float64": true, "Float64Var": true, "Duration": true, "DurationVar": true,
}

// usageTexts returns the string literals of f that are help text of the
// command line, which may name flags and commands: the usage of a flag a
// family defines for its kinds (the last argument of a flag.FlagSet
// method of flagDefiners) and the Short line of a registry.Kind.
func usageTexts(f *ast.File) map[*ast.BasicLit]bool {
	usage := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || !flagDefiners[sel.Sel.Name] || len(n.Args) < 3 {
				return true
			}
			if lit, ok := n.Args[len(n.Args)-1].(*ast.BasicLit); ok {
				usage[lit] = true
			}
		case *ast.CompositeLit:
			// A registry.Kind, or an element of a []registry.Kind.
			if sel, ok := n.Type.(*ast.SelectorExpr); n.Type != nil && (!ok || sel.Sel.Name != "Kind") {
				return true
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					key, _ := kv.Key.(*ast.Ident)
					lit, _ := kv.Value.(*ast.BasicLit)
					if key != nil && key.Name == "Short" && lit != nil {
						usage[lit] = true
					}
				}
			}
		}
		return true
	})
	return usage
}

// flagTexts returns, as "file:line: literal", the string literals of the
// parsed file f that name a command-line flag (flagRE) or a command of
// the command line ("gendisc NAME" for a name in commands), but those of
// the help text (usageTexts). Comments are not string literals, so
// formulas and examples in doc comments pass.
func flagTexts(fset *token.FileSet, f *ast.File, commands []string) []string {
	var cmdRE *regexp.Regexp
	if len(commands) > 0 {
		cmdRE = regexp.MustCompile(`\bgendisc (?:` + strings.Join(commands, "|") + `)\b`)
	}
	usage := usageTexts(f)
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || usage[lit] {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			s = lit.Value
		}
		if flagRE.MatchString(s) || cmdRE != nil && cmdRE.MatchString(s) {
			found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
		}
		return true
	})
	return found
}

// commandNames returns the names of the commands of the command line: the
// Name fields of the Command literals in the files of dir.
func commandNames(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, _ := cl.Type.(*ast.Ident); id == nil || id.Name != "Command" {
				return true
			}
			for _, e := range cl.Elts {
				kv, _ := e.(*ast.KeyValueExpr)
				if kv == nil {
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				lit, _ := kv.Value.(*ast.BasicLit)
				if key != nil && key.Name == "Name" && lit != nil && lit.Kind == token.STRING {
					name, _ := strconv.Unquote(lit.Value)
					names = append(names, regexp.QuoteMeta(name))
				}
			}
			return true
		})
	}
	return names
}

// TestLibraryErrorsNameNoFlags checks that no string in the library (the
// non-test Go files of every package outside cmd and bench, commands of
// package main aside) names a command-line flag or command: the library
// speaks of its own API, and the command line adds the flags (hints.go
// of the command line).
func TestLibraryErrorsNameNoFlags(t *testing.T) {
	commands := commandNames(t, filepath.Join("cmd", "gendisc", "internal", "cli"))
	if len(commands) < 10 {
		t.Fatalf("found only the commands %v", commands)
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// modelflags is the command line's flag values: its
			// errors are those of flags.
			if p == "cmd" || p == "bench" || p == "modelflags" || p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
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
		if f.Name.Name == "main" {
			return nil
		}
		for _, s := range flagTexts(fset, f, commands) {
			t.Errorf("%s names a command-line flag or command", s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFlagTextsCatchesFlags checks the checker on a planted file.
func TestFlagTextsCatchesFlags(t *testing.T) {
	const src = `package p

// Formula: x--y, and flags in comments such as --impute mean pass.
var (
	a = errors.New("missing value: fit with --impute mean")
	b = "fill the cells with gendisc impute first"
	c = ` + "`leave it out (--ignore x)`" + `
	d = "--alpha"
	e = "x--y, a -- b, ---- and a - -b pass"
	f = "not a gendisc model file"
	g = "see gendisc fitting"
	h = fs.Float64("tol", 0, "stop when --tol is reached")
	i = registry.Kind{Name: "k", Short: "a kind (see --alpha)"}
	j = errors.New(fs.Name() + ": see --alpha")
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := flagTexts(fset, f, []string{"fit", "impute"})
	var lines []string
	for _, s := range got {
		lines = append(lines, strings.SplitN(s, ": ", 2)[0])
	}
	want := []string{"p.go:5:17", "p.go:6:6", "p.go:7:6", "p.go:8:6", "p.go:14:29"}
	if strings.Join(lines, " ") != strings.Join(want, " ") {
		t.Errorf("found\n%s\nwant the literals at %v", strings.Join(got, "\n"), want)
	}
}
