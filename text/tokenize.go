package text

import (
	"unicode"
	"unicode/utf8"
)

// IsWordRune reports whether r belongs to a token: a letter (Unicode
// categories Lu, Ll, Lt, Lm, Lo: unicode.IsLetter) or a number (Nd, Nl,
// No: unicode.IsNumber, so "²", "½" and "Ⅻ" as well as the decimal
// digits). Everything else separates tokens: spaces, punctuation, symbols
// (emoji included), the underscore, combining marks (Mn, Mc: a decomposed
// "é", e followed by U+0301, splits into "e" and what follows), control
// characters and invalid UTF-8.
//
// This is the set Python's str.isalnum accepts, so the tokens are those of
// the regular expression (?u)[^\W_]+ that the reference tests give
// scikit-learn, up to the Unicode version of each side (Go's tables are
// Unicode 15.0, Python 3.11's 14.0: letters added in 15.0 are letters
// here only).
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiLower[r] != 0
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// asciiLower maps an ASCII letter or digit to its lower case and every
// other byte to 0 (a separator; bytes ≥ 0x80 are handled by the UTF-8
// path).
var asciiLower = func() (t [256]byte) {
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c)
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = byte(c)
		t[c-'a'+'A'] = byte(c)
	}
	return t
}()

// Tokenize appends the tokens of s to dst and returns it: the maximal runs
// of letters and numbers (IsWordRune), each lower-cased rune by rune with
// unicode.ToLower. It is the tokenizer of VectorizerConfig with MinLen 1
// and no stop words, for inspection and tests; the vectorizer itself does
// not allocate a string per token.
//
// Lower-casing rune by rune differs from Python's str.lower in two places,
// which scikit-learn's lowercase=True applies before its token pattern:
// "İ" (U+0130) becomes "i" here but "i" and a combining dot (U+0307) in
// Python, which then splits the token; and a capital sigma at the end of a
// word becomes "σ" here, "ς" in Python. Neither occurs in the bundled
// data.
func Tokenize(dst []string, s string) []string {
	var sc scanner
	sc.scan(s, 1, nil)
	for _, sp := range sc.toks {
		dst = append(dst, string(sc.buf[sp.lo:sp.hi]))
	}
	return dst
}

// span is the byte range [lo, hi) of a term in scanner.buf.
type span struct{ lo, hi int32 }

// scanner turns one document into its terms without allocating once its
// buffers have grown: buf holds the kept tokens, lower-cased and joined by
// single spaces, so that the n-gram of tokens k..k+n-1 is the contiguous
// range from the start of token k to the end of token k+n-1, exactly
// CountVectorizer's " ".join(tokens[k:k+n]).
type scanner struct {
	buf   []byte
	toks  []span // the kept tokens, in order
	grams []span // the n-grams of toks, when longer n-grams are asked for
	start int    // where the current token starts in buf, -1 between tokens
	runes int    // the current token's length in runes
}

// scan fills s.toks with the tokens of doc that have at least minLen runes
// and are not in stop.
func (s *scanner) scan(doc string, minLen int, stop map[string]struct{}) {
	s.buf, s.toks, s.start = s.buf[:0], s.toks[:0], -1
	for i := 0; i < len(doc); {
		c := doc[i]
		if c < utf8.RuneSelf {
			if asciiLower[c] == 0 {
				if s.start >= 0 {
					s.end(minLen, stop)
				}
				i++
				continue
			}
			// A run of ASCII letters and digits, copied and lower-cased
			// at once; it stops before a separator or a byte ≥ 0x80.
			j := i + 1
			for j < len(doc) && asciiLower[doc[j]] != 0 {
				j++
			}
			if s.start < 0 {
				s.begin()
			}
			k := len(s.buf)
			s.buf = append(s.buf, doc[i:j]...)
			for ; k < len(s.buf); k++ {
				s.buf[k] = asciiLower[s.buf[k]]
			}
			s.runes += j - i
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(doc[i:])
		i += size
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			if s.start < 0 {
				s.begin()
			}
			s.buf = utf8.AppendRune(s.buf, unicode.ToLower(r))
			s.runes++
		} else if s.start >= 0 {
			s.end(minLen, stop)
		}
	}
	if s.start >= 0 {
		s.end(minLen, stop)
	}
}

// begin starts a token, after a separating space when one precedes it.
func (s *scanner) begin() {
	if len(s.toks) > 0 {
		s.buf = append(s.buf, ' ')
	}
	s.start, s.runes = len(s.buf), 0
}

// end closes the current token: kept when it has at least minLen runes and
// is not a stop word, else removed from buf with its separating space.
func (s *scanner) end(minLen int, stop map[string]struct{}) {
	keep := s.runes >= minLen
	if keep && stop != nil {
		_, isStop := stop[string(s.buf[s.start:])]
		keep = !isStop
	}
	if keep {
		s.toks = append(s.toks, span{int32(s.start), int32(len(s.buf))})
	} else {
		s.buf = s.buf[:max(s.start-1, 0)]
	}
	s.start = -1
}

// terms returns the n-grams of s.toks for n in [g.Min, g.Max], shortest
// first and left to right, the order in which CountVectorizer generates
// them; g must not be the zero value.
func (s *scanner) terms(g NGrams) []span {
	if g.Min == 1 && g.Max == 1 {
		return s.toks
	}
	s.grams = s.grams[:0]
	k := len(s.toks)
	for n := g.Min; n <= min(g.Max, k); n++ {
		for i := 0; i+n <= k; i++ {
			s.grams = append(s.grams, span{s.toks[i].lo, s.toks[i+n-1].hi})
		}
	}
	return s.grams
}

// isTerm reports whether term is one that the settings can produce: its
// own tokens (of at least minLen runes, no stop word, already lower case)
// joined by single spaces, as many as an n-gram of g has.
func (s *scanner) isTerm(term string, minLen int, stop map[string]struct{}, g NGrams) bool {
	s.scan(term, minLen, stop)
	return string(s.buf) == term && len(s.toks) >= g.Min && len(s.toks) <= g.Max
}
