package seqio

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// TestCRFsuiteRoundTrip checks that WriteCRFsuite and Read give back the
// sentences, with escaped colons and backslashes, non-unit values, a
// token without attributes and an untagged sentence, and the lines
// written.
func TestCRFsuiteRoundTrip(t *testing.T) {
	sentences := []seq.Sentence{
		{Line: 1, Tags: []string{"DET", "NOUN"}, Attributes: [][]seq.Attribute{{{Name: "w=the", Value: 1}, {Name: "bias", Value: 1}}, {{Name: "w=dog", Value: 1}, {Name: "suffix", Value: 0.5}}}},
		{Line: 4, Tags: []string{"L:1", "X"}, Attributes: [][]seq.Attribute{{{Name: `a:b`, Value: 1}, {Name: `c\d`, Value: -0.25}, {Name: `x\:y:`, Value: 1e-300}}, {}}},
		{Line: 7, Attributes: [][]seq.Attribute{{{Name: "w=a", Value: 2}}}},
	}
	var buf bytes.Buffer
	if err := WriteCRFsuite(&buf, sentences); err != nil {
		t.Fatal(err)
	}
	want := "DET\tw=the\tbias\nNOUN\tw=dog\tsuffix:0.5\n\n" +
		"L:1\ta\\:b\tc\\\\d:-0.25\tx\\\\\\:y\\::1e-300\nX\n\n" +
		"\tw=a:2\n\n"
	if buf.String() != want {
		t.Errorf("written\n%q\nwant\n%q", buf.String(), want)
	}
	c, err := Read(&buf, "x.crfsuite", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.GivenAttributes() || !reflect.DeepEqual(c.Sentences, sentences) {
		t.Errorf("read back\n%+v\nwant\n%+v", c.Sentences, sentences)
	}
}

// TestReadCRFsuiteBlankLines checks that runs of blank lines (and lines
// of spaces, and CRLF line ends) end one sentence, without empty ones.
func TestReadCRFsuiteBlankLines(t *testing.T) {
	c, err := Read(strings.NewReader("\n\nA\ta\r\n\r\n  \n\nB\tb\n\n\n"), "x", Options{Format: CRFsuite})
	if err != nil {
		t.Fatal(err)
	}
	want := []seq.Sentence{
		{Line: 3, Tags: []string{"A"}, Attributes: [][]seq.Attribute{{{Name: "a", Value: 1}}}},
		{Line: 7, Tags: []string{"B"}, Attributes: [][]seq.Attribute{{{Name: "b", Value: 1}}}},
	}
	if !reflect.DeepEqual(c.Sentences, want) {
		t.Errorf("got %+v, want %+v", c.Sentences, want)
	}
}

// TestReadCRFsuiteErrors checks the positioned errors of malformed lines.
func TestReadCRFsuiteErrors(t *testing.T) {
	for input, want := range map[string]string{
		"N\tw=a\tbias:1x\n":   `f.crfsuite:1:3: malformed attribute "bias:1x": the value "1x" is not a finite number`,
		"N\ta\n\nV\tb:NaN\n":  `f.crfsuite:3:2: malformed attribute "b:NaN": the value "NaN" is not a finite number`,
		"N\ta\tb:\n":          `f.crfsuite:1:3: malformed attribute "b:": the value "" is not a finite number`,
		"N\t:2\n":             `f.crfsuite:1:2: malformed attribute ":2": an empty name`,
		"N\ta\\b\n":           `f.crfsuite:1:2: malformed attribute "a\\b": a backslash not followed by ':' or '\'`,
		"N\ta\nV\tb:1e999\n":  `f.crfsuite:2:2: malformed attribute "b:1e999"`,
		"N\ta\n\tb\n":         `f.crfsuite:2:1: empty label: a sentence's tokens are labelled all or none (line 1 has one)`,
		"\ta\nN\tb\n":         `f.crfsuite:2:1: empty label: a sentence's tokens are labelled all or none (line 1 has none)`,
		"N\ta\n\x80\tb\n":     `f.crfsuite:2: not valid UTF-8`,
		"N\ta\tb:1:2\n\n\n\n": `f.crfsuite:1:3: malformed attribute "b:1:2"`,
	} {
		_, err := Read(strings.NewReader(input), "f.crfsuite", Options{})
		var pe *data.ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", input, err, want)
		}
	}
}

// TestWriteCRFsuiteErrors checks that what cannot be read back the same
// is refused.
func TestWriteCRFsuiteErrors(t *testing.T) {
	for _, tc := range []struct {
		s    seq.Sentence
		want string
	}{
		{seq.Sentence{Tokens: []string{"a"}}, "sentence 1: no tokens given as attributes"},
		{seq.Sentence{Tags: []string{" "}, Attributes: [][]seq.Attribute{{{Name: "a", Value: 1}}}}, `token 1: the tag " " is blank`},
		{seq.Sentence{Tags: []string{"A\tB"}, Attributes: [][]seq.Attribute{{{Name: "a", Value: 1}}}}, "has a tab"},
		{seq.Sentence{Attributes: [][]seq.Attribute{{}}}, "an untagged token without attributes"},
		{seq.Sentence{Attributes: [][]seq.Attribute{{{Name: "", Value: 1}}}}, `the attribute name "" is empty`},
		{seq.Sentence{Attributes: [][]seq.Attribute{{{Name: "a\nb", Value: 1}}}}, "line break"},
		{seq.Sentence{Tags: []string{"A"}, Attributes: [][]seq.Attribute{{{Name: "a", Value: 1}}, {{Name: "b", Value: 1}}}}, "1 tags for 2 tokens"},
	} {
		if err := WriteCRFsuite(&bytes.Buffer{}, []seq.Sentence{tc.s}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.s, err, tc.want)
		}
	}
}

// FuzzReadCRFsuite checks that Read refuses CRFsuite's format with one
// positioned line or reads sentences that WriteCRFsuite writes and Read
// reads back the same. Longer:
//
//	go test -run '^$' -fuzz FuzzReadCRFsuite -fuzztime 60s ./seqio
func FuzzReadCRFsuite(f *testing.F) {
	f.Add("N\tw=a\tbias\nV\tb:0.5\n\nD\ta\\:b\\\\c:-2\n")
	f.Add("N\tx:1e999\n")
	f.Add("\n\n\tonly\n")
	f.Fuzz(func(t *testing.T, in string) {
		fuzzRead(t, in, Options{Format: CRFsuite})
		c, err := Read(strings.NewReader(in), "f", Options{Format: CRFsuite})
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteCRFsuite(&buf, c.Sentences); err != nil {
			return // a label of spaces, or an untagged token without attributes, is read but not written
		}
		again, err := Read(&buf, "again", Options{Format: CRFsuite})
		if err != nil {
			t.Fatalf("%v reading back\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(withoutLines(again.Sentences), withoutLines(c.Sentences)) {
			t.Fatalf("read back %+v, want %+v", again.Sentences, c.Sentences)
		}
	})
}

// withoutLines returns the sentences with their Line zeroed, which
// blank lines of the input shift.
func withoutLines(s []seq.Sentence) []seq.Sentence {
	out := make([]seq.Sentence, len(s))
	for i := range s {
		out[i] = s[i]
		out[i].Line = 0
	}
	return out
}
