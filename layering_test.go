package gendisc

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os/exec"
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
	"dataio/compress":        layerBase, // the decompressors, for data files and foreign model files
	"bench/internal/measure": layerBase, // the benchmark drivers' process measures
	"bench/internal/npy":     layerBase, // and .npy files

	"internal/atomicfile":   layerBase,
	"internal/cell":         layerBase,
	"internal/classprior":   layerBase,
	"internal/enum":         layerBase,
	"internal/hugepage":     layerBase,
	"internal/jsonw":        layerBase,
	"internal/kernel":       layerBase,
	"internal/mathx":        layerBase,
	"internal/openblas":     layerBase,
	"internal/parallel":     layerBase,
	"internal/randx":        layerBase,
	"server/internal/oippb": layerBase, // the generated messages of the Open Inference Protocol's gRPC service

	"data":                  layerData,
	"dataio":                layerData,
	"dataio/dataflags":      layerUse, // the flags of dataio.Options, for the commands
	"seqio/seqflags":        layerUse, // the flags of seqio.Options, for the commands
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
	"modelflags":      layerCore, // the flag values the families' flags.go define their kinds' flags with
	"stats":           layerCore,

	"crf":        layerFamily,
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

	"bench/cmd/benchcrf":       layerCommand,
	"bench/cmd/benchcv":        layerCommand,
	"bench/cmd/benchgo":        layerCommand,
	"bench/cmd/benchngram":     layerCommand,
	"bench/cmd/genstream":      layerCommand,
	"bench/cmd/serveload":      layerCommand,
	"cmd/gendisc":              layerCommand,
	"cmd/gendisc/internal/cli": layerCommand,

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

// formatModules are the modules that read and write file formats
// (Parquet and its Thrift, protobuf, geometry types) or decompress, which
// only the readers (package dataio and below it) may need: the table, the
// root package, the registry, the model file and the model families must
// build without them.
var formatModules = []string{
	"github.com/parquet-go/",
	"google.golang.org/protobuf/",
	"github.com/klauspost/",
	"github.com/ulikunitz/",
	"github.com/pierrec/",
	"github.com/twpayne/go-geom",
	"github.com/andybalholm/",
}

// formatFree are the packages (paths inside the module) that must not
// depend on formatModules.
var formatFree = []string{"", "data", "seq", "registry", "modelfile", "modelflags", "naivebayes", "gda", "logistic", "linear", "mixture", "ngram", "hmm", "crf"}

// TestNoFormatDependencies checks with go list that the packages of
// formatFree do not depend, directly or not, on a module of
// formatModules, and that package data depends on the standard library
// and the module's own packages only.
func TestNoFormatDependencies(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	args := []string{"list", "-json"}
	for _, p := range formatFree {
		args = append(args, strings.TrimSuffix(module+"/"+p, "/"))
	}
	out, err := exec.Command(goCmd, args...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list: %v\n%s", err, exit.Stderr)
		}
		t.Fatal(err)
	}
	deps, err := decodeDeps(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(deps) != len(formatFree) {
		t.Fatalf("go list described %d packages, want %d", len(deps), len(formatFree))
	}
	for _, err := range checkFormatFree(deps) {
		t.Error(err)
	}
}

// checkFormatFree returns an error for each dependency in deps (package
// → its dependencies, import paths) on a module of formatModules, and for
// each dependency of package data outside the standard library and the
// module.
func checkFormatFree(deps map[string][]string) []error {
	var errs []error
	for _, p := range slices.Sorted(maps.Keys(deps)) {
		for _, dep := range deps[p] {
			if slices.ContainsFunc(formatModules, func(m string) bool { return strings.HasPrefix(dep, m) }) {
				errs = append(errs, fmt.Errorf("package %s depends on %s, a module of file formats or compression", p, dep))
			}
		}
	}
	for _, dep := range deps[module+"/data"] {
		if first, _, _ := strings.Cut(dep, "/"); strings.Contains(first, ".") && !strings.HasPrefix(dep, module+"/") {
			errs = append(errs, fmt.Errorf("package data depends on %s, which is not in the standard library", dep))
		}
	}
	return errs
}

// decodeDeps returns the dependencies (Deps) of each package that go
// list -json described in out, by import path.
func decodeDeps(out []byte) (map[string][]string, error) {
	deps := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			return deps, nil
		} else if err != nil {
			return nil, err
		}
		deps[p.ImportPath] = p.Deps
	}
}

// TestNoFormatDependenciesCatches checks that checkFormatFree reports a
// family that depends on Parquet and a package data that depends on a
// module outside the standard library, from go list's JSON.
func TestNoFormatDependenciesCatches(t *testing.T) {
	deps, err := decodeDeps([]byte(`{"ImportPath": "` + module + `/gda", "Deps": ["fmt", "github.com/parquet-go/parquet-go"]}
{"ImportPath": "` + module + `/data", "Deps": ["fmt", "` + module + `/internal/enum", "golang.org/x/sys/unix"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, err := range checkFormatFree(deps) {
		got = append(got, err.Error())
	}
	want := []string{
		"package " + module + "/gda depends on github.com/parquet-go/parquet-go, a module of file formats or compression",
		"package data depends on golang.org/x/sys/unix, which is not in the standard library",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkFormatFree found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
