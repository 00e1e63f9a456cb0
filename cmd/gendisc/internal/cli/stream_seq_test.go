package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// smallBatches makes fit --stream add sentences in batches of about n
// tokens for the test.
func smallBatches(t *testing.T, n int) { setForTest(t, &streamBatchTokens, n) }

// TestHMMStreamEqualsFit checks that fit --stream of an HMM, adding the
// sentences a few hundred tokens at a time, writes the model file of fit
// on all of them, byte for byte: on the bundled EWT dev part (first- and
// second-order), on a small JSON lines file, on a gzip-compressed file
// of columns and on standard input.
func TestHMMStreamEqualsFit(t *testing.T) {
	smallBatches(t, 500)
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "small.jsonl")
	if err := os.WriteFile(jsonl, []byte(`{"tokens": ["The", "dog", "barks"], "tags": ["DET", "NOUN", "VERB"]}
{"tokens": ["A", "cat", "sleeps", "."], "tags": ["DET", "NOUN", "VERB", "PUNCT"]}

{"tokens": ["Dogs", "bark", "at", "2", "cats"], "tags": ["NOUN", "VERB", "ADP", "NUM", "NOUN"]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&Env{}).readSentences("ud_english_ewt_dev", &seqFlags{})
	if err != nil {
		t.Fatal(err)
	}
	var cols bytes.Buffer
	z := gzip.NewWriter(&cols)
	for _, s := range c.Sentences[:400] {
		for i, w := range s.Tokens {
			fmt.Fprintf(z, "%s\tx\t%s\n", w, s.Tags[i])
		}
		fmt.Fprintln(z)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "part.conll.gz")
	if err := os.WriteFile(gz, cols.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data string
		flags      []string
		sentences  int
	}{
		{"ewt-dev", "ud_english_ewt_dev", nil, 2001},
		{"ewt-dev-order-1", "ud_english_ewt_dev", []string{"--order", "1", "--smoothing", "add-alpha", "--unknown", "uniform"}, 2001},
		{"small-jsonl", jsonl, nil, 3},
		{"gzip-columns", gz, []string{"--tag-column", "3"}, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, streamed := filepath.Join(dir, tc.name+".json"), filepath.Join(dir, tc.name+"-stream.json")
			mustRun(t, append([]string{"fit", "--model", "hmm", "--data", tc.data, "--out", whole}, tc.flags...)...)
			r := runCLI(t, "", append([]string{"fit", "--model", "hmm", "--data", tc.data, "--out", streamed, "--stream", "--verbose"}, tc.flags...)...)
			if r.code != 0 {
				t.Fatalf("fit --stream: exit %d: %s", r.code, r.stderr)
			}
			if want := fmt.Sprintf(": %d sentences, ", tc.sentences); !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "read in batches") {
				t.Errorf("fit --stream --verbose: %q, want %q", r.stderr, want)
			}
			sameFiles(t, streamed, whole)
		})
	}
	// Standard input, whose format is told by its first bytes.
	ewt, _ := treebankSlice(t, dir, "ud_english_ewt", 0, 300)
	in, err := os.ReadFile(ewt)
	if err != nil {
		t.Fatal(err)
	}
	whole, streamed := filepath.Join(dir, "stdin.json"), filepath.Join(dir, "stdin-stream.json")
	mustRun(t, "fit", "--model", "hmm", "--data", ewt, "--out", whole)
	if r := runCLI(t, string(in), "fit", "--model", "hmm", "--data", "-", "--stream", "--out", streamed); r.code != 0 {
		t.Fatalf("fit --stream --data -: exit %d: %s", r.code, r.stderr)
	}
	sameFiles(t, streamed, whole)
}

// sameFiles fails the test unless the files at got and want hold the same
// bytes.
func sameFiles(t *testing.T, got, want string) {
	t.Helper()
	a, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("%s differs from %s", filepath.Base(got), filepath.Base(want))
	}
}

// sentenceSource is an io.Reader of n generated tagged sentences in
// CoNLL-U, made as they are read (the input is never in memory),
// which records the largest heap in use (runtime.MemStats.HeapAlloc) at
// every MB read.
type sentenceSource struct {
	n, made  int
	buf      bytes.Buffer
	line     []byte
	read     int64
	nextStat int64
	peakHeap uint64
}

func (s *sentenceSource) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && s.made < s.n {
		for j := range 12 {
			// 60 words, 6 tags: a small model of many sentences.
			b := strconv.AppendInt(s.line[:0], int64(j+1), 10)
			b = append(b, "\tw"...)
			b = strconv.AppendInt(b, int64((s.made*7+j*13)%60), 10)
			b = append(b, "\t_\tT"...)
			b = strconv.AppendInt(b, int64((s.made+j)%6), 10)
			s.buf.Write(append(b, "\t_\t_\t_\t_\t_\t_\n"...))
		}
		s.buf.WriteString("\n")
		s.made++
	}
	if s.buf.Len() == 0 {
		return 0, io.EOF
	}
	k, _ := s.buf.Read(p)
	s.read += int64(k)
	if s.read >= s.nextStat {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		s.peakHeap = max(s.peakHeap, m.HeapAlloc)
		s.nextStat += 1 << 20
	}
	return k, nil
}

// TestHMMStreamMemory checks that fit --stream holds no more than a
// batch of sentences: 200,000 sentences (2.4 million tokens, 53 MB of
// CoNLL-U, which a corpus in memory would hold in some 80 MB of slices)
// are read from standard input with a heap that stays far below the
// input's size.
func TestHMMStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 sentences")
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	src := &sentenceSource{n: 200_000}
	var stdout, stderr bytes.Buffer
	env := &Env{Stdin: src, Stdout: &stdout, Stderr: &stderr}
	if code := Main(t.Context(), env, []string{"fit", "--model", "hmm", "--data", "-", "--seq-format", "conllu", "--stream"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	grown := int64(src.peakHeap) - int64(base)
	t.Logf("%d MB of sentences read; the heap grew by at most %.1f MB", src.read>>20, float64(grown)/(1<<20))
	if src.read < 15<<20 || !strings.Contains(stdout.String(), `"kind": "hmm"`) {
		t.Fatalf("%d bytes read, model %.100q", src.read, stdout.String())
	}
	if grown > src.read/4 {
		t.Errorf("the heap grew by %d bytes for %d bytes of input: the sentences are kept", grown, src.read)
	}
}

// TestHMMStreamBadInput checks the one-line errors of fit --stream and
// update of sentences: a sentence that the accumulator refuses in a later
// batch is named by its line and its number in the file, a sentence
// longer than --max-record is refused with the flag to raise, and no
// model file is left.
func TestHMMStreamBadInput(t *testing.T) {
	smallBatches(t, 10)
	dir := t.TempDir()
	var b strings.Builder
	for i := range 50 {
		if i == 39 {
			b.WriteString(`{"tokens": ["no", "tags"]}` + "\n")
			continue
		}
		b.WriteString(`{"tokens": ["a", "b", "c"], "tags": ["X", "Y", "Z"]}` + "\n")
	}
	untagged := filepath.Join(dir, "u.jsonl")
	if err := os.WriteFile(untagged, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", untagged}, "u.jsonl:40: sentence 40: sentence without tags"},
		{[]string{"--data", untagged, "--max-record", "40"}, "u.jsonl:1: record too long: a sentence of more than 40 B (raise the limit with --max-record SIZE"},
		{[]string{"--data", filepath.Join(dir, "none.conllu")}, "none.conllu: no such file"},
	} {
		r := runCLI(t, "", append([]string{"fit", "--model", "hmm", "--stream", "--out", out}, tc.args...)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and one line with %q", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q: a model file was left", tc.args)
		}
	}
	// update adds sentences a batch at a time too.
	good := filepath.Join(dir, "g.jsonl")
	if err := os.WriteFile(good, []byte(`{"tokens": ["a"], "tags": ["X"]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "g.json")
	mustRun(t, "fit", "--model", "hmm", "--data", good, "--out", model)
	r := runCLI(t, "", "update", "--model", model, "--data", untagged, "--out", out)
	if want := "u.jsonl:40: sentence 40: sentence without tags"; r.code != exitFailure || !strings.Contains(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("update: exit %d, stderr %q; want exit 1 and one line with %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("update: a model file was left")
	}
}
