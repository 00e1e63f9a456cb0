package seqio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

const conlluSample = `# sent_id = s1
# text = I'm here.
1-2	I'm	_	_	_	_	_	_	_	_
1	I	I	PRON	PRP	_	3	nsubj	_	_
2	'm	be	AUX	VBP	_	3	cop	_	_
3	here	here	ADV	RB	_	0	root	_	NE=O|SpaceAfter=No
3.1	x	x	X	X	_	_	_	2:dep	_
4	.	.	PUNCT	.	_	3	punct	_	NE=B-X

1	Hi	hi	INTJ	UH	_	0	root	_	_
`

func TestReadCoNLLU(t *testing.T) {
	for _, tc := range []struct {
		tags string
		want [][]string
	}{
		{"", [][]string{{"PRON", "AUX", "ADV", "PUNCT"}, {"INTJ"}}},
		{"xpos", [][]string{{"PRP", "VBP", "RB", "."}, {"UH"}}},
		{"deprel", [][]string{{"nsubj", "cop", "root", "punct"}, {"root"}}},
		{"misc:NE", [][]string{{"_", "_", "O", "B-X"}, {"_"}}},
	} {
		c, err := Read(strings.NewReader(conlluSample), "s.conllu", Options{Tags: tc.tags})
		if err != nil {
			t.Fatal(err)
		}
		want := []seq.Sentence{
			{ID: "s1", Line: 4, Tokens: []string{"I", "'m", "here", "."}, Tags: tc.want[0]},
			{Line: 10, Tokens: []string{"Hi"}, Tags: tc.want[1]},
		}
		if !reflect.DeepEqual(c.Sentences, want) {
			t.Errorf("tags %q: got %+v, want %+v", tc.tags, c.Sentences, want)
		}
	}
}

// TestReadCoNLLUUnspecified checks that a sentence whose chosen tag
// field is "_" on every word (a treebank without XPOS) is untagged, and
// that MISC's "_" (no KEY=) stays a tag.
func TestReadCoNLLUUnspecified(t *testing.T) {
	noXPOS := strings.ReplaceAll(conlluSample, "\tPRP\t", "\t_\t")
	for _, x := range []string{"VBP", "RB", ".", "UH"} {
		noXPOS = strings.ReplaceAll(noXPOS, "\t"+x+"\t", "\t_\t")
	}
	c, err := Read(strings.NewReader(noXPOS), "s.conllu", Options{Tags: "xpos"})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.Sentences {
		if s.Tagged() {
			t.Errorf("sentence %d: tags %q, want none (every XPOS is _)", i+1, s.Tags)
		}
	}
	c, err = Read(strings.NewReader(noXPOS), "s.conllu", Options{Tags: "upos"})
	if err != nil || !c.Sentences[1].Tagged() {
		t.Errorf("upos of the same file: %v, %+v", err, c)
	}
}

func TestReadColumns(t *testing.T) {
	in := "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n\n\nPeter NNP B-NP B-PER\n"
	c, err := Read(strings.NewReader(in), "x.conll", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []seq.Sentence{
		{Line: 3, Tokens: []string{"EU", "rejects"}, Tags: []string{"B-ORG", "O"}},
		{Line: 7, Tokens: []string{"Peter"}, Tags: []string{"B-PER"}},
	}
	if !reflect.DeepEqual(c.Sentences, want) {
		t.Errorf("got %+v, want %+v", c.Sentences, want)
	}
	c, err = Read(strings.NewReader(in), "x.conll", Options{TagColumn: 3})
	if err != nil || c.Sentences[0].Tags[0] != "B-NP" {
		t.Errorf("tag column 3: %v, %+v", err, c)
	}
	c, err = Read(strings.NewReader("a\nb\n\nc\n"), "x.txt", Options{})
	if err != nil || len(c.Sentences) != 2 || c.Sentences[0].Tagged() {
		t.Errorf("untagged: %v, %+v", err, c)
	}
}

func TestReadJSONLines(t *testing.T) {
	in := `{"id": "a", "tokens": ["the", "dog"], "tags": ["DET", "NOUN"]}` + "\n\n" + `{"tokens": ["barks"]}` + "\n"
	c, err := Read(strings.NewReader(in), "stdin", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []seq.Sentence{
		{ID: "a", Line: 1, Tokens: []string{"the", "dog"}, Tags: []string{"DET", "NOUN"}},
		{Line: 3, Tokens: []string{"barks"}},
	}
	if !reflect.DeepEqual(c.Sentences, want) {
		t.Errorf("got %+v, want %+v", c.Sentences, want)
	}
}

func TestReadCompressed(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(conlluSample))
	zw.Close()
	c, err := Read(&buf, "s.conllu.gz", Options{})
	if err != nil || len(c.Sentences) != 2 || c.Tokens() != 5 {
		t.Fatalf("%v, %+v", err, c)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, head string
		want       Format
	}{
		{"a.conllu.gz", "", CoNLLU},
		{"a.CONLL", "", Columns},
		{"a.jsonl.zst", "", JSONLines},
		{"stdin", "  {\"tokens\": []}", JSONLines},
		{"stdin", "# c\n1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n", CoNLLU},
		{"stdin", "a DT\n", Columns},
	} {
		if got := Detect(tc.name, []byte(tc.head)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %v, want %v", tc.name, tc.head, got, tc.want)
		}
	}
}

// TestReadErrors checks that bad input gets one positioned line.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      Options
		want     string
		is       error
	}{
		{"f.conllu", "1\ta\t_\tX\n", Options{}, "f.conllu:1:5: wrong number of fields: 4, a CoNLL-U line has 10 tab-separated fields", data.ErrFieldCount},
		{"f.conllu", "1\ta\t_\tX\t_\t_\t_\t_\t_\t_\t_\t_\n", Options{}, "f.conllu:1:11: wrong number of fields: 12, a CoNLL-U line has 10 tab-separated fields", data.ErrFieldCount},
		{"f.conllu", "+1\ta\t_\tX\t_\t_\t_\t_\t_\t_\n", Options{}, `f.conllu:1:1: bad word ID "+1": word 1 of the sentence expected`, ErrWordID},
		{"f.conllu", "# sent_id = 1\n\n", Options{}, "f.conllu:2: sentence without tokens", ErrNoTokens},
		{"f.conllu", "2\ta\t_\tX\t_\t_\t_\t_\t_\t_\n", Options{}, `f.conllu:1:1: bad word ID "2": word 1 of the sentence expected`, ErrWordID},
		{"f.conll", "a B C\nb D\n", Options{TagColumn: 3}, "f.conll:2:3: tag column out of range: tag column 3 of a line of 2 fields (the word is column 1)", ErrTagColumn},
		{"f.conll", "a\nb X\n", Options{}, "f.conll:2:2: tag column out of range: earlier lines have no tag column", ErrTagColumn},
		{"f.conllu", "1\ta\t_\tX\t_\t_\t_\t_\t_\t_\n2\tb\t_\t_\t_\t_\t_\t_\t_\t_\n", Options{}, "f.conllu:2:4: unspecified tag: UPOS is _ here, and given for other words of the sentence", ErrUnspecifiedTag},
		{"f.jsonl", `{"tokens": []}`, Options{}, "f.jsonl:1: sentence without tokens", ErrNoTokens},
		{"f.jsonl", `{"tokens": ["a"], "tags": []}`, Options{}, "f.jsonl:1: number of tags differs from the number of tokens: 0 tags, 1 tokens", ErrTagCount},
		{"f.jsonl", "\n{\"tokens\": [1]}", Options{}, "f.jsonl:2:13: json: cannot unmarshal number into Go struct field jsonSentence.tokens of type string", nil},
		{"f.jsonl", "{\"tokens\": [\"\xff\"]}", Options{}, "f.jsonl:1: not valid UTF-8", data.ErrEncoding},
	} {
		_, err := Read(strings.NewReader(tc.in), tc.name, tc.opt)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %q: error %v, want %s", tc.name, tc.in, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s %q: %v is not %v", tc.name, tc.in, err, tc.is)
		}
	}
	if _, err := Read(strings.NewReader(""), "f", Options{Tags: "lemma"}); !errors.Is(err, ErrTagField) {
		t.Errorf("tags lemma: %v", err)
	}
}

// TestReadLongLines reads lines longer than the line reader's buffer, in
// every format that reads lines, and refuses one longer than MaxLine at
// its line.
func TestReadLongLines(t *testing.T) {
	long := strings.Repeat("w", 200<<10)
	for _, tc := range []struct{ name, text string }{
		{"s.conllu", "# sent_id = a\n1\t" + long + "\t_\tX\t_\t_\t_\t_\t_\t_\n2\tb\t_\tY\t_\t_\t_\t_\t_\t_\n\n1\tc\t_\tX\t_\t_\t_\t_\t_\t_\n"},
		{"s.conll", long + " X\nb Y\n\nc X\n"},
		{"s.jsonl", `{"tokens": ["` + long + `", "b"], "tags": ["X", "Y"]}` + "\n" + `{"tokens": ["c"], "tags": ["X"]}` + "\n"},
	} {
		c, err := Read(strings.NewReader(tc.text), tc.name, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := []seq.Sentence{{Tokens: []string{long, "b"}, Tags: []string{"X", "Y"}}, {Tokens: []string{"c"}, Tags: []string{"X"}}}
		if len(c.Sentences) != 2 {
			t.Fatalf("%s: %d sentences, want 2", tc.name, len(c.Sentences))
		}
		for i, s := range c.Sentences {
			if !reflect.DeepEqual(s.Tokens, want[i].Tokens) || !reflect.DeepEqual(s.Tags, want[i].Tags) {
				t.Errorf("%s: sentence %d is %.40q %q, want %.40q %q", tc.name, i+1, s.Tokens, s.Tags, want[i].Tokens, want[i].Tags)
			}
		}
	}
	tooLong := "a X\n" + strings.Repeat("w", MaxLine) + " X\n"
	_, err := Read(strings.NewReader(tooLong), "s.conll", Options{})
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrLineLength) || pe.Line != 2 {
		t.Errorf("a line of %d bytes: %v, want ErrLineLength at line 2", MaxLine+3, err)
	}
}
