package seqio

import (
	"bytes"
	"strings"
	"testing"
)

// retag runs Retag on in with tags and returns what it writes.
func retag(t *testing.T, in, source string, opt Options, tags [][]string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Retag(&b, strings.NewReader(in), source, opt, tags); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRetagCoNLLU checks that the field of --tags is replaced on word
// lines only, comments, multiword tokens and empty nodes untouched, and
// that the tags read back.
func TestRetagCoNLLU(t *testing.T) {
	tags := [][]string{{"A", "B", "C", "D"}, {"E"}}
	got := retag(t, conlluSample, "s.conllu", Options{Tags: "xpos"}, tags)
	want := strings.NewReplacer("PRP\t", "A\t", "VBP\t", "B\t", "RB\t", "C\t", "ADV\t.\t", "ADV\tD\t", "PUNCT\t.\t", "PUNCT\tD\t", "UH\t", "E\t").Replace(conlluSample)
	if got != want {
		t.Errorf("xpos:\n%s\nwant\n%s", got, want)
	}
	got = retag(t, conlluSample, "s.conllu", Options{Tags: "misc:NE"}, tags)
	for _, line := range []string{"1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\tNE=A\n", "3\there\there\tADV\tRB\t_\t0\troot\t_\tNE=C|SpaceAfter=No\n",
		"4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\tNE=D\n", "1-2\tI'm\t_\t_\t_\t_\t_\t_\t_\t_\n", "3.1\tx\tx\tX\tX\t_\t_\t_\t2:dep\t_\n", "# sent_id = s1\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("misc:NE: %q missing from\n%s", line, got)
		}
	}
	c, err := Read(strings.NewReader(got), "s.conllu", Options{Tags: "misc:NE"})
	if err != nil || strings.Join(c.Sentences[0].Tags, " ") != "A B C D" || c.Sentences[1].Tags[0] != "E" {
		t.Errorf("read back %+v, %v", c, err)
	}
}

// TestRetagColumnsJSONLinesCRFsuite checks the tag column replaced or
// appended, the JSON member "tags" set or added, CRFsuite's label
// replaced, and the lines without tokens as they were.
func TestRetagColumnsJSONLinesCRFsuite(t *testing.T) {
	for _, tc := range []struct {
		in, source string
		opt        Options
		tags       [][]string
		want       string
	}{
		{"-DOCSTART- O\n\nEU NNP B-ORG\nrejects\tVBZ\tO\n\nPeter NNP B-PER\n", "x.conll", Options{}, [][]string{{"X", "Y"}, {"Z"}},
			"-DOCSTART- O\n\nEU NNP X\nrejects\tVBZ\tY\n\nPeter NNP Z\n"},
		{"EU NNP B-ORG\n", "x.conll", Options{TagColumn: 2}, [][]string{{"X"}}, "EU X B-ORG\n"},
		{"EU\nrejects\n\n\nPeter\n", "x.conll", Options{}, [][]string{{"X", "Y"}, {"Z"}}, "EU X\nrejects Y\n\n\nPeter Z\n"},
		{`{"id": "a", "tokens": ["EU", "rejects"], "tags": ["P", "Q"], "x": [1, 2]}` + "\n\n" + `{"tokens":["Peter"]}` + "\n", "x.jsonl", Options{},
			[][]string{{"X", "Y"}, {"<Z>"}}, `{"id":"a","tags":["X","Y"],"tokens":["EU","rejects"],"x":[1,2]}` + "\n\n" + `{"tags":["\u003cZ\u003e"],"tokens":["Peter"]}` + "\n"},
		{"N\tw=a\tb:2\nV\n\n\tw=c\n", "x.crfsuite", Options{}, [][]string{{"X", "Y"}, {"Z"}}, "X\tw=a\tb:2\nY\n\nZ\tw=c\n"},
	} {
		if got := retag(t, tc.in, tc.source, tc.opt, tc.tags); got != tc.want {
			t.Errorf("%s %q:\n%q\nwant\n%q", tc.source, tc.in, got, tc.want)
		}
	}
}

// TestRetagMismatch checks that tags that are not one per token are
// refused with the sentence named.
func TestRetagMismatch(t *testing.T) {
	for _, tc := range []struct {
		in, source string
		tags       [][]string
		want       string
	}{
		{"a X\nb Y\n", "x.conll", [][]string{{"A"}}, "x.conll:2: sentence 1: more tokens than tags"},
		{"a X\n\nb Y\n", "x.conll", [][]string{{"A", "B"}, {"C"}}, "x.conll: sentence 1: 1 tokens, 2 tags"},
		{"a X\n", "x.conll", [][]string{{"A"}, {"B"}}, "x.conll: 1 sentences, 2 tag sequences"},
		{`{"tokens": ["a"]}`, "x.jsonl", [][]string{{"A", "B"}}, "x.jsonl:1: sentence 1: tags not one per token"},
		{"N\ta\n\nV\tb\n", "x.crfsuite", [][]string{{"A"}}, "x.crfsuite:3: sentence 2: more tokens than tags"},
	} {
		err := Retag(&bytes.Buffer{}, strings.NewReader(tc.in), tc.source, Options{}, tc.tags)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// FuzzRetag checks that data that Read reads, retagged with new tags,
// reads back with those tags and the same tokens. Longer:
//
//	go test -run '^$' -fuzz FuzzRetag -fuzztime 60s ./seqio
func FuzzRetag(f *testing.F) {
	f.Add(conlluSample, uint8(CoNLLU), "misc:NE")
	f.Add("-DOCSTART- O\n\nEU B-ORG\nrejects O\n", uint8(Columns), "")
	f.Add("a\nb\n\nc\n", uint8(Columns), "")
	f.Add(`{"tokens": ["a"], "tags": ["X"]}`+"\n"+`{"tokens": ["b"]}`, uint8(JSONLines), "")
	f.Add("N\tw=a\tbias\nV\tb:0.5\n\n\ta\\:b\n", uint8(CRFsuite), "")
	f.Fuzz(func(t *testing.T, in string, format uint8, tags string) {
		opt := Options{Format: Format(format%4 + 1), Tags: tags}
		c, err := Read(strings.NewReader(in), "f", opt)
		if err != nil {
			return
		}
		newTags := make([][]string, len(c.Sentences))
		for i, s := range c.Sentences {
			for j := range s.Len() {
				newTags[i] = append(newTags[i], "T"+string(rune('a'+(i+j)%26)))
			}
		}
		var b bytes.Buffer
		if err := Retag(&b, strings.NewReader(in), "f", opt, newTags); err != nil {
			t.Fatalf("Retag: %v", err)
		}
		again, err := Read(&b, "f", opt)
		if err != nil {
			t.Fatalf("%v reading back\n%s", err, b.String())
		}
		if len(again.Sentences) != len(c.Sentences) {
			t.Fatalf("%d sentences read back, want %d", len(again.Sentences), len(c.Sentences))
		}
		for i, s := range again.Sentences {
			if strings.Join(s.Tags, " ") != strings.Join(newTags[i], " ") || strings.Join(s.Tokens, " ") != strings.Join(c.Sentences[i].Tokens, " ") || s.Len() != c.Sentences[i].Len() {
				t.Fatalf("sentence %d read back %+v, want tags %q", i+1, s, newTags[i])
			}
		}
	})
}
