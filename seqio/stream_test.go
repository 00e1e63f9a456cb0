package seqio

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/seq"
)

// collect returns the sentences and the error of Sentences.
func collect(in, source string, opt Options) ([]seq.Sentence, error) {
	var out []seq.Sentence
	for s, err := range Sentences(strings.NewReader(in), source, opt) {
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, nil
}

// TestSentencesEqualRead checks that Sentences gives the sentences that
// Read gives, in every format, and the error after the sentences before
// it.
func TestSentencesEqualRead(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"s.conllu", conlluSample},
		{"x.conll", "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\nrejects VBZ B-VP O\n\n\nPeter NNP B-NP B-PER\n"},
		{"u.conll", "the\ndog\n\ncat\n"},
		{"x.jsonl", `{"id": "a", "tokens": ["x", "y"], "tags": ["A", "B"]}` + "\n\n" + `{"tokens": ["z"]}` + "\n"},
	} {
		c, err := Read(strings.NewReader(tc.in), tc.name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := collect(tc.in, tc.name, Options{})
		if err != nil || !reflect.DeepEqual(got, c.Sentences) {
			t.Errorf("%s: Sentences %+v, %v; Read %+v", tc.name, got, err, c.Sentences)
		}
	}
	got, err := collect("a X\n\nb\tY\tZ\n\nc\n", "f.conll", Options{TagColumn: 2})
	if len(got) != 2 || err == nil || err.Error() != "f.conll:5:2: tag column out of range: tag column 2 of a line of 1 fields (the word is column 1)" {
		t.Errorf("a bad third sentence: %d sentences, error %v", len(got), err)
	}
	n := 0
	for range Sentences(strings.NewReader(conlluSample), "s.conllu", Options{}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("a loop that breaks at once ran %d times", n)
	}
}

// TestSentenceLimit checks that a sentence longer than
// Options.Limits.MaxRecord bytes is refused at the line that passes the
// limit, in every format, and that shorter ones are read.
func TestSentenceLimit(t *testing.T) {
	word := func(i int) string { return fmt.Sprintf("%d\tw\t_\tX\t_\t_\t_\t_\t_\t_\n", i) }
	var long strings.Builder
	for i := 1; i <= 10; i++ {
		long.WriteString(word(i))
	}
	if long.Len() != 201 {
		t.Fatalf("a sentence of %d bytes", long.Len())
	}
	conllu := word(1) + "\n" + long.String() + "\n" + word(1)
	lim := func(n int) Options { return Options{Limits: dataio.Limits{MaxRecord: n}} }
	if got, err := collect(conllu, "f.conllu", lim(201)); err != nil || len(got) != 3 {
		t.Errorf("sentences of 201 bytes at most, limit 201: %d sentences, %v", len(got), err)
	}
	for _, tc := range []struct {
		name, in string
		limit    int
		want     string
	}{
		{"f.conllu", conllu, 200, "f.conllu:12: record too long: a sentence of more than 200 B (raise Limits.MaxRecord)"},
		{"f.conll", "a X\n\nb X\nc X\nd X\n", 11, "f.conll:5: record too long: a sentence of more than 11 B (raise Limits.MaxRecord)"},
		{"f.jsonl", `{"tokens": ["a"]}` + "\n" + `{"tokens": ["ab"]}` + "\n", 18, "f.jsonl:2: record too long: a sentence of more than 18 B (raise Limits.MaxRecord)"},
	} {
		got, err := collect(tc.in, tc.name, lim(tc.limit))
		if err == nil || err.Error() != tc.want || !errors.Is(err, dataio.ErrTooLong) {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
		if _, err := collect(tc.in, tc.name, lim(tc.limit+1)); err != nil {
			t.Errorf("%s, limit %d: %v", tc.name, tc.limit+1, err)
		}
		if len(got) != 1 {
			t.Errorf("%s: %d sentences before the error, want 1", tc.name, len(got))
		}
	}
}

// TestFeed checks that Feed gives every sentence once, in order, in
// batches, and names a refused sentence by its line and number in the
// file.
func TestFeed(t *testing.T) {
	var in strings.Builder
	const n = 3000
	for i := range n {
		fmt.Fprintf(&in, "w%d X\nv Y\n", i)
		if i == 2500 {
			in.WriteString("bad Z\n")
		}
		in.WriteString("\n")
	}
	var got []seq.Sentence
	batches := 0
	add := func(b []seq.Sentence) error {
		batches++
		got = append(got, b...)
		return nil
	}
	sentences, tokens, err := Feed(strings.NewReader(in.String()), "f.conll", Options{}, 0, add)
	if err != nil || sentences != n || tokens != 2*n+1 || len(got) != n || got[n-1].Tokens[0] != fmt.Sprint("w", n-1) || batches != 1 {
		t.Errorf("Feed: %d sentences, %d tokens, %d got in %d batches, %v", sentences, tokens, len(got), batches, err)
	}
	// A refusal: nothing of the batch added, as an accumulator does.
	refuse := func(b []seq.Sentence) error {
		for i, s := range b {
			if len(s.Tokens) == 3 {
				return fmt.Errorf("sentence %d (line %d): %w", i+1, s.Line, errors.ErrUnsupported)
			}
		}
		got = append(got, b...)
		return nil
	}
	for _, batchTokens := range []int{0, 7} { // the sentence in the first batch, in the 358th
		got = nil
		_, _, err = Feed(strings.NewReader(in.String()), "f.conll", Options{}, batchTokens, refuse)
		if want := "f.conll:7501: sentence 2501: unsupported operation"; err == nil || err.Error() != want || !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("batches of %d tokens: a refused sentence: %v, want %s", batchTokens, err, want)
		}
		if len(got) != 2500 {
			t.Errorf("batches of %d tokens: %d sentences added before the refused one, want 2500", batchTokens, len(got))
		}
	}
}

// TestFeedBatches checks that Feed gives batches of about BatchTokens
// tokens.
func TestFeedBatches(t *testing.T) {
	sentence := strings.Repeat("a X\n", 100) + "\n"
	in := strings.Repeat(sentence, 2*BatchTokens/100+1)
	var sizes []int
	_, tokens, err := Feed(strings.NewReader(in), "f.conll", Options{}, -1, func(b []seq.Sentence) error {
		sizes = append(sizes, len(b))
		return nil
	})
	first := (BatchTokens + 99) / 100 // the sentences of 100 tokens that reach BatchTokens
	want := []int{first, 2*BatchTokens/100 + 1 - first}
	if err != nil || tokens != 100*(2*BatchTokens/100+1) || !reflect.DeepEqual(sizes, want) {
		t.Errorf("batches of %v sentences, %d tokens, %v; want %v", sizes, tokens, err, want)
	}
}
