package models_test

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/models"
)

// fuzzTargets names, for every kind, the fuzz test of its model files
// (package internal/testsupport/modelfuzz) and the file that holds it.
var fuzzTargets = map[string]string{
	"gaussian-nb":    "naivebayes/modelfile_fuzz_test.go:FuzzGaussianNBFile",
	"nb":             "naivebayes/modelfile_fuzz_test.go:FuzzMixedNBFile",
	"bernoulli-nb":   "naivebayes/modelfile_fuzz_test.go:FuzzBernoulliNBFile",
	"multinomial-nb": "naivebayes/modelfile_fuzz_test.go:FuzzMultinomialNBFile",
	"complement-nb":  "naivebayes/modelfile_fuzz_test.go:FuzzComplementNBFile",
	"categorical-nb": "naivebayes/modelfile_fuzz_test.go:FuzzCategoricalNBFile",
	"lda":            "gda/modelfile_fuzz_test.go:FuzzLDAFile",
	"qda":            "gda/modelfile_fuzz_test.go:FuzzQDAFile",
	"logistic":       "logistic/modelfile_fuzz_test.go:FuzzLogisticFile",
	"linear":         "linear/modelfile_fuzz_test.go:FuzzLinearFile",
	"gmm":            "mixture/modelfile_fuzz_test.go:FuzzGMMFile",
	"mda":            "mixture/modelfile_fuzz_test.go:FuzzMDAFile",
	"ngram":          "ngram/modelfile_fuzz_test.go:FuzzNgramFile",
	"arpa":           "ngram/arpa_fuzz_test.go:FuzzARPAFile",
	"crf":            "crf/json_test.go:FuzzCRFFile",
}

// TestEveryKindFuzzed checks that every registered kind has a fuzz test
// of its model files, so that a new kind gets one.
func TestEveryKindFuzzed(t *testing.T) {
	if got, want := models.Kinds(), slices.Sorted(maps.Keys(fuzzTargets)); !slices.Equal(got, want) {
		t.Errorf("kinds %q, fuzz targets for %q: add the fuzz test of the new kind's files", got, want)
	}
	for kind, target := range fuzzTargets {
		file, name, _ := strings.Cut(target, ":")
		src, err := os.ReadFile("../" + file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "func "+name+"(f *testing.F)") {
			t.Errorf("%s: no %s in %s", kind, name, file)
		}
	}
}
