package cli

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
)

// TestCluster fits a range of components, checks the model file against
// the figures printed, and that the same seed gives the same bytes.
func TestCluster(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "gmm.json")
	args := []string{"cluster", "--data", "iris", "--target", "class", "--components", "1-4", "--covariance", "diag",
		"--restarts", "2", "--seed", "3", "--out", model}
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	g, err := mixture.UnmarshalGMM(e.Schema, e.Params)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Candidates()) != 4 || g.CovarianceType() != mixture.Diag || len(e.Schema.Features) != 4 || e.Schema.Target != nil {
		t.Fatalf("model: %d candidates, %s covariance, %d features", len(g.Candidates()), g.CovarianceType(), len(e.Schema.Features))
	}
	for _, c := range g.Candidates() {
		if c.BIC < g.BIC() {
			t.Errorf("K=%d has BIC %v under the chosen %v", c.K, c.BIC, g.BIC())
		}
	}
	if !strings.Contains(r.stderr, "BIC "+num(g.BIC())) {
		t.Errorf("stderr lacks the BIC %s:\n%s", num(g.BIC()), r.stderr)
	}
	first := readFile(t, model)
	mustRun(t, args...)
	if readFile(t, model) != first {
		t.Error("the same seed gave another model file")
	}
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"Gaussian mixture of", "iteration  log-likelihood", "K  log-likelihood  BIC"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect lacks %q:\n%s", s, text)
		}
	}
}

// TestClusterRegCovarMode checks that --reg-covar-mode gives the library's
// fit with that regularisation, bit for bit, floor by default, and that
// ridge and floor give different fits of sonar's raw features.
func TestClusterRegCovarMode(t *testing.T) {
	d := bundled.Load(t, "sonar", dataio.Options{})
	d.Schema.Target = nil // cluster --target class leaves the column out
	var means [2][]float64
	for i, how := range []mixture.Regularization{mixture.Floor, mixture.Ridge} {
		model := filepath.Join(t.TempDir(), "gmm.json")
		args := []string{"cluster", "--data", "sonar", "--target", "class", "--components", "2", "--covariance", "tied", "--seed", "5", "--out", model}
		if how != mixture.Floor { // the default
			args = append(args, "--reg-covar-mode", how.String())
		}
		mustRun(t, args...)
		e, err := modelfile.Load(model)
		if err != nil {
			t.Fatal(err)
		}
		g, err := mixture.UnmarshalGMM(e.Schema, e.Params)
		if err != nil {
			t.Fatal(err)
		}
		want, err := mixture.Config{Components: 2, Covariance: mixture.Tied, Regularization: how}.Fit(d, rand.New(rand.NewPCG(5, 0)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Means(), want.Means()) || !slices.Equal(g.Covariances(), want.Covariances()) {
			t.Errorf("--reg-covar-mode %s: the model differs from mixture.Config{Regularization: %s}'s", how, how)
		}
		means[i] = g.Means()
	}
	if slices.Equal(means[0], means[1]) {
		t.Error("floor and ridge gave the same fit")
	}
	if r := runCLI(t, "", "cluster", "--data", "iris", "--reg-covar-mode", "lasso"); r.code != 2 || !strings.Contains(r.stderr, "unknown regularisation") {
		t.Errorf("--reg-covar-mode lasso: exit %d, %q", r.code, r.stderr)
	}
}

// TestClusterLeavesOutText checks that non-numeric columns are left out
// with a note, and the misuse of --components.
func TestClusterLeavesOutText(t *testing.T) {
	r := runCLI(t, "", "cluster", "--data", "iris", "--components", "2", "--out", filepath.Join(t.TempDir(), "m.json"))
	if r.code != 0 || !strings.Contains(r.stderr, `column "class" is not numeric: left out`) {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, bad := range []string{"0", "3-2", "x", "2-"} {
		if r := runCLI(t, "", "cluster", "--data", "iris", "--components", bad); r.code != 2 {
			t.Errorf("--components %s: exit %d", bad, r.code)
		}
	}
	if r := runCLI(t, "", "cluster", "--data", "iris", "--components", "2", "--restarts", "0"); r.code != 2 {
		t.Errorf("--restarts 0: exit %d", r.code)
	}
	if r := runCLI(t, "", "cluster", "--data", "iris", "--components", "151"); r.code != 1 || !strings.Contains(r.stderr, "151 components for 150 rows") {
		t.Errorf("151 components: exit %d, %q", r.code, r.stderr)
	}
}

// TestFitMDA fits mixture discriminant analysis through fit and checks
// predict against the library and inspect's text.
func TestFitMDA(t *testing.T) {
	model := filepath.Join(t.TempDir(), "mda.json")
	mustRun(t, "fit", "--data", "wine", "--model", "mda", "--components-per-class", "2", "--covariance", "diag",
		"--restarts", "2", "--reg-covar-mode", "ridge", "--out", model)
	e, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mixture.UnmarshalMDA(e.Schema, e.Params)
	if err != nil {
		t.Fatal(err)
	}
	d := bundled.LoadSchema(t, "wine", m.Schema(), dataio.SchemaOptions{})
	lp := m.LogProba(nil, d)
	pred := strings.Split(strings.TrimSpace(mustRun(t, "predict", "--model", model, "--data", "wine")), "\n")
	if len(pred) != d.N+1 {
		t.Fatalf("%d prediction lines", len(pred))
	}
	for i, line := range pred[1:] {
		cells := strings.Split(line, ",")
		for c := range 3 {
			if p := parseFloat(t, cells[1+c]); math.Abs(p-math.Exp(lp[i*3+c])) > 1e-15 {
				t.Fatalf("row %d class %d: predict %v, library %v", i, c, p, math.Exp(lp[i*3+c]))
			}
		}
	}
	text := mustRun(t, "inspect", "--model", model)
	for _, s := range []string{"Mixture discriminant analysis", "class class_0: p(x | y=class_0)", "prior π_c"} {
		if !strings.Contains(text, s) {
			t.Errorf("inspect lacks %q:\n%s", s, text)
		}
	}
	if !strings.Contains(mustRun(t, "eval", "--model", model, "--data", "wine"), "accuracy") {
		t.Error("eval prints no accuracy")
	}
}

// TestFitMDATooManyComponents: --components-per-class above a class's row
// count exits 1 naming the class and its rows, and writes no model.
func TestFitMDATooManyComponents(t *testing.T) {
	dir := t.TempDir()
	path, model := filepath.Join(dir, "onerow.csv"), filepath.Join(dir, "m.json")
	os.WriteFile(path, []byte("a,b,y\n1,2,x\n3,4,x\n5,7,x\n6,1,z\n"), 0o644)
	r := runCLI(t, "", "fit", "--data", path, "--model", "mda", "--components-per-class", "10", "--out", model)
	if r.code != 1 || !strings.Contains(r.stderr, `class "x" has 3 rows`) {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("left a model file")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
