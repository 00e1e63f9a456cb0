package seqio

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/gendisc/gendisc/seq"
)

// jsonSentence is one line of JSON lines.
type jsonSentence struct {
	ID     string   `json:"id"`
	Tokens []string `json:"tokens"`
	Tags   []string `json:"tags"`
}

// readJSONLines reads one sentence a non-blank line, giving each to
// yield (errStopped when it returns false).
func readJSONLines(lr *lineReader, yield func(seq.Sentence) bool) error {
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		var s jsonSentence
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			column := 0
			if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
				column = int(se.Offset)
			} else if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
				column = int(te.Offset)
			}
			return lr.errorf(column, "%w", err)
		}
		switch {
		case len(s.Tokens) == 0:
			return lr.errorf(0, "%w", ErrNoTokens)
		case s.Tags != nil && len(s.Tags) != len(s.Tokens):
			return lr.errorf(0, "%w: %d tags, %d tokens", ErrTagCount, len(s.Tags), len(s.Tokens))
		}
		if !yield(seq.Sentence{ID: s.ID, Line: lr.line, Tokens: s.Tokens, Tags: s.Tags}) {
			return errStopped
		}
	}
}
