package ngram

import (
	"unicode"
	"unicode/utf8"

	"github.com/gendisc/gendisc/text"
)

// tokenizer splits documents into tokens without allocating once its
// buffer has grown. By default a token is a maximal run of letters and
// numbers (text.IsWordRune), lower-cased, as package text tokenizes; with
// keepPunct a word keeps its case and an apostrophe between two of its
// letters ("don't", "o'er"), and every other character that is neither a
// space nor a word character is a token of its own (",", ".", "?", ":").
type tokenizer struct {
	keepPunct bool
	buf       []byte
	toks      []span
}

// span is the byte range [lo, hi) of a token in tokenizer.buf.
type span struct{ lo, hi int }

// Tokenize returns the tokens of doc in the configuration's tokenizer: the
// words a model of cfg counts, before the vocabulary maps rare ones to
// <unk>.
func (c Config) Tokenize(doc string) []string {
	t := tokenizer{keepPunct: c.KeepPunct}
	t.scan(doc)
	out := make([]string, len(t.toks))
	for i, s := range t.toks {
		out[i] = string(t.buf[s.lo:s.hi])
	}
	return out
}

// scan fills t.toks with the tokens of doc.
func (t *tokenizer) scan(doc string) {
	t.buf, t.toks = t.buf[:0], t.toks[:0]
	start := -1 // where the current word starts in buf, -1 between words
	end := func() {
		if start >= 0 {
			t.toks = append(t.toks, span{start, len(t.buf)})
			start = -1
		}
	}
	for i := 0; i < len(doc); {
		r, size := rune(doc[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(doc[i:])
		} else if text.IsWordRune(r) { // the common case, without unicode's tables
			if start < 0 {
				start = len(t.buf)
			}
			if !t.keepPunct && 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			t.buf = append(t.buf, byte(r))
			i++
			continue
		}
		switch {
		case text.IsWordRune(r):
			if start < 0 {
				start = len(t.buf)
			}
			if !t.keepPunct {
				r = unicode.ToLower(r)
			}
			t.buf = utf8.AppendRune(t.buf, r)
		case t.keepPunct && (r == '\'' || r == '’') && start >= 0 && i+size < len(doc) && nextIsWord(doc[i+size:]):
			t.buf = utf8.AppendRune(t.buf, r)
		default:
			end()
			if t.keepPunct && !unicode.IsSpace(r) && r != utf8.RuneError && !unicode.IsControl(r) {
				lo := len(t.buf)
				t.buf = utf8.AppendRune(t.buf, r)
				t.toks = append(t.toks, span{lo, len(t.buf)})
			}
		}
		i += size
	}
	end()
}

// nextIsWord reports whether s begins with a word character.
func nextIsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return text.IsWordRune(r)
}

// Detokenize joins generated tokens into text: words separated by single
// spaces, with no space before closing punctuation (, . ; : ! ? ) ] and
// after an opening bracket.
func Detokenize(toks []string) string {
	var b []byte
	for i, w := range toks {
		if i > 0 && !closing(w) && toks[i-1] != "(" && toks[i-1] != "[" {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	return string(b)
}

func closing(w string) bool {
	switch w {
	case ",", ".", ";", ":", "!", "?", ")", "]":
		return true
	}
	return false
}
