package gendisc

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of this module.
const module = "github.com/gendisc/gendisc"

// The layers of the house, bottom up. A package imports only packages of
// its own layer or below, and a model family imports no other family.
const (
	layerBase       = iota // kernels, math helpers, parallelism, enumerations
	layerData              // data and text, the bundled data sets
	layerRoot              // the root interfaces and the model file envelope
	layerCore              // the statistics and Gaussian cores, the design matrix
	layerFamily            // the model families, one package each
	layerUse               // what uses models: synth, compare, metrics, registry
	layerCommand           // the commands under cmd/ and bench/cmd/
	layerNotChecked        // the test support, imported by tests only
)

var layerNames = [...]string{"base", "data", "root", "core", "family", "use", "command", "test support"}

// layers gives each package of the module (its path inside the module) its
// layer. A new package must be added here: the test fails on a package it
// does not know, so that every package has its place.
var layers = map[string]int{
	"bench/internal/measure": layerBase, // the benchmark drivers' process measures
	"bench/internal/npy":     layerBase, // and .npy files

	"internal/atomicfile":   layerBase,
	"internal/classprior":   layerBase,
	"internal/enum":         layerBase,
	"internal/hugepage":     layerBase,
	"internal/kernel":       layerBase,
	"internal/mathx":        layerBase,
	"internal/openblas":     layerBase,
	"internal/parallel":     layerBase,
	"internal/randx":        layerBase,
	"server/internal/oippb": layerBase, // the generated messages of the Open Inference Protocol's gRPC service

	"data":                  layerData,
	"datasets":              layerData,
	"datasets/internal/gen": layerData,
	"internal/bundled":      layerData,
	"seq":                   layerData,
	"seqio":                 layerData,
	"text":                  layerData,

	"":          layerRoot,
	"modelfile": layerRoot,
	"registry":  layerRoot,

	"gauss":           layerCore,
	"internal/design": layerCore,
	"stats":           layerCore,

	"gda":        layerFamily,
	"linear":     layerFamily,
	"logistic":   layerFamily,
	"mixture":    layerFamily,
	"naivebayes": layerFamily,
	"hmm":        layerFamily,
	"ngram":      layerFamily,

	"compare":         layerUse,
	"cv":              layerUse,
	"metrics":         layerUse,
	"metrics/seqeval": layerUse,
	"models":          layerUse,
	"server":          layerUse,
	"synth":           layerUse,

	"bench/cmd/benchcv":        layerCommand,
	"bench/cmd/benchgo":        layerCommand,
	"bench/cmd/benchngram":     layerCommand,
	"bench/cmd/genstream":      layerCommand,
	"bench/cmd/serveload":      layerCommand,
	"cmd/gendisc":              layerCommand,
	"cmd/gendisc/internal/cli": layerCommand,
	"cmd/gendisc/modelflags":   layerCommand,

	"internal/testsupport/conformance": layerNotChecked,
	"internal/testsupport/modelfuzz":   layerNotChecked,
	"internal/testsupport/refdata":     layerNotChecked,
}

// checkLayers returns one error for each import of imports (package →
// the module's packages it imports) that breaks the layering of layers.
func checkLayers(layers map[string]int, imports map[string][]string) []error {
	var errs []error
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		from, ok := layers[pkg]
		if !ok {
			errs = append(errs, fmt.Errorf("package %q has no layer: add it to layers in layering_test.go", pkg))
			continue
		}
		if from == layerNotChecked {
			continue
		}
		for _, imp := range imports[pkg] {
			to, ok := layers[imp]
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("package %q imports %q, which has no layer", pkg, imp))
			case to > from:
				errs = append(errs, fmt.Errorf("package %q (layer %s) imports %q of the higher layer %s", pkg, layerNames[from], imp, layerNames[to]))
			case from == layerFamily && to == layerFamily:
				errs = append(errs, fmt.Errorf("model family %q imports the model family %q", pkg, imp))
			}
		}
	}
	return errs
}

// moduleImports reads the non-test Go files under root and returns, for
// each package directory (relative to root, "" for the root), the packages
// of the module it imports, as paths inside the module.
func moduleImports(root string) (map[string][]string, error) {
	imports := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(dir)
		if pkg == "." {
			pkg = ""
		}
		list := imports[pkg]
		for _, spec := range f.Imports {
			ip, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			var inModule string
			switch {
			case ip == module:
				inModule = ""
			case strings.HasPrefix(ip, module+"/"):
				inModule = strings.TrimPrefix(ip, module+"/")
			default:
				continue
			}
			if !slices.Contains(list, inModule) {
				list = append(list, inModule)
			}
		}
		imports[pkg] = list
		return nil
	})
	return imports, err
}

// TestLayering checks the imports of every package of the module against
// the layers.
func TestLayering(t *testing.T) {
	imports, err := moduleImports(".")
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range imports {
		if strings.HasPrefix(pkg, "beam") {
			delete(imports, pkg) // a module of its own
		}
	}
	if len(imports) < len(layers)/2 {
		t.Fatalf("read the imports of only %d packages", len(imports))
	}
	for _, err := range checkLayers(layers, imports) {
		t.Error(err)
	}
}

// TestLayeringCatchesWrongImports checks that checkLayers reports an import
// from a lower layer to a higher one, one family importing another and a
// package without a layer.
func TestLayeringCatchesWrongImports(t *testing.T) {
	imports := map[string][]string{
		"data":       {"naivebayes"},
		"gda":        {"mixture", "stats"},
		"naivebayes": {"data"},
		"newpkg":     {"data"},
	}
	errs := checkLayers(layers, imports)
	var got []string
	for _, err := range errs {
		got = append(got, err.Error())
	}
	want := []string{
		`package "data" (layer data) imports "naivebayes" of the higher layer family`,
		`model family "gda" imports the model family "mixture"`,
		`package "newpkg" has no layer: add it to layers in layering_test.go`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkLayers found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
