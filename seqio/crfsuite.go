package seqio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/seq"
)

// CRFsuite's data format, as its manual describes it: one token (item) a
// line, its label, then its attributes, separated by tabs; an attribute
// is NAME or NAME:VALUE (value 1 when absent), with ":" and "\" in NAME
// written "\:" and "\\"; a blank line ends a sentence. The rules gendisc
// follows where the manual is silent:
//
//   - several blank lines in a row (or at the start and the end) end one
//     sentence: there are no empty sentences, as CRFsuite's reader
//     skips them;
//   - a line of a label alone is a token without attributes; empty fields
//     (doubled tabs) are skipped, as CRFsuite skips them;
//   - a sentence whose lines all begin with a tab (an empty label) is
//     untagged, to be tagged by predict; an empty label among labels is
//     an error;
//   - a VALUE is a finite decimal number (CRFsuite's atof reads "1x" as
//     1 and "x" as 0; gendisc refuses them, with the line and field);
//   - instance weights (CRFsuite 0.12's "@weight:" lines) are not
//     supported: "@weight:2" is read as a token labelled "@weight:2".
//
// Errors name the line and the field (from 1: the label is field 1).

// Errors wrapped in the *data.ParseError of CRFsuite's format.
var (
	ErrAttribute  = errors.New("malformed attribute")
	ErrEmptyLabel = errors.New("empty label")
)

// readCRFsuite reads sentences given as attributes in CRFsuite's format,
// giving each to yield, as readCoNLLU does.
func readCRFsuite(lr *lineReader, yield func(seq.Sentence) bool) error {
	var cur seq.Sentence
	for {
		line, err := lr.next()
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF || strings.TrimSpace(line) == "" {
			if cur.Attributes != nil {
				if !yield(cur) {
					return errStopped
				}
				cur = seq.Sentence{}
			}
			if err == io.EOF {
				return nil
			}
			continue
		}
		fields := strings.Split(line, "\t")
		label := fields[0]
		switch {
		case cur.Attributes == nil:
			cur.Line = lr.line
			if label != "" {
				cur.Tags = []string{}
			}
		case (label == "") != (cur.Tags == nil):
			return lr.errorf(1, "%w: a sentence's tokens are labelled all or none (line %d has %s)", ErrEmptyLabel, cur.Line, labelOrNone(cur))
		}
		if label != "" {
			cur.Tags = append(cur.Tags, label)
		}
		attrs := make([]seq.Attribute, 0, len(fields)-1)
		for col, field := range fields[1:] {
			if field == "" {
				continue
			}
			a, err := parseAttribute(field)
			if err != nil {
				return lr.errorf(col+2, "%w %q: %v", ErrAttribute, field, err)
			}
			attrs = append(attrs, a)
		}
		cur.Attributes = append(cur.Attributes, attrs)
	}
}

// labelOrNone says whether the first token of s has a label.
func labelOrNone(s seq.Sentence) string {
	if s.Tags == nil {
		return "none"
	}
	return "one"
}

// parseAttribute parses NAME[:VALUE] with CRFsuite's escapes.
func parseAttribute(field string) (seq.Attribute, error) {
	var b strings.Builder
	for i := 0; i < len(field); i++ {
		switch c := field[i]; c {
		case '\\':
			if i+1 == len(field) || (field[i+1] != ':' && field[i+1] != '\\') {
				return seq.Attribute{}, errors.New(`a backslash not followed by ':' or '\'`)
			}
			i++
			b.WriteByte(field[i])
		case ':':
			if b.Len() == 0 {
				return seq.Attribute{}, errors.New("an empty name")
			}
			v, err := strconv.ParseFloat(field[i+1:], 64)
			if err != nil || !isFinite(v) {
				return seq.Attribute{}, fmt.Errorf("the value %q is not a finite number", field[i+1:])
			}
			return seq.Attribute{Name: b.String(), Value: v}, nil
		default:
			b.WriteByte(c)
		}
	}
	return seq.Attribute{Name: b.String(), Value: 1}, nil
}

func isFinite(v float64) bool { return v-v == 0 }

// WriteCRFsuite writes sentences given as attributes (seq.Sentence's
// Attributes) in CRFsuite's format, which Read reads back the same: the
// tag of each token (an empty label for an untagged sentence), then its
// attributes, values of 1 without ":1" and others in the shortest form
// that reads back to the same float64. A sentence without tokens, a tag
// that is blank or has a tab or a line break, an untagged token without
// attributes (a blank line), an attribute name that is empty or has a
// tab or a line break, and a value that is not finite are errors, naming
// the sentence and the token (from 1).
func WriteCRFsuite(w io.Writer, sentences []seq.Sentence) error {
	bw := bufio.NewWriter(w)
	escaper := strings.NewReplacer(`\`, `\\`, `:`, `\:`)
	for i, s := range sentences {
		if len(s.Attributes) == 0 {
			return fmt.Errorf("sentence %d: no tokens given as attributes", i+1)
		}
		if s.Tags != nil && len(s.Tags) != len(s.Attributes) {
			return fmt.Errorf("sentence %d: %d tags for %d tokens", i+1, len(s.Tags), len(s.Attributes))
		}
		for t, attrs := range s.Attributes {
			if s.Tags != nil {
				if strings.TrimSpace(s.Tags[t]) == "" || strings.ContainsAny(s.Tags[t], "\t\n\r") {
					return fmt.Errorf("sentence %d, token %d: the tag %q is blank or has a tab or a line break", i+1, t+1, s.Tags[t])
				}
				bw.WriteString(s.Tags[t])
			} else if len(attrs) == 0 {
				return fmt.Errorf("sentence %d, token %d: an untagged token without attributes (its line would be blank)", i+1, t+1)
			}
			for _, a := range attrs {
				if a.Name == "" || strings.ContainsAny(a.Name, "\t\n\r") {
					return fmt.Errorf("sentence %d, token %d: the attribute name %q is empty or has a tab or a line break", i+1, t+1, a.Name)
				}
				if !isFinite(a.Value) {
					return fmt.Errorf("sentence %d, token %d: attribute %q has the value %v", i+1, t+1, a.Name, a.Value)
				}
				bw.WriteByte('\t')
				bw.WriteString(escaper.Replace(a.Name))
				if a.Value != 1 {
					bw.WriteByte(':')
					bw.WriteString(strconv.FormatFloat(a.Value, 'g', -1, 64))
				}
			}
			bw.WriteByte('\n')
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
