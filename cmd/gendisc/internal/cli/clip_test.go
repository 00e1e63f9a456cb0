package cli

import (
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// outOfRange parses the CSV rows of out, the first columns the features
// of s, and returns how many numeric cells lie outside their feature's
// range.
func outOfRange(t *testing.T, s *data.Schema, out string, skip int) int {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, r := range rows[1+skip:] {
		for j, f := range s.Features {
			if f.Kind != data.Numeric || r[j] == "" {
				continue
			}
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatalf("%s %q: %v", f.Name, r[j], err)
			}
			if v < f.Range.Min || v > f.Range.Max {
				bad++
			}
		}
	}
	return bad
}

// TestSampleClip draws from a Gaussian naive Bayes model of pima, whose
// normal densities put mass below 0 (insulin, skin thickness): without
// --clip some values fall outside the training range, with --clip none,
// and the same seed gives the same bytes.
func TestSampleClip(t *testing.T) {
	model := filepath.Join(t.TempDir(), "nb.json")
	mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "gaussian-nb", "--out", model)
	env, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if bad := outOfRange(t, env.Schema, mustRun(t, "sample", "--model", model, "-n", "500", "--seed", "4"), 0); bad == 0 {
		t.Fatal("no value outside the training range without --clip: the test shows nothing")
	}
	out := mustRun(t, "sample", "--model", model, "-n", "500", "--seed", "4", "--clip")
	if bad := outOfRange(t, env.Schema, out, 0); bad != 0 {
		t.Errorf("%d values outside the training range with --clip", bad)
	}
	if again := mustRun(t, "sample", "--model", model, "-n", "500", "--seed", "4", "--clip"); again != out {
		t.Error("the same seed gave other rows")
	}
	r := runCLI(t, "", "sample", "--model", model, "-n", "5", "--class", "pos", "--clip", "--verbose")
	if r.code != 0 || !strings.Contains(r.stderr, "sample: --clip: ") || !strings.Contains(r.stderr, "draws for 5 rows (acceptance") {
		t.Errorf("exit %d, stderr %q; want the acceptance with --verbose", r.code, r.stderr)
	}
}

// TestBalanceClip: balance clips by default, --clip=false turns it off.
func TestBalanceClip(t *testing.T) {
	model := filepath.Join(t.TempDir(), "nb.json")
	mustRun(t, "fit", "--data", "pima_indians_diabetes", "--model", "gaussian-nb", "--out", model)
	env, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 768 // pima's rows, then the synthetic ones
	if bad := outOfRange(t, env.Schema, mustRun(t, "balance", "--data", "pima_indians_diabetes", "--kind", "gaussian-nb"), rows); bad != 0 {
		t.Errorf("%d synthetic values outside the training range by default", bad)
	}
	if bad := outOfRange(t, env.Schema, mustRun(t, "balance", "--data", "pima_indians_diabetes", "--kind", "gaussian-nb", "--clip=false"), rows); bad == 0 {
		t.Error("no synthetic value outside the training range with --clip=false")
	}
}

// TestClipOldModel: a model file written before training ranges were kept
// still loads and samples, and --clip refuses it with exit status 1 and a
// message that names the file and says what to do.
func TestClipOldModel(t *testing.T) {
	old := "testdata/iris_nb_before_ranges.json"
	mustRun(t, "sample", "--model", old, "-n", "3")
	r := runCLI(t, "", "sample", "--model", old, "-n", "3", "--clip")
	want := `gendisc: testdata/iris_nb_before_ranges.json: --clip: feature "sepallength": no training range: the model file is from before training ranges were kept; fit the model again, or draw with --clip=false`
	if r.code != 1 || strings.TrimSpace(r.stderr) != want || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and\n%s", r.code, r.stdout, r.stderr, want)
	}
}

// TestImputeClip: multiple imputation of breast_cancer_wisconsin's missing
// Bare.nuclei cells by QDA leaves the column's range 1 to 10 without
// --clip and keeps to it with --clip; --clip without --draws is misuse.
func TestImputeClip(t *testing.T) {
	model := filepath.Join(t.TempDir(), "qda.json")
	mustRun(t, "fit", "--data", "breast_cancer_wisconsin", "--model", "qda", "--out", model)
	env, err := modelfile.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	// The imputation column comes first: shift the features by one.
	s := &data.Schema{Features: append([]data.Column{{Name: "imputation", Kind: data.Categorical}}, env.Schema.Features...)}
	args := []string{"impute", "--data", "breast_cancer_wisconsin", "--model", model, "--draws", "20", "--seed", "1"}
	if bad := outOfRange(t, s, mustRun(t, args...), 0); bad == 0 {
		t.Fatal("no drawn value outside the training range without --clip: the test shows nothing")
	}
	if bad := outOfRange(t, s, mustRun(t, append(args, "--clip")...), 0); bad != 0 {
		t.Errorf("%d drawn values outside the training range with --clip", bad)
	}
	r := runCLI(t, "", "impute", "--data", "breast_cancer_wisconsin", "--model", model, "--clip")
	if r.code != 2 || !strings.Contains(r.stderr, "--clip truncates drawn cells: it needs --draws K") {
		t.Errorf("exit %d, stderr %q; want misuse", r.code, r.stderr)
	}
}
