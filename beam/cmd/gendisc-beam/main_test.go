package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/text"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// TestKinds checks the kinds fit fits in one pass, and that their flags'
// defaults give an accumulator.
func TestKinds(t *testing.T) {
	want := []string{"bernoulli-nb", "categorical-nb", "complement-nb", "gaussian-nb", "lda", "linear", "multinomial-nb", "nb", "qda"}
	if !slices.Equal(fit.Kinds(), want) {
		t.Errorf("kinds %v, want %v", fit.Kinds(), want)
	}
	for _, name := range fit.Kinds() {
		k, _ := registry.Lookup(name)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		acc := accumulatorFlags(k, fs)
		if err := fs.Parse(nil); err != nil {
			t.Fatal(err)
		}
		if _, err := acc(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestFit runs gendisc-beam fit on prism over three shards and loads the
// model file it writes.
func TestFit(t *testing.T) {
	dir := t.TempDir()
	for s := range 3 {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := range 20 {
			fmt.Fprintf(&b, "%d.5,%d,%s\n", i+s, (i*7+s)%5, []string{"a", "b"}[(i+s)%2])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "m.json")
	freshFlags(t)
	err := run(context.Background(), "fit", []string{"--data", filepath.Join(dir, "part-*"), "--model", "qda", "--shrinkage", "0.2", "--out", out}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m, err := registry.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind() != "qda" || len(m.Schema().Classes()) != 2 {
		t.Errorf("model of kind %s, classes %v", m.Kind(), m.Schema().Classes())
	}
}

// freshFlags gives the test a flag.CommandLine with Beam's flags only (and
// the test binary's), as a process starts with, so that run can define
// the flags of a verb again; the old one is back when the test ends.
func freshFlags(t *testing.T) {
	old := flag.CommandLine
	fs := flag.NewFlagSet(processFlags.Name(), flag.ContinueOnError)
	processFlags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	flag.CommandLine = fs
	t.Cleanup(func() { flag.CommandLine = old })
}

// processFlags is the test process's flag.CommandLine.
var processFlags = flag.CommandLine

// TestPredictScore fits a model with gendisc-beam fit on prism over three
// shards, then runs gendisc-beam predict and score on them: one output
// per shard, with the columns of gendisc predict and score.
func TestPredictScore(t *testing.T) {
	dir := t.TempDir()
	for s := range 3 {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := range 20 {
			fmt.Fprintf(&b, "%d.5,%d,%s\n", i+s, (i*7+s)%5, []string{"a", "b"}[(i+s)%2])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	glob, model := filepath.Join(dir, "part-*"), filepath.Join(dir, "m.json")
	freshFlags(t)
	if err := run(context.Background(), "fit", []string{"--data", glob, "--model", "gaussian-nb", "--out", model}, io.Discard); err != nil {
		t.Fatal(err)
	}
	for verb, header := range map[string]string{"predict": "prediction,p_a,p_b\n", "score": "log_p_nats,log_p_bits\n"} {
		freshFlags(t)
		prefix := filepath.Join(dir, verb, "out")
		if err := run(context.Background(), verb, []string{"--model", model, "--data", glob, "--out", prefix}, io.Discard); err != nil {
			t.Fatal(err)
		}
		for s := range 3 {
			b, err := os.ReadFile(fmt.Sprintf("%s-%05d-of-00003.csv", prefix, s))
			if err != nil {
				t.Fatal(err)
			}
			if lines := strings.Count(string(b), "\n"); !strings.HasPrefix(string(b), header) || lines != 21 {
				t.Errorf("%s: shard %d: %d lines starting %.40q, want 21 starting %q", verb, s, lines, b, header)
			}
		}
		freshFlags(t)
		err := run(context.Background(), verb, []string{"--model", model, "--data", glob}, io.Discard)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--out") {
			t.Errorf("%s without --out: error %v, want a usage error naming --out", verb, err)
		}
	}
}

// TestFitFlags checks that the flags gendisc-beam fit shares with gendisc
// fit reach the model: --class-prior of every naive Bayes kind and of lda
// and qda, --em-tol, and the text flags of the text kinds.
func TestFitFlags(t *testing.T) {
	dir := t.TempDir()
	words := []string{"the", "apple", "pear", "a", "plum", "fig", "of", "kiwi", "lime"}
	for s := range 3 {
		var b strings.Builder
		b.WriteString("x1,x2,doc,y\n")
		for i := range 30 {
			k := (i + s) % 2
			var doc []string
			for w := range 4 + i%3 {
				doc = append(doc, words[(i*w+s+k)%len(words)])
			}
			fmt.Fprintf(&b, "%d.5,%d,%s,%s\n", i+s+3*k, (i*7+s)%5, strings.Join(doc, " "), []string{"a", "b"}[k])
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", s)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fitModel := func(t *testing.T, args ...string) gendisc.Model {
		t.Helper()
		freshFlags(t)
		out := filepath.Join(t.TempDir(), "m.json")
		if err := run(context.Background(), "fit", append([]string{"--data", filepath.Join(dir, "part-*"), "--out", out}, args...), io.Discard); err != nil {
			t.Fatal(err)
		}
		m, err := registry.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	type priors interface{ Priors() []float64 }
	for _, kind := range []string{"gaussian-nb", "lda", "qda", "multinomial-nb", "bernoulli-nb", "complement-nb", "nb", "categorical-nb"} {
		args := []string{"--model", kind, "--class-prior", "a=0.25,b=0.75"}
		switch kind {
		case "categorical-nb":
			args = append(args, "--categorical", "x2", "--ignore", "x1,doc")
		case "gaussian-nb", "lda", "qda":
			args = append(args, "--ignore", "doc")
		}
		if m := fitModel(t, args...); !slices.Equal(m.(priors).Priors(), []float64{0.25, 0.75}) {
			t.Errorf("%s --class-prior a=0.25,b=0.75: priors %v", kind, m.(priors).Priors())
		}
	}
	if c := fitModel(t, "--model", "lda", "--ignore", "doc", "--em-tol", "1e-7").(*gda.LDA).Config(); c.Tol != 1e-7 {
		t.Errorf("lda --em-tol 1e-7: Tol %g", c.Tol)
	}
	for _, kind := range []string{"multinomial-nb", "bernoulli-nb", "complement-nb", "nb"} {
		m := fitModel(t, "--model", kind, "--ngrams", "1-2", "--stop-words", "english", "--min-df", "2", "--max-df", "0.9", "--max-features", "12").(*naivebayes.Model)
		want := text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}, StopWords: "english", MinDF: text.DocFreq{Count: 2}, MaxDF: text.DocFreq{Fraction: 0.9}, MaxFeatures: 12}
		if c := m.Config().Text; c != want {
			t.Errorf("%s: text configuration %+v, want %+v", kind, c, want)
		}
		v, err := m.Vocabulary("doc")
		if err != nil {
			t.Fatal(err)
		}
		terms := v.Terms()
		if len(terms) != 12 || slices.Contains(terms, "the") || !slices.ContainsFunc(terms, func(s string) bool { return strings.Contains(s, " ") }) {
			t.Errorf("%s: vocabulary %q: want 12 terms, pairs of words among them, no stop word", kind, terms)
		}
	}
	m := fitModel(t, "--model", "multinomial-nb", "--hash-features", "64").(*naivebayes.Model)
	if c := m.Config().Text; c.HashFeatures != 64 || !c.Hashed() {
		t.Errorf("multinomial-nb --hash-features 64: text configuration %+v", c)
	}

	// The warnings of a model fitted in one pass are printed, as gendisc
	// fit prints them.
	freshFlags(t)
	var stderr bytes.Buffer
	args := []string{"--data", filepath.Join(dir, "part-*"), "--out", filepath.Join(t.TempDir(), "m.json"), "--model", "multinomial-nb", "--alpha", "0"}
	if err := run(context.Background(), "fit", args, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "gendisc-beam: warning: alpha 0 (no smoothing)"; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("multinomial-nb --alpha 0: standard error %q, want a line starting %q", stderr.String(), want)
	}
}

// TestFitFlagErrors checks that invalid flag values, and flags that are
// valid only with the others once the command line is parsed, are misuses
// (errUsage) found before any pipeline runs, named as gendisc fit names
// them.
func TestFitFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "gaussian-nb", "--class-prior", "a=0.3,b=0.3"}, "usage: --class-prior: the class priors sum to 0.6, not 1"},
		{[]string{"--model", "qda", "--class-prior", "a=1", "--prior-alpha", "1"},
			"usage: --class-prior: not with --prior-alpha: a fixed class prior and a smoothed one exclude each other"},
		{[]string{"--model", "logistic", "--alternate-sign"}, "usage: --stop-words: text: alternate signs apply to hashed columns only"},
		// Invalid values of one flag, refused by the flag set's Parse.
		{[]string{"--model", "bernoulli-nb", "--binarize", "NaN"}, `usage: invalid value "NaN" for flag --binarize: want a finite number`},
		{[]string{"--model", "logistic", "--class-weight", "none"}, `usage: invalid value "none" for flag --class-weight: unknown class weight "none" (want balanced)`},
		{[]string{"--model", "gmm", "--restarts", "0"}, `usage: invalid value "0" for flag --restarts: want a whole number ≥ 1`},
	} {
		freshFlags(t)
		err := run(context.Background(), "fit", append([]string{"--data", "no-such-dir/part-*", "--out", "m.json"}, c.args...), io.Discard)
		if !errors.Is(err, errUsage) || err.Error() != c.want {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// runMain runs Main on a fresh flag.CommandLine with args and returns its
// exit status and output.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	freshFlags(t)
	var out, errs bytes.Buffer
	code = Main(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestUsage checks gendisc-beam's help: its own usage first, Beam's
// runner flags in a paragraph, every Beam flag behind --help-beam, the
// help of a command without its required flags, and --version.
func TestUsage(t *testing.T) {
	code, out, errs := runMain(t, "--help")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "gendisc-beam fits gendisc's models with Apache Beam pipelines") ||
		!strings.Contains(out, "\tfit      fit a model to the rows of every file of a glob and save it\n") ||
		!strings.Contains(out, "--runner prism") || !strings.Contains(out, "--endpoint HOST:PORT") || !strings.Contains(out, "--environment_type LOOPBACK") ||
		!strings.Contains(out, "gendisc-beam --help-beam lists every Beam flag.") || strings.Contains(out, "--dataflow_kms_key") || strings.Count(out, "\n") > 40 {
		t.Errorf("--help: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	if code, out, _ := runMain(t, "--help-beam"); code != 0 || !strings.Contains(out, "  --runner string\n") || !strings.Contains(out, "  --dataflow_kms_key string\n") {
		t.Errorf("--help-beam: exit %d, stdout:\n%.300s", code, out)
	}
	for _, args := range [][]string{{"fit", "--help"}, {"fit", "-h"}, {"help", "fit"}, {"fit", "--model", "qda", "--help"}} {
		code, out, errs := runMain(t, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: gendisc-beam fit --data GLOB --model KIND [model flags] --out M.json [Beam flags]\n") ||
			!strings.Contains(out, "\nFlags:\n") || !strings.Contains(out, "  --target column\n") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
		if hasShrinkage := strings.Contains(out, "  --shrinkage r\n"); hasShrinkage != (len(args) == 4) {
			t.Errorf("%q: the flags of --model qda listed: %v", args, hasShrinkage)
		}
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errs := runMain(t, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "gendisc-beam ") || !strings.Contains(out, ", model files version 1, Apache Beam Go SDK v2.") {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, errs, out)
		}
	}
}

// TestErrorsBeforePipeline checks that a mistake is one line naming its
// cause, found before any pipeline is built, with gendisc's exit status:
// 2 for a misuse (with the usage line), 1 for input that does not do.
func TestErrorsBeforePipeline(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "part-0.csv"), []byte("x1,x2,y\n1,2,a\n2,3,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	glob, out := filepath.Join(dir, "part-*"), filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		args []string
		code int
		want string // stderr's first line
	}{
		{[]string{"fit", "--data", "iris", "--model", "lda", "--out", out}, 1,
			`gendisc-beam: no files matching pattern "iris" (gendisc-beam reads files: gendisc datasets export iris --out iris.csv writes the bundled one)`},
		{[]string{"fit", "--data", "no-such-dir/part-*", "--model", "lda", "--out", out}, 1, `gendisc-beam: no files matching pattern "no-such-dir/part-*"`},
		{[]string{"fit", "--data", glob, "--target", "klass", "--model", "lda", "--out", out}, 1,
			"gendisc-beam: " + filepath.Join(dir, "part-0.csv") + `:1: column "klass": no such column; the columns are x1, x2, y`},
		{[]string{"fit", "--data", glob, "--model", "lda", "--version", "--out", out}, 2, "gendisc-beam fit: flag provided but not defined: --version"},
		{[]string{"fit", "--data", glob, "--out", out}, 2, "gendisc-beam fit: missing --model KIND (bernoulli-nb, categorical-nb, complement-nb, gaussian-nb, gmm, hmm, lda, linear, logistic, multinomial-nb, nb, qda)"},
		{[]string{"fit", "--data", glob, "--model", "lda", "--out", out, "--runner"}, 2, "gendisc-beam fit: flag needs an argument: --runner"},
		{[]string{"fit", "--data", glob, filepath.Join(dir, "part-1.csv"), "--model", "lda", "--out", out}, 2,
			`gendisc-beam fit: unexpected argument "` + filepath.Join(dir, "part-1.csv") + `" (all inputs are given by flags; quote a glob, --data 'DIR/part-*', so that the shell leaves it whole)`},
		{[]string{"predict", "--model", filepath.Join(dir, "none.json"), "--data", glob, "--out", out}, 1,
			`gendisc-beam: --model: no files matching pattern "` + filepath.Join(dir, "none.json") + `"`},
		{[]string{"score", "--model", out, "--data", filepath.Join(dir, "none-*"), "--out", out}, 1,
			`gendisc-beam: no files matching pattern "` + filepath.Join(dir, "none-*") + `"`},
		{[]string{"frobnicate"}, 2, `gendisc-beam: unknown command "frobnicate" (commands: fit, predict, score, version)`},
		{[]string{"--data", glob, "fit"}, 2, "gendisc-beam: flags go after the command: gendisc-beam fit --data " + glob},
	} {
		if tc.args[0] == "score" {
			os.WriteFile(out, []byte("{}"), 0o644)
		}
		code, stdout, stderr := runMain(t, tc.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != tc.code || first != tc.want || stdout != "" || tc.code == 1 && strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
		if tc.code == 2 && tc.args[0] == "fit" && !strings.Contains(stderr, "\nusage: gendisc-beam fit ") {
			t.Errorf("%q: no usage line in %q", tc.args, stderr)
		}
		os.Remove(out)
	}
}
