package seqio

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/seq"
)

// conlluFields is the number of fields of a CoNLL-U word line.
const conlluFields = 10

// The CoNLL-U fields that can be tags, counted from 0.
const (
	fieldForm   = 1
	fieldUPOS   = 3
	fieldXPOS   = 4
	fieldDeprel = 7
	fieldMisc   = 9
)

// conlluTag is the tag a CoNLL-U word line gives: its field, and for MISC
// the key.
type conlluTag struct {
	field int
	key   string
}

// tagField reads Options.Tags.
func tagField(name string) (conlluTag, error) {
	switch {
	case name == "" || name == "upos":
		return conlluTag{field: fieldUPOS}, nil
	case name == "xpos":
		return conlluTag{field: fieldXPOS}, nil
	case name == "deprel":
		return conlluTag{field: fieldDeprel}, nil
	case strings.HasPrefix(name, "misc:") && len(name) > len("misc:"):
		return conlluTag{field: fieldMisc, key: strings.TrimPrefix(name, "misc:")}, nil
	}
	return conlluTag{}, fmt.Errorf("%w %q (upos, xpos, deprel or misc:KEY)", ErrTagField, name)
}

// of returns the tag of the word line's fields.
func (t conlluTag) of(fields []string) string {
	if t.key == "" {
		return fields[t.field]
	}
	for kv := range strings.SplitSeq(fields[fieldMisc], "|") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == t.key {
			return v
		}
	}
	return "_"
}

// readCoNLLU reads CoNLL-U sentences with the tag tag.
func readCoNLLU(lr *lineReader, tag conlluTag) ([]seq.Sentence, error) {
	var out []seq.Sentence
	var cur seq.Sentence
	commented := false // the sentence has comment lines, no word yet
	end := func() error {
		if len(cur.Tokens) == 0 {
			if commented {
				return lr.errorf(0, "%w", ErrNoTokens)
			}
			return nil
		}
		out = append(out, cur)
		cur, commented = seq.Sentence{}, false
		return nil
	}
	for {
		line, err := lr.next()
		if err == io.EOF {
			lr.line++
			return out, end()
		}
		if err != nil {
			return nil, err
		}
		switch {
		case strings.TrimSpace(line) == "":
			if err := end(); err != nil {
				return nil, err
			}
			continue
		case strings.HasPrefix(line, "#"):
			if len(cur.Tokens) == 0 {
				commented = true
				if k, v, ok := strings.Cut(strings.TrimPrefix(line, "#"), "="); ok && strings.TrimSpace(k) == "sent_id" {
					cur.ID = strings.TrimSpace(v)
				}
			}
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != conlluFields {
			return nil, lr.errorf(min(len(fields), conlluFields)+1, "%w: %d, a CoNLL-U line has %d tab-separated fields", data.ErrFieldCount, len(fields), conlluFields)
		}
		id := fields[0]
		if strings.ContainsAny(id, "-.") {
			continue // a multiword token's range or an empty node: not a word of the sentence
		}
		if n, err := strconv.Atoi(id); err != nil || n != len(cur.Tokens)+1 {
			return nil, lr.errorf(1, "%w %q: word %d of the sentence expected", ErrWordID, id, len(cur.Tokens)+1)
		}
		if cur.Tokens == nil {
			cur.Line = lr.line
		}
		cur.Tokens = append(cur.Tokens, fields[fieldForm])
		cur.Tags = append(cur.Tags, tag.of(fields))
	}
}
