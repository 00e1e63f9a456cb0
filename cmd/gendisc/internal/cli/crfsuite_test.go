package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// attributeSentences returns sentences given as the attributes that the
// default templates make of the words of sentences, tagged or not.
func attributeSentences(t *testing.T, sentences []seq.Sentence, tagged bool) []seq.Sentence {
	t.Helper()
	tp, err := crf.ParseTemplates(crf.DefaultTemplates)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]seq.Sentence, len(sentences))
	for i, s := range sentences {
		out[i].Attributes = tp.Attributes(s.Tokens)
		if tagged {
			out[i].Tags = s.Tags
		}
	}
	return out
}

// writeCRFsuite writes sentences in CRFsuite's format to dir/name.
func writeCRFsuite(t *testing.T, dir, name string, sentences []seq.Sentence) string {
	t.Helper()
	var b bytes.Buffer
	if err := seqio.WriteCRFsuite(&b, sentences); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// crfParams returns the parameters of m as its model file holds them.
func crfParams(t *testing.T, m *crf.Model) map[string]any {
	t.Helper()
	raw, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	if err := json.Unmarshal(raw, &params); err != nil {
		t.Fatal(err)
	}
	return params
}

// withoutTemplates returns the parameters of the crf model file at path
// without its templates, as JSON.
func withoutTemplates(t *testing.T, path string) string {
	t.Helper()
	params := crfParams(t, loadCRF(t, path))
	delete(params, "templates")
	delete(params, "vocabulary") // the words, which a model of attributes has not
	out, _ := json.Marshal(params)
	return string(out)
}

// TestCRFsuiteInput trains a CRF on CRFsuite's data format, the
// attributes that the default templates make of 200 sentences of EWT,
// written by gendisc features and read back the same, and checks that it is the model trained on the words themselves, bit
// for bit, and that predict, predict --marginals, eval and score on the
// attributes of 50 dev sentences answer as the model of words does on
// their words; then the refusals of one input for the other.
func TestCRFsuiteInput(t *testing.T) {
	dir := t.TempDir()
	trainWords, train := treebankSlice(t, dir, "ud_english_ewt", 0, 200)
	devWords, dev := treebankSlice(t, dir, "ud_english_ewt", 150, 230) // tags seen in training, for score
	trainAttrs := filepath.Join(dir, "train.crfsuite")
	mustRun(t, "features", "--model", "crf", "--data", trainWords, "--out", trainAttrs)
	if c, err := seqio.ReadFile(trainAttrs, seqio.Options{}); err != nil || !reflect.DeepEqual(withoutLines(c.Sentences), attributeSentences(t, train, true)) {
		t.Fatalf("features wrote other attributes than the templates' (%v)", err)
	}
	devAttrs := writeCRFsuite(t, dir, "dev.crfsuite", attributeSentences(t, dev, true))
	untagged := writeCRFsuite(t, dir, "untagged.txt", attributeSentences(t, dev, false))
	onWords, onAttrs := filepath.Join(dir, "words.json"), filepath.Join(dir, "attrs.json")
	mustRun(t, "fit", "--model", "crf", "--data", trainWords, "--max-iter", "15", "--quiet", "--out", onWords)
	mustRun(t, "fit", "--model", "crf", "--data", trainAttrs, "--max-iter", "15", "--quiet", "--out", onAttrs)
	if a, w := withoutTemplates(t, onAttrs), withoutTemplates(t, onWords); a != w {
		t.Fatalf("the model of the attributes differs from the model of the words")
	}
	if loadCRF(t, onAttrs).Templates() != nil {
		t.Fatalf("the model of given attributes has templates")
	}
	if text := mustRun(t, "inspect", "--model", onAttrs); !strings.Contains(text, "feature templates: none (trained on given attributes") {
		t.Errorf("inspect of a model of given attributes:\n%s", text)
	}
	// predict writes no words for a sentence given as attributes.
	tagColumns := func(text string) string {
		rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, row := range rows {
			b.WriteString(strings.Join(slices.Delete(row, 2, 3), ",") + "\n")
		}
		return b.String()
	}
	for _, args := range [][]string{{"predict"}, {"predict", "--marginals"}, {"eval", "--json"}, {"score", "--out", "-"}} {
		w := mustRun(t, slices.Concat([]string{args[0], "--model", onWords, "--data", devWords}, args[1:])...)
		a := mustRun(t, slices.Concat([]string{args[0], "--model", onAttrs, "--data", devAttrs}, args[1:])...)
		if args[0] == "predict" {
			w, a = tagColumns(w), tagColumns(a)
		}
		if args[0] != "eval" && w != a { // eval: below
			t.Errorf("%v: on attributes\n%.300s\non words\n%.300s", args, a, w)
		}
	}
	var rep struct {
		Accuracy        float64
		UnknownAccuracy *float64 `json:"unknown_accuracy"`
	}
	var wrep struct{ Accuracy float64 }
	json.Unmarshal([]byte(mustRun(t, "eval", "--model", onAttrs, "--data", devAttrs, "--json")), &rep)
	json.Unmarshal([]byte(mustRun(t, "eval", "--model", onWords, "--data", devWords, "--json")), &wrep)
	if rep.Accuracy != wrep.Accuracy || rep.Accuracy < 0.5 || rep.UnknownAccuracy != nil {
		t.Errorf("eval on attributes: accuracy %v (on words %v), unknown-word accuracy %v (want undefined)", rep.Accuracy, wrep.Accuracy, rep.UnknownAccuracy)
	}
	if got, want := mustRun(t, "predict", "--model", onAttrs, "--data", untagged, "--seq-format", "crfsuite"), mustRun(t, "predict", "--model", onAttrs, "--data", devAttrs); got != want {
		t.Errorf("predict of untagged attributes differs from that of tagged ones")
	}

	// predict --tagged writes the untagged attributes back with the tags.
	retagged := mustRun(t, "predict", "--model", onAttrs, "--data", untagged, "--seq-format", "crfsuite", "--tagged")
	c, err := seqio.Read(strings.NewReader(retagged), "retagged", seqio.Options{Format: seqio.CRFsuite})
	rowTags := csvTags(t, mustRun(t, "predict", "--model", onAttrs, "--data", devAttrs))
	if err != nil || len(c.Sentences) != len(rowTags) {
		t.Fatalf("predict --tagged of attributes: %v, %d sentences", err, len(c.Sentences))
	}
	for i, s := range attributeSentences(t, dev, false) {
		if !slices.Equal(c.Sentences[i].Tags, rowTags[i]) || !reflect.DeepEqual(c.Sentences[i].Attributes, s.Attributes) {
			t.Fatalf("predict --tagged of attributes: sentence %d %+v, want tags %q", i+1, c.Sentences[i], rowTags[i])
		}
	}

	bad := filepath.Join(dir, "bad.crfsuite")
	os.WriteFile(bad, []byte("NOUN\tw=dog\nVERB\tw=runs\tbias:1,5\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "--model", onAttrs, "--data", devWords}, "sentences of words, but " + onAttrs + " was trained on given attributes"},
		{[]string{"eval", "--model", onAttrs, "--data", devWords}, "was trained on given attributes"},
		{[]string{"score", "--model", onAttrs, "--data", devWords}, "was trained on given attributes"},
		{[]string{"predict", "--model", onWords, "--data", devAttrs}, "dev.crfsuite: sentences given as attributes (CRFsuite's data format), but " + onWords + " was trained on words"},
		{[]string{"predict", "--model", onWords, "--data", devAttrs, "--marginals"}, "was trained on words"},
		{[]string{"fit", "--model", "hmm", "--data", trainAttrs, "--out", filepath.Join(dir, "h.json")}, "train.crfsuite: sentences given as attributes (CRFsuite's data format), but --model hmm reads words"},
		{[]string{"fit", "--model", "crf", "--features", "word", "--data", trainAttrs, "--out", filepath.Join(dir, "f.json")}, "feature templates, hashed or not, make those of words"},
		{[]string{"fit", "--model", "crf", "--data", bad, "--out", filepath.Join(dir, "b.json")}, `bad.crfsuite:2:3: malformed attribute "bias:1,5": the value "1,5" is not a finite number`},
		{[]string{"fit", "--model", "crf", "--data", untagged, "--seq-format", "crfsuite", "--out", filepath.Join(dir, "u.json")}, "untagged.txt:1: sentence 1 has no tags to train on"},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != exitFailure || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "h.json")); err == nil {
		t.Errorf("a refused fit left its output file")
	}
	hmmModel := filepath.Join(dir, "hmm.json")
	mustRun(t, "fit", "--model", "hmm", "--data", trainWords, "--out", hmmModel)
	for _, cmd := range []string{"predict", "update"} {
		if r := runCLI(t, "", cmd, "--model", hmmModel, "--data", devAttrs, "--out", filepath.Join(dir, "x")); r.code != exitFailure || !strings.Contains(r.stderr, "sentences given as attributes") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s of an hmm on attributes: exit %d, stderr %q", cmd, r.code, r.stderr)
		}
	}
}

// withoutLines returns the sentences with their Line zeroed.
func withoutLines(s []seq.Sentence) []seq.Sentence {
	out := slices.Clone(s)
	for i := range out {
		out[i].Line = 0
	}
	return out
}

// TestFeaturesFlags checks that features applies the kind's feature
// flags, that the attributes it writes of untagged sentences have empty
// labels, and its refusals: a kind that makes no attributes, sentences
// given as attributes already, another kind's flag.
func TestFeaturesFlags(t *testing.T) {
	dir := t.TempDir()
	words := filepath.Join(dir, "w.conll")
	os.WriteFile(words, []byte("The DET\ndog: NOUN\n\nRuns VERB\n"), 0o644)
	got := mustRun(t, "features", "--model", "crf", "--features", "word,suffix:2@-1", "--data", words)
	want := "DET\tword=The\tsuffix@-1=__BOS__\nNOUN\tword=dog\\:\tsuffix@-1=1=e\tsuffix@-1=2=he\n\nVERB\tword=Runs\tsuffix@-1=__BOS__\n\n"
	tp, _ := crf.ParseTemplates("word,suffix:2@-1")
	if got != want {
		t.Errorf("features --features word,suffix:2@-1:\n%q\nwant\n%q (the templates make %v)", got, want, tp.Attributes([]string{"The", "dog:"}))
	}
	hashed := mustRun(t, "features", "--model", "crf", "--hash-features", "8", "--data", words)
	if strings.Contains(hashed, "word=The") || strings.Count(hashed, "\n") != 5 {
		t.Errorf("features --hash-features 8:\n%s", hashed)
	}
	untagged := filepath.Join(dir, "u.conll")
	os.WriteFile(untagged, []byte("The\ndog\n"), 0o644)
	if got := mustRun(t, "features", "--model", "crf", "--features", "word", "--data", untagged); got != "\tword=The\n\tword=dog\n\n" {
		t.Errorf("features of untagged sentences: %q", got)
	}
	attrs := filepath.Join(dir, "a.crfsuite")
	os.WriteFile(attrs, []byte("X\ta\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--model", "hmm", "--data", words}, exitUsage, "--model hmm does not make attributes of words (kinds that do: crf)"},
		{[]string{"--model", "crf", "--data", attrs}, exitFailure, "a.crfsuite: sentences given as attributes already"},
		{[]string{"--model", "crf", "--order", "2", "--data", words}, exitUsage, "--order"},
		{[]string{"--model", "nope", "--data", words}, exitUsage, `unknown model kind "nope"`},
	} {
		r := runCLI(t, "", append([]string{"features"}, tc.args...)...)
		if first, _, _ := strings.Cut(r.stderr, "\n"); r.code != tc.code || !strings.Contains(first, tc.want) {
			t.Errorf("features %v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
