package seqio

import (
	"bytes"
	"fmt"
	"io"
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

// conlluFieldNames names the fields that can be tags, for errors.
var conlluFieldNames = map[int]string{fieldUPOS: "UPOS", fieldXPOS: "XPOS", fieldDeprel: "DEPREL", fieldMisc: "MISC"}

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

// of returns the tag of the word line's fields, interned.
func (t conlluTag) of(fields *[conlluFields][]byte, in interner) string {
	if t.key == "" {
		return in.of(fields[t.field])
	}
	for kv := range bytes.SplitSeq(fields[fieldMisc], []byte("|")) {
		if k, v, ok := bytes.Cut(kv, []byte("=")); ok && string(k) == t.key {
			return in.of(v)
		}
	}
	return "_"
}

// interner gives one string for all equal words (or tags) of a file: the
// tokens share their memory, and a repeated word costs a lookup, not an
// allocation.
type interner map[string]string

// of returns the string of b.
func (in interner) of(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// stringSlab hands out the slices of strings of the sentences read,
// carved from blocks of slabBlock strings: one allocation for many
// sentences rather than two for each.
type stringSlab []string

// slabBlock is the number of strings of a block of a stringSlab (64 KiB):
// a sentence kept alone keeps at most one block in memory.
const slabBlock = 4096

// copy returns a copy of x in the slab, of capacity len(x).
func (s *stringSlab) copy(x []string) []string {
	if len(x) > len(*s) {
		*s = make([]string, max(slabBlock, len(x)))
	}
	c := (*s)[:len(x):len(x)]
	*s = (*s)[len(x):]
	copy(c, x)
	return c
}

// splitFields splits the first need fields of a line at its tabs into
// fields, and returns the line's number of fields: the fields after those
// needed are counted (bytes.Count), not split, which halves the time of
// splitting EWT's lines for their UPOS tags.
func splitFields(line []byte, fields *[conlluFields][]byte, need int) int {
	for n := range need {
		i := bytes.IndexByte(line, '\t')
		if i < 0 {
			fields[n] = line
			return n + 1
		}
		fields[n], line = line[:i], line[i+1:]
	}
	return need + bytes.Count(line, []byte{'\t'}) + 1
}

// wordID returns the value of a word line's ID of decimal digits, or
// false.
func wordID(id []byte) (int, bool) {
	n := 0
	for _, c := range id {
		if c < '0' || c > '9' || n > 1<<40 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(id) > 0
}

// readCoNLLU reads CoNLL-U sentences with the tag tag, giving each to
// yield (errStopped when it returns false).
func readCoNLLU(lr *lineReader, tag conlluTag, yield func(seq.Sentence) bool) error {
	var cur seq.Sentence
	var fields [conlluFields][]byte
	// The words and the tags are interned apart: the few tags' map
	// stays in the cache.
	words, tags := interner{}, interner{}
	var slab stringSlab
	need := max(fieldForm, tag.field) + 1 // the fields read
	commented := false                    // the sentence has comment lines, no word yet
	unspecified, firstUnspecified := 0, 0 // the sentence's words whose tag field is "_", the line of the first
	end := func() error {
		if len(cur.Tokens) == 0 {
			if commented {
				return lr.errorf(0, "%w", ErrNoTokens)
			}
			return nil
		}
		if unspecified > 0 && unspecified < len(cur.Tokens) {
			return &data.ParseError{File: lr.source, Line: firstUnspecified, Column: tag.field + 1,
				Err: fmt.Errorf("%w: %s is _ here, and given for other words of the sentence", ErrUnspecifiedTag, conlluFieldNames[tag.field])}
		}
		// The sentence's own slices of its length; cur's are reused.
		s := cur
		s.Tokens, s.Tags = slab.copy(cur.Tokens), slab.copy(cur.Tags)
		if unspecified > 0 {
			s.Tags = nil // every word's tag unspecified: an untagged sentence
		}
		cur, commented = seq.Sentence{Tokens: cur.Tokens[:0], Tags: cur.Tags[:0]}, false
		unspecified = 0
		if !yield(s) {
			return errStopped
		}
		return nil
	}
	for {
		line, err := lr.nextBytes()
		if err == io.EOF {
			lr.line++
			return end()
		}
		if err != nil {
			return err
		}
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			if err := end(); err != nil {
				return err
			}
			continue
		case line[0] == '#':
			if len(cur.Tokens) == 0 {
				commented = true
				if k, v, ok := bytes.Cut(line[1:], []byte("=")); ok && string(bytes.TrimSpace(k)) == "sent_id" {
					cur.ID = string(bytes.TrimSpace(v))
				}
			}
			continue
		}
		if n := splitFields(line, &fields, need); n != conlluFields {
			return lr.errorf(min(n, conlluFields)+1, "%w: %d, a CoNLL-U line has %d tab-separated fields", data.ErrFieldCount, n, conlluFields)
		}
		id := fields[0]
		if bytes.ContainsAny(id, "-.") {
			continue // a multiword token's range or an empty node: not a word of the sentence
		}
		if n, ok := wordID(id); !ok || n != len(cur.Tokens)+1 {
			return lr.errorf(1, "%w %q: word %d of the sentence expected", ErrWordID, id, len(cur.Tokens)+1)
		}
		if len(cur.Tokens) == 0 {
			cur.Line = lr.line
		}
		cur.Tokens = append(cur.Tokens, words.of(fields[fieldForm]))
		if tag.key == "" && string(fields[tag.field]) == "_" {
			if unspecified == 0 {
				firstUnspecified = lr.line
			}
			unspecified++
		}
		cur.Tags = append(cur.Tags, tag.of(&fields, tags))
	}
}
