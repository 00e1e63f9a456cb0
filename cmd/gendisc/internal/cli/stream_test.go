package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/registry"
)

// smallChunks makes fit --stream read chunks of n bytes for the test.
func smallChunks(t *testing.T, n int) { setForTest(t, &streamChunk, n) }

// setForTest sets *p to v for the test, and back when it ends.
func setForTest[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

// TestStreamableKinds checks that fit --stream takes the kinds that merge
// and update take, those whose models keep their sufficient statistics:
// a kind has an accumulator exactly when package registry says that its
// models are gendisc.Mergeable.
func TestStreamableKinds(t *testing.T) {
	withCountKinds(t)
	if s, m := streamableKinds(), mergeableKinds(); !slices.Equal(s, m) {
		t.Errorf("fit --stream takes %q, merge and update %q", s, m)
	}
	want := []string{"bernoulli-nb", "categorical-nb", "complement-nb", "gaussian-nb", "lda", "linear", "multinomial-nb", "nb", "qda",
		countsKind, countsAccKind}
	for _, name := range want {
		if k, err := registry.Lookup(name); err != nil || !k.OnePass() {
			t.Errorf("fit --stream does not take %s", name)
		}
	}
}

// TestFitStreamEqualsFit checks that fit --stream, reading a few rows at a
// time, gives the model that fit gives, with classes that first appear
// in later chunks and rows that straddle the chunks.
func TestFitStreamEqualsFit(t *testing.T) {
	smallChunks(t, 300)
	for _, tc := range []struct {
		kind, data string
		flags      []string
	}{
		{kind: "gaussian-nb", data: "iris"},
		{kind: "gaussian-nb", data: "wine", flags: []string{"--variance", "shared"}},
		{kind: "lda", data: "iris"},
		{kind: "qda", data: "wine", flags: []string{"--shrinkage", "0.1"}},
	} {
		t.Run(tc.kind+"/"+tc.data, func(t *testing.T) {
			dir := t.TempDir()
			header, rows := bundledRows(t, tc.data)
			in := writeRows(t, dir, "in.csv", header, rows)
			whole, streamed := filepath.Join(dir, "whole.json"), filepath.Join(dir, "streamed.json")
			mustRun(t, append([]string{"fit", "--model", tc.kind, "--data", in, "--out", whole}, tc.flags...)...)
			r := runCLI(t, "", append([]string{"fit", "--model", tc.kind, "--data", in, "--out", streamed, "--stream", "--verbose"}, tc.flags...)...)
			if r.code != 0 {
				t.Fatalf("fit --stream: exit %d: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, fmt.Sprintf(": %d rows in ", len(rows))) || strings.Contains(r.stderr, " in 1 chunks") {
				t.Errorf("fit --stream --verbose: %q; want %d rows in several chunks", r.stderr, len(rows))
			}
			equal, total := sameJoint(t, loadGenerative(t, streamed), loadGenerative(t, whole), in, 1e-12)
			t.Logf("%d of %d joint log-likelihoods equal bit for bit", equal, total)
		})
	}
}

// TestFitStreamFormats checks that fit --stream reads what fit reads,
// whatever the delimiter: a byte order mark, blank lines, CRLF line ends,
// quoted classes holding delimiters, quotes and line ends, classes that
// first appear in later chunks. (data's tests check the chunks
// themselves.)
func TestFitStreamFormats(t *testing.T) {
	smallChunks(t, 100)
	for _, sep := range []string{",", "\t", ";"} {
		var b strings.Builder
		b.WriteString("\xef\xbb\xbf\r\n\"x\"" + sep + "z" + sep + "\"the\nclass\"\r\n")
		for i := range 60 {
			class := []string{`"a, ""quoted"" one"`, "b", "\"two\r\nlines\""}[min(i/20, 2)]
			fmt.Fprintf(&b, "%d.5%s%d%s%s\r\n", i%17, sep, i%5, sep, class)
			if i%7 == 0 {
				b.WriteString("\r\n\n")
			}
		}
		dir := t.TempDir()
		in := filepath.Join(dir, "in.csv")
		if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		whole, streamed := filepath.Join(dir, "whole.json"), filepath.Join(dir, "streamed.json")
		mustRun(t, "fit", "--model", "gaussian-nb", "--data", in, "--out", whole)
		r := runCLI(t, "", "fit", "--model", "gaussian-nb", "--data", in, "--out", streamed, "--stream", "--verbose")
		if r.code != 0 || !strings.Contains(r.stderr, ": 60 rows in ") || strings.Contains(r.stderr, " in 1 chunks") {
			t.Fatalf("delimiter %q: exit %d, %q; want 60 rows in several chunks", sep, r.code, r.stderr)
		}
		sameJoint(t, loadGenerative(t, streamed), loadGenerative(t, whole), in, 1e-12)
	}
}

// TestFitStreamBadInput checks the failures of fit --stream: one line
// naming the file, and the line of the file where one applies, exit
// status 1 (2 for a kind without a streaming fit), no output file.
func TestFitStreamBadInput(t *testing.T) {
	smallChunks(t, 64)
	rows := func(n int, bad string, at int) string {
		var b strings.Builder
		b.WriteString("a,b,class\n")
		for i := range n {
			v := fmt.Sprint(i % 7)
			if i == at {
				v = bad
			}
			fmt.Fprintf(&b, "%d,%s,%c\n", i, v, 'x'+i%2)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, file string
		args       []string
		code       int
		want       string
	}{
		{name: "word in a numeric column", file: rows(100, "seven", 80), code: 1, want: "in.csv:82:2"},
		{name: "infinity", file: rows(100, "1e999", 60), code: 1, want: "in.csv:62:2"},
		{name: "ragged row", file: rows(100, "1,2", 90), code: 1, want: "in.csv:92"},
		{name: "empty file", file: "", code: 1, want: "in.csv: empty file"},
		{name: "header only", file: "a,b,class\n", code: 1, want: "in.csv"},
		{name: "one class only", file: strings.ReplaceAll(rows(100, "1", 0), ",y\n", ",x\n"), code: 1, want: "in.csv"},
		{name: "no such target", file: rows(10, "1", 0), args: []string{"--target", "label"}, code: 1, want: `"label"`},
		{name: "kind without streaming fit", file: rows(10, "1", 0), args: []string{"--model", "logistic"}, code: 2,
			want: "--model logistic cannot be fitted with --stream (kinds that can: bernoulli-nb, categorical-nb, complement-nb, gaussian-nb, hmm, lda, linear, multinomial-nb, nb, ngram, qda)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.csv")
			os.WriteFile(in, []byte(tc.file), 0o644)
			args := append([]string{"fit", "--stream", "--data", in, "--out", filepath.Join(dir, "m.json")}, tc.args...)
			if !slices.Contains(args, "--model") {
				args = append(args, "--model", "gaussian-nb")
			}
			r := runCLI(t, "", args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || tc.code == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line containing %q", r.code, r.stderr, tc.code, tc.want)
			}
			assertFiles(t, dir, "in.csv")
		})
	}
}

// TestFitStreamStdin fits from standard input in chunks.
func TestFitStreamStdin(t *testing.T) {
	smallChunks(t, 500)
	dir := t.TempDir()
	header, rows := bundledRows(t, "iris")
	in := writeRows(t, dir, "iris.csv", header, rows)
	r := runCLI(t, header+"\n"+strings.Join(rows, "\n"), "fit", "--stream", "--model", "lda", "--data", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	streamed, whole := filepath.Join(dir, "streamed.json"), filepath.Join(dir, "whole.json")
	os.WriteFile(streamed, []byte(r.stdout), 0o644)
	mustRun(t, "fit", "--model", "lda", "--data", in, "--out", whole)
	sameJoint(t, loadGenerative(t, streamed), loadGenerative(t, whole), in, 1e-12)
}

// TestFitStreamWeight checks that fit --stream --weight weighs the rows
// as fit does.
func TestFitStreamWeight(t *testing.T) {
	smallChunks(t, 200)
	dir := t.TempDir()
	header, rows := bundledRows(t, "iris")
	var weighted []string
	for i, r := range rows {
		weighted = append(weighted, fmt.Sprintf("%d,%s", i%3, r))
	}
	in := writeRows(t, dir, "in.csv", "w,"+header, weighted)
	whole, streamed := filepath.Join(dir, "whole.json"), filepath.Join(dir, "streamed.json")
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", in, "--weight", "w", "--out", whole)
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", in, "--weight", "w", "--out", streamed, "--stream")
	sameJoint(t, loadGenerative(t, streamed), loadGenerative(t, whole), in, 1e-12)
	unweighted := filepath.Join(dir, "unweighted.json")
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", in, "--ignore", "w", "--out", unweighted, "--stream")
	if a, b := loadGenerative(t, unweighted).(interface{ ClassWeights() []float64 }).ClassWeights(),
		loadGenerative(t, streamed).(interface{ ClassWeights() []float64 }).ClassWeights(); slices.Equal(a, b) {
		t.Errorf("class weights %v with and without --weight", a)
	}
}
