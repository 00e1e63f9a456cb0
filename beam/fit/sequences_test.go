package fit

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// TestSequenceKinds checks the kinds FitSequences takes, as package
// registry declares them: the one-pass kinds of sentences.
func TestSequenceKinds(t *testing.T) {
	if got := SequenceKinds(); !slices.Equal(got, []string{"hmm"}) {
		t.Errorf("SequenceKinds() = %q, want [hmm]", got)
	}
	a, err := emptyAccumulator(hmm.Kind)
	if err != nil {
		t.Fatal(err)
	}
	if kind, err := decoderKind(a); kind != hmm.Kind || err != nil {
		t.Errorf("decoderKind of an HMM accumulator: %q, %v", kind, err)
	}
}

// ewtDev returns the sentences of the bundled EWT dev part.
func ewtDev(t *testing.T) []seq.Sentence {
	t.Helper()
	r, err := datasets.OpenTreebank("ud_english_ewt_dev")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := seqio.Read(r, "ud_english_ewt_dev", seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Sentences
}

// sentenceShards writes the sentences as four files in a new directory,
// dealt in blocks, each in another format: CoNLL-U, gzip-compressed
// CoNLL-U, JSON lines and columns, which seqio tells by their names.
func sentenceShards(t *testing.T, sentences []seq.Sentence) string {
	t.Helper()
	dir := t.TempDir()
	names := []string{"part-0.conllu", "part-1.conllu.gz", "part-2.jsonl", "part-3.conll"}
	var parts [4]bytes.Buffer
	for i, s := range sentences {
		k := i * len(parts) / len(sentences)
		b := &parts[k]
		switch k {
		case 0, 1:
			for j, w := range s.Tokens {
				fmt.Fprintf(b, "%d\t%s\t_\t%s\t_\t_\t_\t_\t_\t_\n", j+1, w, s.Tags[j])
			}
			b.WriteString("\n")
		case 2:
			line, err := json.Marshal(map[string][]string{"tokens": s.Tokens, "tags": s.Tags})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		case 3:
			for j, w := range s.Tokens {
				if strings.ContainsAny(w, " \t") {
					t.Fatalf("the word %q of sentence %d cannot be written in columns", w, i+1)
				}
				fmt.Fprintf(b, "%s\t%s\n", w, s.Tags[j])
			}
			b.WriteString("\n")
		}
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(parts[1].Bytes())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	parts[1] = z
	for i, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), parts[i].Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// modelBytes returns the model file of m, as gendisc fit writes it
// (modelFile).
func modelBytes(t *testing.T, m gendisc.Model) []byte {
	t.Helper()
	b, err := os.ReadFile(modelFile(t, m))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFitSequencesEqualsFit checks that FitSequences on prism, over four
// shards of the EWT dev part in four formats, writes the model file of
// the fit on all the sentences at once (as gendisc fit --model hmm fits
// them: the kind's SequenceConfig), byte for byte, for the default
// second-order HMM and a first-order add-α one.
func TestFitSequencesEqualsFit(t *testing.T) {
	sentences := ewtDev(t)
	dir := sentenceShards(t, sentences)
	k, err := registry.Lookup(hmm.Kind)
	if err != nil {
		t.Fatal(err)
	}
	def, err := k.DefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	first := hmm.Config{Order: 1, Transitions: hmm.AddAlpha, Alpha: 0.1, EmissionAlpha: 0.1}
	for _, tc := range []struct {
		name string
		fit  func(c *seq.Corpus) (gendisc.Model, error)
		acc  func() (gendisc.Accumulator, error)
	}{
		{"default", func(c *seq.Corpus) (gendisc.Model, error) { return def.(registry.SequenceConfig).FitSequences(c, nil) },
			def.(registry.OnePassConfig).NewAccumulator},
		{"order-1", func(c *seq.Corpus) (gendisc.Model, error) { return first.Fit(c.Sentences) },
			func() (gendisc.Accumulator, error) { return first.NewAccumulator() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := tc.fit(&seq.Corpus{Sentences: sentences})
			if err != nil {
				t.Fatal(err)
			}
			acc, err := tc.acc()
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "hmm.json")
			m, err := FitSequences(context.Background(), runPrism, filepath.Join(dir, "part-*"), acc, out, seqio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, modelBytes(t, want)) {
				t.Errorf("the model file of the pipeline differs from the fit on all the sentences")
			}
			if !bytes.Equal(modelBytes(t, m), got) {
				t.Errorf("FitSequences returned another model than the file it wrote")
			}
		})
	}
	// The model of one shard differs: the test compares what it means to.
	acc, err := first.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	one, err := FitSequences(context.Background(), runPrism, filepath.Join(dir, "part-2.jsonl"), acc, filepath.Join(t.TempDir(), "one.json"), seqio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := first.Fit(sentences)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(modelBytes(t, one), modelBytes(t, all)) {
		t.Error("the model of one shard is the model of all")
	}
}

// TestFitSequencesBadShard checks that a bad shard stops the pipeline
// with the positioned error of its sentence, and that CheckSentences
// finds a bad option and a glob that matches nothing before any pipeline.
func TestFitSequencesBadShard(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(`{"tokens": ["a"], "tags": ["X"]}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(`{"tokens": ["a"], "tags": ["X"]}`+"\n"+`{"tokens": ["b"]}`+"\n"), 0o644)
	acc, err := hmm.Config{}.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	_, err = FitSequences(context.Background(), runPrism, filepath.Join(dir, "*.jsonl"), acc, filepath.Join(dir, "m.json"), seqio.Options{})
	if want := filepath.Join(dir, "b.jsonl") + ":2: sentence 2: sentence without tags"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an untagged sentence: %v, want %q", err, want)
	}
	if _, err := CheckSentences(context.Background(), filepath.Join(dir, "*.jsonl"), seqio.Options{}); err != nil {
		t.Errorf("CheckSentences of good first sentences: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "c.conllu"), []byte("1\ta\t_\tX\t_\t_\t_\t_\t_\t_\n"), 0o644)
	if _, err := CheckSentences(context.Background(), filepath.Join(dir, "c.conllu"), seqio.Options{Tags: "lemma"}); err == nil || !strings.Contains(err.Error(), "unknown CoNLL-U tag field") {
		t.Errorf("--tags lemma: %v", err)
	}
	if _, err := CheckSentences(context.Background(), filepath.Join(dir, "none-*"), seqio.Options{}); err == nil || !strings.Contains(err.Error(), "no files matching") {
		t.Errorf("a glob of no file: %v", err)
	}
}
