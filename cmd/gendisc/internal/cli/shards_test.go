package cli

import (
	"encoding/csv"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// shardCases are the kinds whose models keep their sufficient statistics,
// each with a bundled data set (every step-th row) and the flags of fit.
// exact marks the kinds whose predict output is the same bit for bit
// however the rows are split, as long as the classes come in the same
// order: their statistics are whole-number counts, which add exactly,
// and the arithmetic on them does not depend on the order of the levels
// and words (it does on the classes': P(y = k | x) divides by a sum over
// the classes). The others (Gaussian moments merged by Chan's formulas,
// EM over the rows with missing cells, R factors stacked and factored
// again) agree to rounding.
var shardCases = []struct {
	kind, data string
	step       int
	flags      []string
	exact      bool
	reordered  bool // the merged model's classes or levels come in another order
}{
	{kind: "gaussian-nb", data: "iris", step: 1, reordered: true},
	{kind: "bernoulli-nb", data: "house_votes84", step: 1, exact: true},
	{kind: "multinomial-nb", data: "optdigits", step: 6, exact: true, reordered: true},
	{kind: "complement-nb", data: "sms_spam", step: 8, flags: []string{"--norm"}, exact: true},
	{kind: "categorical-nb", data: "mushroom", step: 8, exact: true, reordered: true},
	{kind: "nb", data: "sms_spam", step: 8, flags: []string{"--ngrams", "1-2"}, exact: true},
	{kind: "nb", data: "adult", step: 40, reordered: true}, // numeric, categorical and missing cells
	{kind: "lda", data: "breast_cancer_wisconsin", step: 1},
	{kind: "qda", data: "breast_cancer_wisconsin", step: 1, flags: []string{"--shrinkage", "0.05"}},
	{kind: "linear", data: "wine", step: 1, flags: []string{"--target", "alcohol", "--ignore", "class", "--l2", "0.5"}},
}

// TestShardsEqualFit checks, for every kind that keeps its sufficient
// statistics, through the command line, that the model fitted on all the
// rows of a data set predicts as the model of three disjoint shards of
// them made in three ways: the models of the shards merged (gendisc
// merge), the model of one shard updated with the second and then the
// third (gendisc update), and fit --stream on all the rows in chunks of
// a fifth of the file. Row i goes to shard i mod 3, but with three
// classes or more the second shard has none of the first class; the
// second shard's rows are reversed and the third's rotated. The second
// shard's model comes first in merge and update, so that classes and
// category levels that it lacks come after its own (reordered: the
// merged model's schema differs from the fit's). The predict outputs must
// be the same: the predicted classes (or values) equal, the probabilities
// equal bit for bit for the kinds that count, else to 1e-12 relative
// (samePredictions).
func TestShardsEqualFit(t *testing.T) {
	for _, tc := range shardCases {
		t.Run(tc.kind+"/"+tc.data, func(t *testing.T) {
			dir := t.TempDir()
			header, rows := bundledRows(t, tc.data)
			var sub []string
			for i := 0; i < len(rows); i += tc.step {
				sub = append(sub, rows[i])
			}
			classes := map[string]bool{}
			for _, r := range sub {
				classes[r[strings.LastIndexByte(r, ',')+1:]] = true
			}
			var first string
			if len(classes) >= 3 && tc.kind != "linear" {
				first = slices.Min(slices.Collect(maps.Keys(classes)))
			}
			var parts [3][]string
			for i, r := range sub {
				s := i % 3
				if s == 1 && r[strings.LastIndexByte(r, ',')+1:] == first {
					s = (i / 3 % 2) * 2
				}
				parts[s] = append(parts[s], r)
			}
			slices.Reverse(parts[1])
			parts[2] = append(parts[2][len(parts[2])/2:], parts[2][:len(parts[2])/2]...)
			all := writeRows(t, dir, "all.csv", header, sub)
			var shards []string
			for s, p := range parts {
				shards = append(shards, writeRows(t, dir, "shard"+strconv.Itoa(s+1)+".csv", header, p))
			}
			fit := func(data, out string) string {
				mustRun(t, slices.Concat([]string{"fit", "--model", tc.kind, "--data", data, "--out", out}, tc.flags)...)
				return out
			}
			predict := func(model string) [][]string {
				return readPredictions(t, mustRun(t, "predict", "--model", model, "--data", all))
			}
			whole := fit(all, filepath.Join(dir, "all.json"))
			want := predict(whole)

			var models []string
			for s, shard := range shards {
				models = append(models, fit(shard, filepath.Join(dir, "shard"+strconv.Itoa(s+1)+".json")))
			}
			merged := filepath.Join(dir, "merged.json")
			mustRun(t, "merge", "--out", merged, models[1], models[0], models[2])
			samePredictions(t, "merge", predict(merged), want, tc.exact)
			if equal := loadModelSchema(t, merged).Equal(loadModelSchema(t, whole)); equal == tc.reordered {
				t.Errorf("the merged model's schema equal to the fit's: %v, want %v", equal, !tc.reordered)
			}

			updated := models[1]
			for _, s := range []int{0, 2} {
				out := filepath.Join(dir, "updated"+strconv.Itoa(s+1)+".json")
				mustRun(t, "update", "--model", updated, "--data", shards[s], "--out", out)
				updated = out
			}
			samePredictions(t, "update", predict(updated), want, tc.exact)

			info, err := os.Stat(all)
			if err != nil {
				t.Fatal(err)
			}
			smallChunks(t, int(info.Size()/5))
			streamed := filepath.Join(dir, "streamed.json")
			r := runCLI(t, "", slices.Concat([]string{"fit", "--stream", "--verbose", "--model", tc.kind, "--data", all, "--out", streamed}, tc.flags)...)
			if r.code != 0 || strings.Contains(r.stderr, " in 1 chunks") {
				t.Fatalf("fit --stream: exit %d: %s", r.code, r.stderr)
			}
			samePredictions(t, "fit --stream", predict(streamed), want, tc.exact)
		})
	}
}

// readPredictions parses the CSV that predict writes.
func readPredictions(t *testing.T, out string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// samePredictions checks that the predict outputs got and want have the
// same rows and columns, the columns matched by name (the classes of a
// merged model may come in another order): the first column, the
// predicted class or value, equal; the probabilities (or values) equal
// bit for bit when exact is set and the columns come in the same order,
// else within 1e-12 relative: for a
// probability p, the model's log p within 1e-12·max(1, |log p|), since
// a tiny probability, exp of a large negative log-likelihood, carries
// the rounding of that log-likelihood scaled up by its size.
func samePredictions(t *testing.T, what string, got, want [][]string, exact bool) {
	t.Helper()
	if len(got) != len(want) || len(got[0]) != len(want[0]) {
		t.Fatalf("%s: %d rows of %d columns, want %d of %d", what, len(got), len(got[0]), len(want), len(want[0]))
	}
	col := make([]int, len(want[0])) // want's column c is got's column col[c]
	for c, name := range want[0] {
		if col[c] = slices.Index(got[0], name); col[c] < 0 {
			t.Fatalf("%s: columns %q, want %q", what, got[0], want[0])
		}
	}
	regression := len(want[0]) == 1
	exact = exact && slices.Equal(got[0], want[0])
	equal, bad := 0, 0
	for i := 1; i < len(want); i++ {
		for c := range want[0] {
			g, w := got[i][col[c]], want[i][c]
			if g == w {
				equal++
				continue
			}
			if c == 0 && !regression {
				t.Errorf("%s: row %d: predicted %s, want %s", what, i, g, w)
				bad++
				continue
			}
			x, errx := strconv.ParseFloat(g, 64)
			y, erry := strconv.ParseFloat(w, 64)
			if !regression { // a probability: compare log p, the model's output
				x, y = math.Log(x), math.Log(y)
			}
			if exact || errx != nil || erry != nil || !(math.Abs(x-y) <= 1e-12*max(math.Abs(x), math.Abs(y), 1)) {
				t.Errorf("%s: row %d, %s: %s, want %s", what, i, want[0][c], g, w)
				bad++
			}
		}
		if bad > 10 {
			t.Fatalf("%s: more differences not shown", what)
		}
	}
	t.Logf("%s: %d of %d values equal bit for bit; columns %q", what, equal, (len(want)-1)*len(want[0]), got[0])
}

// loadModelSchema returns the schema of the model file at path.
func loadModelSchema(t *testing.T, path string) *data.Schema {
	t.Helper()
	_, m, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.Schema()
}
