package hmm

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/internal/bundled"
	"github.com/gendisc/gendisc/seqio"
)

// nltkReference is testdata/nltk_reference.json, written by
// testdata/nltk_reference.py.
type nltkReference struct {
	Gamma float64 `json:"gamma"`
	Train int     `json:"train"`
	Test  []struct {
		Tokens []string `json:"tokens"`
		Tags   []string `json:"tags"`
		Log2P  float64  `json:"log2p"`
	} `json:"test"`
}

// nltkConfig is the configuration that reproduces NLTK's
// HiddenMarkovModelTagger trained with LidstoneProbDist(γ).
func nltkConfig(gamma float64) Config {
	return Config{Order: 1, Transitions: AddAlpha, Alpha: gamma, EmissionAlpha: gamma, Unknown: Uniform, NoCapitalization: true, NoEnd: true}
}

// TestNLTKReference checks the Viterbi tags and log p(words) of a
// first-order add-α model against NLTK 3.8's HiddenMarkovModelTagger with
// LidstoneProbDist(γ) on the same sentences of the English Web Treebank:
// log-probabilities to 1e-9 (NLTK's are base 2), tags equal except where
// both tag sequences are equally likely (NLTK's Viterbi runs in float32).
func TestNLTKReference(t *testing.T) {
	b, err := os.ReadFile("testdata/nltk_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref nltkReference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	train := bundled.Treebank(t, "ud_english_ewt", seqio.Options{}).Sentences[:ref.Train]
	dev := bundled.Treebank(t, "ud_english_ewt_dev", seqio.Options{}).Sentences
	m, err := nltkConfig(ref.Gamma).Fit(train)
	if err != nil {
		t.Fatal(err)
	}
	ties := 0
	for i, r := range ref.Test {
		if !slices.Equal(r.Tokens, dev[i].Tokens) {
			t.Fatalf("sentence %d: tokens %q, the treebank's %q", i, r.Tokens, dev[i].Tokens)
		}
		if got := m.LogProb(r.Tokens) / math.Ln2; math.Abs(got-r.Log2P) > 1e-9 {
			t.Errorf("sentence %d: log2 p(words) %.12f, NLTK %.12f", i, got, r.Log2P)
		}
		got := m.Tag(r.Tokens)
		if slices.Equal(got, r.Tags) {
			continue
		}
		mine, theirs := m.JointLogProb(r.Tokens, got), m.JointLogProb(r.Tokens, r.Tags)
		if math.Abs(mine-theirs) > 1e-9*math.Abs(theirs) {
			t.Errorf("sentence %d: tags %q (log p %.12g), NLTK %q (log p %.12g)", i, got, mine, r.Tags, theirs)
		}
		ties++
	}
	t.Logf("%d sentences, %d ties broken otherwise", len(ref.Test), ties)
}
