package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnseenCategories: a category the model has not seen is a warning
// once per column with its count and examples (predict, score, eval),
// only a missing value with --unseen missing, an error naming the line
// and column with --unseen error; true and false (JSON's booleans, as
// Parquet's) are read as the model's t and f, which the warning states,
// and predict as the same rows with t and f do.
func TestUnseenCategories(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	os.WriteFile(path("train.csv"), []byte("x,flag,class\n1,t,a\n2,f,b\n1.5,t,a\n2.5,f,b\n1.2,t,a\n2.2,f,b\n"), 0o644)
	os.WriteFile(path("new.jsonl"), []byte(`{"x":1,"flag":true,"class":"a"}
{"x":2,"flag":false,"class":"b"}
{"x":2,"flag":"maybe","class":"b"}
{"x":1.4,"flag":"perhaps","class":"a"}
{"x":2.1,"flag":"maybe","class":"b"}
`), 0o644)
	os.WriteFile(path("same.csv"), []byte("x,flag,class\n1,t,a\n2,f,b\n2,,b\n1.4,,a\n2.1,,b\n"), 0o644)
	model := path("m.json")
	mustRun(t, "fit", "--data", path("train.csv"), "--model", "nb", "--out", model)
	for _, cmd := range [][]string{{"predict"}, {"score"}, {"eval"}} {
		r := runCLI(t, "", append(cmd, "--model", model, "--data", path("new.jsonl"))...)
		want := []string{
			`column "flag": 3 values are not levels of the model (maybe, perhaps; the model has f, t): treated as missing`,
			`column "flag": 2 values true and false read as the model's levels t and f`,
		}
		for _, w := range want {
			if r.code != 0 || strings.Count(r.stderr, w) != 1 {
				t.Errorf("%s: exit %d, stderr %q, want once %q", cmd[0], r.code, r.stderr, w)
			}
		}
		if r := runCLI(t, "", append(cmd, "--model", model, "--data", path("new.jsonl"), "--unseen", "missing")...); r.code != 0 || strings.Contains(r.stderr, "not levels") {
			t.Errorf("%s --unseen missing: exit %d, stderr %q", cmd[0], r.code, r.stderr)
		}
		r = runCLI(t, "", append(cmd, "--model", model, "--data", path("new.jsonl"), "--unseen", "error")...)
		if r.code != 1 || !strings.Contains(r.stderr, "new.jsonl:3") || !strings.Contains(r.stderr, `column "flag": not a level of the model's column: "maybe"`) {
			t.Errorf("%s --unseen error: exit %d, stderr %q", cmd[0], r.code, r.stderr)
		}
	}
	if got, want := mustRun(t, "predict", "--model", model, "--data", path("new.jsonl"), "--quiet"), mustRun(t, "predict", "--model", model, "--data", path("same.csv")); got != want {
		t.Errorf("predictions of the JSON lines:\n%s\nwant those of the same rows with t, f and missing cells:\n%s", got, want)
	}
	if r := runCLI(t, "", "predict", "--model", model, "--data", path("new.jsonl"), "--unseen", "sometimes"); r.code != 2 {
		t.Errorf("--unseen sometimes: exit %d", r.code)
	}
}
