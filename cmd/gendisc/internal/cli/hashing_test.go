package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHashFeatures fits multinomial naive Bayes on sms_spam with words
// hashed into 1024 columns four ways, at once, with --stream, on the first
// half updated with the second, and merged from the two halves: the four
// models predict the same bytes, and their files keep no words.
func TestHashFeatures(t *testing.T) {
	dir := t.TempDir()
	all, a, b := "sms_spam", filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	mustRun(t, "split", "--data", all, "--test", "0.5", "--seed", "1", "--train", a, "--test-out", b)
	flags := []string{"--model", "multinomial-nb", "--hash-features", "1024"}
	fit := func(out, data string, more ...string) string {
		p := filepath.Join(dir, out)
		mustRun(t, append(append([]string{"fit", "--data", data, "--out", p}, flags...), more...)...)
		return p
	}
	models := []string{fit("once.json", all), fit("stream.json", all, "--stream")}
	ma, mb := fit("a.json", a), fit("b.json", b)
	up := filepath.Join(dir, "update.json")
	mustRun(t, "update", "--model", ma, "--data", b, "--out", up)
	merged := filepath.Join(dir, "merged.json")
	mustRun(t, "merge", "--out", merged, ma, mb)
	models = append(models, up, merged)
	var want string
	for i, m := range models {
		got := mustRun(t, "predict", "--model", m, "--data", all)
		if i == 0 {
			want = got
		} else if got != want {
			t.Errorf("%s predicts otherwise than a fit on all the rows", filepath.Base(m))
		}
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"free"`) || !strings.Contains(string(b), `"hash_features": 1024`) {
			t.Errorf("%s keeps words or lacks its hashing", filepath.Base(m))
		}
	}
}

// TestHashFeaturesFlags: logistic regression takes --alternate-sign;
// naive Bayes refuses it (negative counts), and hashing refuses the
// vocabulary's pruning; both leave no model file.
func TestHashFeaturesFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", "sms_spam", "--model", "logistic", "--hash-features", "512", "--alternate-sign", "--out", out)
	if r := mustRun(t, "eval", "--model", out, "--data", "sms_spam"); !strings.Contains(r, "accuracy  0.9") {
		t.Errorf("eval of hashed logistic regression:\n%s", r)
	}
	os.Remove(out)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "multinomial-nb", "--hash-features", "512", "--alternate-sign"}, "naivebayes: alternate signs make hashed word counts negative"},
		{[]string{"--model", "bernoulli-nb", "--hash-features", "512", "--alternate-sign"}, "naivebayes: alternate signs"},
		{[]string{"--model", "logistic", "--hash-features", "512", "--min-df", "2"}, "min_df, max_df and max_features cannot be set"},
		{[]string{"--model", "logistic", "--alternate-sign"}, "alternate signs apply to hashed columns only"},
	} {
		r := runCLI(t, "", append([]string{"fit", "--data", "sms_spam", "--out", out}, tc.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error with %q", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a model file was written", tc.args)
		}
	}
}
