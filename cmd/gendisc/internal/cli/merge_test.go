package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/ngram"
	"github.com/gendisc/gendisc/registry"
)

// loadCounts reads a model file of the test kinds.
func loadCounts(t *testing.T, path string) *countModel {
	t.Helper()
	_, m, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*countModel)
}

// sameCounts checks that two models of the test kinds are equal: kind,
// schema, α and every count bit for bit.
func sameCounts(t *testing.T, what string, got, want *countModel) {
	t.Helper()
	if got.kind != want.kind || !got.schema.Equal(want.schema) || got.alpha != want.alpha || !slices.Equal(got.counts, want.counts) {
		t.Errorf("%s: %s %v %v %v, want %s %v %v %v", what, got.kind, got.schema.Classes(), got.alpha, got.counts,
			want.kind, want.schema.Classes(), want.alpha, want.counts)
	}
}

// irisShards writes iris and shards of its rows to dir: the shard of row
// i is shard(i).
func irisShards(t *testing.T, dir string, n int, shard func(i int) int) (all string, shards []string) {
	t.Helper()
	header, rows := bundledRows(t, "iris")
	parts := make([][]string, n)
	for i, r := range rows {
		parts[shard(i)] = append(parts[shard(i)], r)
	}
	for s, p := range parts {
		shards = append(shards, writeRows(t, dir, "shard"+string(rune('1'+s))+".csv", header, p))
	}
	return writeRows(t, dir, "all.csv", header, rows), shards
}

// TestMergeEqualsFit checks that merging the models of disjoint shards
// gives the model of all the rows, with the files and flags in any order,
// one file on standard input, and shards that lack classes.
func TestMergeEqualsFit(t *testing.T) {
	withCountKinds(t)
	for _, tc := range []struct {
		name  string
		n     int
		shard func(i int) int
	}{
		{"interleaved", 3, func(i int) int { return i % 3 }},
		{"by class", 2, func(i int) int { return i / 100 }}, // the second shard has one class
		{"one file", 1, func(int) int { return 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			all, shards := irisShards(t, dir, tc.n, tc.shard)
			fit := func(data, out string) string {
				mustRun(t, "fit", "--model", countsKind, "--count-alpha", "0.5", "--data", data, "--out", out)
				return out
			}
			want := loadCounts(t, fit(all, filepath.Join(dir, "all.json")))
			var models []string
			for s, shard := range shards {
				models = append(models, fit(shard, filepath.Join(dir, "m"+string(rune('1'+s))+".json")))
			}
			merged := filepath.Join(dir, "merged.json")
			for _, args := range [][]string{
				append([]string{"merge", "--out", merged}, models...),
				append(append([]string{"merge"}, models...), "--out", merged),
				append(append([]string{"merge", models[0], "--out", merged}, models[1:]...), "--verbose"),
				append([]string{"merge", "--out", merged, "--"}, models...),
			} {
				os.Remove(merged)
				mustRun(t, args...)
				sameCounts(t, strings.Join(args, " "), loadCounts(t, merged), want)
			}
			first, err := os.ReadFile(models[0])
			if err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, string(first), append([]string{"merge", "-"}, models[1:]...)...)
			if r.code != 0 {
				t.Fatalf("merge from standard input: exit %d: %s", r.code, r.stderr)
			}
			if err := os.WriteFile(merged, []byte(r.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			sameCounts(t, "merge -", loadCounts(t, merged), want)
		})
	}
}

// TestMergeRefuses checks the refusals of merge: models that do not keep
// their statistics, models of two kinds or of two configurations, no
// files; and that no output file is left.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	all, _ := irisShards(t, dir, 1, func(int) int { return 0 })
	logistic, gmm := filepath.Join(dir, "logistic.json"), filepath.Join(dir, "gmm.json")
	mustRun(t, "fit", "--model", "logistic", "--data", all, "--out", logistic)
	mustRun(t, "fit", "--model", "gmm", "--data", all, "--target", "class", "--out", gmm)
	out := filepath.Join(dir, "merged.json")
	check := func(code int, want string, args ...string) {
		t.Helper()
		r := runCLI(t, "", append(append([]string{"merge"}, args...), "--out", out)...)
		if r.code != code || !strings.Contains(r.stderr, want) {
			t.Errorf("merge %q: exit %d, stderr %q; want exit %d and %q", args, r.code, r.stderr, code, want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("merge %q left %s", args, out)
		}
	}
	// Without the test kinds: the real kinds that keep no statistics.
	check(1, "gendisc: "+logistic+": a logistic model cannot be merged: model kind logistic does not keep its sufficient statistics (", logistic, logistic)
	check(1, "gendisc: "+gmm+": a gmm model cannot be merged: model kind gmm does not keep its sufficient statistics (", gmm)

	withCountKinds(t)
	counts, countsAcc, otherAlpha := filepath.Join(dir, "c.json"), filepath.Join(dir, "ca.json"), filepath.Join(dir, "c2.json")
	mustRun(t, "fit", "--model", countsKind, "--data", all, "--out", counts)
	mustRun(t, "fit", "--model", countsAccKind, "--data", all, "--out", countsAcc)
	mustRun(t, "fit", "--model", countsKind, "--data", all, "--count-alpha", "2", "--out", otherAlpha)
	check(1, logistic+": a logistic model cannot be merged: model kind logistic does not keep its sufficient statistics (merge takes ",
		counts, logistic)
	check(1, countsAcc+": a test-counts-acc model, and "+counts+" a test-counts model: merge takes models of one kind", counts, countsAcc)
	check(1, otherAlpha+": cannot be merged with "+counts+": fitted with α = 2, want 1", counts, otherAlpha)
	check(1, filepath.Join(dir, "nope.json"), counts, filepath.Join(dir, "nope.json"))
	check(2, "gendisc merge: missing the model files to merge")
	check(2, "gendisc merge: only one of the model files can be standard input (-)", "-", counts, "-")
	if r := runCLI(t, "", "help", "merge"); !strings.Contains(r.stdout, "\nKinds that merge takes: ") || !strings.Contains(r.stdout, " test-counts, test-counts-acc.\n") {
		t.Errorf("help merge:\n%s", r.stdout)
	}
}

// TestUpdateAccumulator checks that update adds rows to a model that
// keeps its statistics through its accumulator: the model fitted on the
// first rows and updated with the others is the model of all the rows,
// the classes of the new rows included.
func TestUpdateAccumulator(t *testing.T) {
	withCountKinds(t)
	dir := t.TempDir()
	all, shards := irisShards(t, dir, 2, func(i int) int { return i / 100 })
	first, updated, whole := filepath.Join(dir, "first.json"), filepath.Join(dir, "updated.json"), filepath.Join(dir, "all.json")
	mustRun(t, "fit", "--model", countsKind, "--data", shards[0], "--out", first)
	r := runCLI(t, "", "update", "--model", first, "--data", shards[1], "--out", updated, "--verbose")
	if r.code != 0 || !strings.Contains(r.stderr, "classes the model had not seen: Iris-virginica") {
		t.Fatalf("update: exit %d: %s", r.code, r.stderr)
	}
	mustRun(t, "fit", "--model", countsKind, "--data", all, "--out", whole)
	sameCounts(t, "update", loadCounts(t, updated), loadCounts(t, whole))
	if r := runCLI(t, "", "help", "update"); !strings.Contains(r.stdout, "test-counts, test-counts-acc") {
		t.Errorf("help update does not list the test kinds:\n%s", r.stdout)
	}
}

// TestFitStreamAccumulator checks fit --stream through the kinds'
// accumulators: the model is the one fit gives, on iris whose rows come
// by class, so that the first chunk has one class.
func TestFitStreamAccumulator(t *testing.T) {
	withCountKinds(t)
	smallChunks(t, 300)
	dir := t.TempDir()
	all, _ := irisShards(t, dir, 1, func(int) int { return 0 })
	for _, kind := range []string{countsKind, countsAccKind} {
		whole, streamed := filepath.Join(dir, kind+"-whole.json"), filepath.Join(dir, kind+"-streamed.json")
		mustRun(t, "fit", "--model", kind, "--data", all, "--count-alpha", "0.25", "--out", whole)
		r := runCLI(t, "", "fit", "--model", kind, "--data", all, "--count-alpha", "0.25", "--stream", "--verbose", "--out", streamed)
		if r.code != 0 || strings.Contains(r.stderr, " in 1 chunks") {
			t.Fatalf("fit --stream: exit %d: %s", r.code, r.stderr)
		}
		sameCounts(t, kind, loadCounts(t, streamed), loadCounts(t, whole))
	}
	r := runCLI(t, "", "fit", "--model", "logistic", "--data", all, "--stream")
	if want := "gendisc fit: --model logistic cannot be fitted with --stream (kinds that can: "; r.code != 2 || !strings.HasPrefix(r.stderr, want) ||
		!strings.Contains(r.stderr, "test-counts, test-counts-acc") {
		t.Errorf("fit --stream of logistic: exit %d, stderr %q; want exit 2, %q... and the test kinds", r.code, r.stderr, want)
	}
}

// TestKindsRegistered checks that the command line's kinds are those of
// package registry, the test kinds aside, arpa, a kind that is read from
// files other tools write and never fitted, and any kind without Flags,
// whose models the registry reads but the command line does not fit; the
// sequence kinds hmm and crf are among them.
func TestKindsRegistered(t *testing.T) {
	var registered []string
	for _, name := range models.Kinds() {
		k, err := registry.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if name != countsKind && name != countsAccKind && name != ngram.KindARPA && k.Flags != nil {
			registered = append(registered, name)
		}
	}
	if got := kindNames(); !slices.Equal(got, registered) {
		t.Errorf("the command line's kinds %q, the registry's %q", got, registered)
	}
	for _, kind := range []string{hmm.Kind, crf.Kind} {
		if !slices.Contains(kindNames(), kind) {
			t.Errorf("the command line's kinds %q lack %s", kindNames(), kind)
		}
	}
}

// TestMergeDuplicates checks that merge refuses a model file given twice
// and two files of the same model, naming both, and leaves no output;
// and that with --allow-duplicates the rows count twice, as fit on the
// rows written twice gives.
func TestMergeDuplicates(t *testing.T) {
	withCountKinds(t)
	dir := t.TempDir()
	header, rows := bundledRows(t, "iris")
	data := writeRows(t, dir, "rows.csv", header, rows[:60])
	twice := writeRows(t, dir, "twice.csv", header, append(slices.Clone(rows[:60]), rows[:60]...))
	other := writeRows(t, dir, "other.csv", header, rows[60:])
	a, b, c := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	mustRun(t, "fit", "--model", countsKind, "--data", data, "--out", a)
	mustRun(t, "fit", "--model", countsKind, "--data", data, "--out", b) // the same model
	mustRun(t, "fit", "--model", countsKind, "--data", other, "--out", c)
	content, _ := os.ReadFile(a)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("a.json", link); err != nil {
		t.Fatal(err)
	}
	checksum := loadEnvelope(t, a).Checksum
	out := filepath.Join(dir, "merged.json")
	twiceMsg := ": merging would count its training rows twice (give --allow-duplicates if that is meant)\n"
	for _, tc := range []struct {
		args   []string
		stdin  string
		stderr string
	}{
		{[]string{a, a}, "", "gendisc: " + a + " is given twice" + twiceMsg},
		{[]string{a, c, link}, "", "gendisc: " + a + " is given twice" + twiceMsg},
		{[]string{a, c, b}, "", "gendisc: " + a + " and " + b + " hold the same model (" + checksum + ")" + twiceMsg},
		{[]string{a, "-"}, string(content), "gendisc: " + a + " and - hold the same model (" + checksum + ")" + twiceMsg},
	} {
		r := runCLI(t, tc.stdin, append(append([]string{"merge"}, tc.args...), "--out", out)...)
		if r.code != exitFailure || r.stderr != tc.stderr {
			t.Errorf("merge %q: exit %d, stderr %q; want exit 1 and %q", tc.args, r.code, r.stderr, tc.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("merge %q left %s", tc.args, out)
		}
	}
	mustRun(t, "merge", a, b, "--allow-duplicates", "--out", out)
	want := filepath.Join(dir, "want.json")
	mustRun(t, "fit", "--model", countsKind, "--data", twice, "--out", want)
	sameCounts(t, "merge --allow-duplicates", loadCounts(t, out), loadCounts(t, want))
	if r := runCLI(t, "", "help", "merge"); !strings.Contains(r.stdout, "--allow-duplicates") || !strings.Contains(r.stdout, "would count the\nsame rows twice") {
		t.Errorf("help merge:\n%s", r.stdout)
	}
}

// loadEnvelope reads the envelope of a model file.
func loadEnvelope(t *testing.T, path string) *modelfile.Envelope {
	t.Helper()
	e, _, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
