package crf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"
)

var tinySentences = [][]string{{"the", "dog", "runs"}, {"a", "cat"}, {"dogs", "run"}, {"the", "dog"}, {"runs"}}
var tinyTags = [][]string{{"D", "N", "V"}, {"D", "N"}, {"N", "V"}, {"D", "N"}, {"V"}}

func tinyTokenModel(t testing.TB) *Model {
	tp, err := ParseTemplates(DefaultTemplates)
	if err != nil {
		t.Fatal(err)
	}
	tp.Buckets = 64
	cfg := DefaultConfig()
	cfg.MaxIter = 3
	m, err := FitTokens(tinySentences, tinyTags, tp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestModelFileRoundTrip checks that a model read from its file tags,
// scores and warns as the fitted one, bit for bit.
func TestModelFileRoundTrip(t *testing.T) {
	m := tinyTokenModel(t)
	var buf bytes.Buffer
	if err := modelfile.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	gm, err := registry.Read(&buf, "crf.json")
	if err != nil {
		t.Fatal(err)
	}
	m2 := gm.(*Model)
	if _, ok := gm.(gendisc.Warner); !ok || !slices.Equal(m2.Warnings(), m.Warnings()) || len(m.Warnings()) != 1 {
		t.Errorf("warnings %q, want %q", m2.Warnings(), m.Warnings())
	}
	for i, s := range tinySentences {
		items := m.Templates().Items(s)
		tags, err := m2.TagTokens(s)
		if err != nil || !slices.Equal(tags, m.Tag(items)) {
			t.Errorf("tags %q, %v; want %q", tags, err, m.Tag(items))
		}
		if !slices.Equal(m2.Marginals(items), m.Marginals(items)) {
			t.Errorf("other marginals")
		}
		lp1, _ := m.LogProb(Sequence{Items: items, Labels: tinyTags[i]})
		lp2, _ := m2.LogProb(Sequence{Items: items, Labels: tinyTags[i]})
		if lp1 != lp2 {
			t.Errorf("log p %v, want %v", lp2, lp1)
		}
	}
}

// TestVocabulary checks that a model fitted on words knows them, keeps
// them in its file, and that a file without them (written before models
// kept them) loads without a vocabulary.
func TestVocabulary(t *testing.T) {
	m := tinyTokenModel(t)
	if !m.HasVocabulary() || !m.Known("dogs") || m.Known("Dogs") || m.Known("cats") {
		t.Errorf("vocabulary %v", m.words())
	}
	params, _ := m.MarshalJSON()
	var j map[string]any
	if err := json.Unmarshal(params, &j); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(j["vocabulary"]); got != "[a cat dog dogs run runs the]" {
		t.Errorf("vocabulary in the file %s", got)
	}
	m2, err := UnmarshalModel(m.Schema(), params)
	if err != nil || !m2.HasVocabulary() || !slices.Equal(m2.words(), m.words()) {
		t.Errorf("read back: %v, %v", m2.words(), err)
	}
	delete(j, "vocabulary")
	old, _ := json.Marshal(j)
	m3, err := UnmarshalModel(m.Schema(), old)
	if err != nil || m3.HasVocabulary() || m3.Known("dog") {
		t.Errorf("a file without a vocabulary: %v, has one %v", err, m3.HasVocabulary())
	}
	onItems, err := Fit(tinySeqs(), DefaultConfig())
	if err != nil || onItems.HasVocabulary() {
		t.Errorf("a model of items has a vocabulary (%v)", err)
	}
}

// TestUnmarshalRefuses checks a refusal for each invalid field.
func TestUnmarshalRefuses(t *testing.T) {
	m := tinyTokenModel(t)
	params, _ := m.MarshalJSON()
	for _, c := range []struct {
		edit func(j map[string]any)
		want string
	}{
		{func(j map[string]any) { j["templates"] = "word,lemma" }, `unknown name "lemma"`},
		{func(j map[string]any) { j["buckets"] = -1 }, "buckets -1"},
		{func(j map[string]any) { j["labels"] = []string{"D", "D", "V"} }, `label "D" twice`},
		{func(j map[string]any) { j["labels"] = []string{"D", "X", "V"} }, "levels are the labels"},
		{func(j map[string]any) { j["attributes"] = j["attributes"].([]any)[1:] }, "attributes"},
		{func(j map[string]any) { j["states"].([]any)[0] = []int{2, 1}; j["weights"].([]any)[0] = []int{0, 0} }, "not ascending"},
		{func(j map[string]any) { j["states"].([]any)[0] = []int{0, 3}; j["weights"].([]any)[0] = []int{0, 0} }, "not ascending ids below 3"},
		{func(j map[string]any) { j["weights"].([]any)[0] = []float64{1} }, "labels and 1 weights"},
		{func(j map[string]any) { j["weights"].([]any)[0].([]any)[0] = 1e300 }, "want a magnitude ≤ 1e+10"},
		{func(j map[string]any) { j["transitions"] = []float64{1, 2} }, "2 transition weights for 3 labels"},
		{func(j map[string]any) { j["iterations"] = -2 }, "iterations -2"},
		{func(j map[string]any) { j["warnings"] = []string{"a\nb"} }, "more than one line"},
		{func(j map[string]any) { j["vocabulary"] = []string{"the", "dog"} }, `vocabulary: "the" before "dog"`},
		{func(j map[string]any) { j["vocabulary"] = []string{"a", "a"} }, `vocabulary: "a" before "a"`},
		{func(j map[string]any) { delete(j, "templates"); delete(j, "buckets") }, "a vocabulary without templates"},
	} {
		var j map[string]any
		if err := json.Unmarshal(params, &j); err != nil {
			t.Fatal(err)
		}
		c.edit(j)
		b, _ := json.Marshal(j)
		if _, err := UnmarshalModel(m.Schema(), b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// FuzzCRFFile is the fuzz test of CRF model files (package modelfuzz): a
// changed file is refused with one line or gives a model whose marginals
// sum to one and whose tags are its labels. Under go test it runs over
// its seeds; longer:
//
//	go test -run '^$' -fuzz FuzzCRFFile -fuzztime 60s ./crf
func FuzzCRFFile(f *testing.F) {
	m := tinyTokenModel(f)
	rows := &data.Dataset{Schema: m.Schema(), N: len(tinySentences), Text: [][]string{make([]string, len(tinySentences))}}
	for i, s := range tinySentences {
		rows.Text[0][i] = strings.Join(s, " ")
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: rows, Calls: func(t *testing.T, gm gendisc.Model, rows *data.Dataset) {
		m := gm.(*Model)
		labels := m.Labels()
		for _, text := range rows.Text[0] {
			tokens := strings.Fields(text)
			items := tokens2items(m, tokens)
			for _, tag := range m.Tag(items) {
				if !slices.Contains(labels, tag) {
					t.Fatalf("tag %q not a label", tag)
				}
			}
			marg := m.Marginals(items)
			for i := range tokens {
				sum := 0.0
				for _, p := range marg[i*len(labels) : (i+1)*len(labels)] {
					sum += p
				}
				if math.Abs(sum-1) > modelfuzz.SumTol {
					t.Fatalf("marginals sum to %v", sum)
				}
			}
		}
	}})
}

func tokens2items(m *Model, tokens []string) []Item {
	if m.Templates() == nil {
		items := make([]Item, len(tokens))
		for i, tok := range tokens {
			items[i] = Item{{Name: tok, Value: 1}}
		}
		return items
	}
	return m.Templates().Items(tokens)
}
