package seqio

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gendisc/gendisc/data"
)

// fuzzRead reads in as format and checks that an error is one positioned
// line, that the sentences read are well formed, and that data read
// without an error is valid UTF-8.
func fuzzRead(t *testing.T, in string, opt Options) {
	c, err := Read(strings.NewReader(in), "fuzz", opt)
	if err == nil && !utf8.ValidString(in) {
		t.Fatalf("%q is not valid UTF-8, and was read without an error", in)
	}
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("the error is not one line: %q", err)
		}
		if pe := (*data.ParseError)(nil); errors.As(err, &pe) && pe.Line < 1 {
			t.Fatalf("the error has no line: %v", err)
		}
		return
	}
	for _, s := range c.Sentences {
		if s.Len() == 0 || (s.Tags != nil && len(s.Tags) != s.Len()) || s.Line < 1 || (s.Attributes != nil) != (opt.Format == CRFsuite) {
			t.Fatalf("sentence %+v", s)
		}
	}
}

// go test -fuzz FuzzReadCoNLLU -fuzztime 60s ./seqio
func FuzzReadCoNLLU(f *testing.F) {
	f.Add(conlluSample, "misc:NE")
	f.Add("1\ta\n", "")
	f.Add("# sent_id = x\n\n1\ta\t_\tX\t_\t_\t_\t_\t_\t_", "xpos")
	f.Fuzz(func(t *testing.T, in, tags string) { fuzzRead(t, in, Options{Format: CoNLLU, Tags: tags}) })
}

// go test -fuzz FuzzReadColumns -fuzztime 60s ./seqio
func FuzzReadColumns(f *testing.F) {
	f.Add("-DOCSTART- O\n\nEU B-ORG\nrejects O\n", 0)
	f.Add("a\nb\n\nc x y\n", 3)
	f.Fuzz(func(t *testing.T, in string, column int) {
		fuzzRead(t, in, Options{Format: Columns, TagColumn: column})
	})
}

// go test -fuzz FuzzReadJSONLines -fuzztime 60s ./seqio
func FuzzReadJSONLines(f *testing.F) {
	f.Add(`{"tokens": ["a"], "tags": ["X"]}` + "\n" + `{"tokens": ["b"]}`)
	f.Add(`{"tokens": [`)
	f.Fuzz(func(t *testing.T, in string) { fuzzRead(t, in, Options{Format: JSONLines}) })
}
