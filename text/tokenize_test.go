package text

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"separators only", " ,.!?-_\t\n", nil},
		{"ascii", "Go until jurong point, crazy.. Available", []string{"go", "until", "jurong", "point", "crazy", "available"}},
		{"digits and single letters", "call 08002986030 now! u r a winner 2", []string{"call", "08002986030", "now", "u", "r", "a", "winner", "2"}},
		{"underscore separates", "snake_case_word", []string{"snake", "case", "word"}},
		{"apostrophe separates", "don't", []string{"don", "t"}},
		{"accented letters", "Café CRÈME brûlée Ångström", []string{"café", "crème", "brûlée", "ångström"}},
		{"german", "STRAẞE Grüße", []string{"straße", "grüße"}},
		{"greek, final sigma as σ", "ΟΔΟΣ", []string{"οδοσ"}},
		{"turkish dotted capital I becomes i", "İstanbul ıi", []string{"istanbul", "ıi"}},
		{"cyrillic", "Привет МИР", []string{"привет", "мир"}},
		{"CJK runs are one token", "東京タワー 東京", []string{"東京タワー", "東京"}},
		{"emoji separate", "good😀day 👍🏽ok", []string{"good", "day", "ok"}},
		{"numbers beyond decimal digits", "x² ½ Ⅻ 〨", []string{"x²", "½", "ⅻ", "〨"}},
		{"decomposed accent splits", "e\u0301t\u00e9", []string{"e", "té"}},
		{"invalid UTF-8 separates", "ab\xffcd\xc3", []string{"ab", "cd"}},
		{"non-breaking and ideographic spaces", "a\u00a0b\u3000c", []string{"a", "b", "c"}},
		{"pound sign", "£1000 cash", []string{"1000", "cash"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Tokenize(nil, c.in); !slices.Equal(got, c.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestScannerSettings(t *testing.T) {
	doc := "The cat sat on a mat, the END"
	for _, c := range []struct {
		name string
		cfg  VectorizerConfig
		want []string
	}{
		{"unigrams", VectorizerConfig{}, []string{"the", "cat", "sat", "on", "a", "mat", "the", "end"}},
		{"min length 2", VectorizerConfig{MinLen: 2}, []string{"the", "cat", "sat", "on", "mat", "the", "end"}},
		{"min length 4", VectorizerConfig{MinLen: 4}, nil},
		{"stop words", VectorizerConfig{StopWords: "english"}, []string{"cat", "sat", "mat", "end"}},
		{"bigrams after stop words", VectorizerConfig{StopWords: "english", NGrams: NGrams{1, 2}},
			[]string{"cat", "sat", "mat", "end", "cat sat", "sat mat", "mat end"}},
		{"2-3 grams", VectorizerConfig{MinLen: 3, NGrams: NGrams{2, 3}},
			[]string{"the cat", "cat sat", "sat mat", "mat the", "the end", "the cat sat", "cat sat mat", "sat mat the", "mat the end"}},
		{"n larger than the document", VectorizerConfig{MinLen: 3, NGrams: NGrams{7, 9}}, nil},
		{"n equal to the document", VectorizerConfig{MinLen: 3, NGrams: NGrams{6, 9}}, []string{"the cat sat mat the end"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stop, _ := stopList(c.cfg.StopWords)
			var sc scanner
			sc.scan(doc, max(c.cfg.MinLen, 1), stop)
			var got []string
			for _, sp := range sc.terms(c.cfg.NGrams.orDefault()) {
				got = append(got, string(sc.buf[sp.lo:sp.hi]))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("terms %q, want %q", got, c.want)
			}
		})
	}
}

// checkTokens checks the properties every tokenization has: non-empty
// tokens of word runes only, already lower case, and tokenizing the tokens
// joined by spaces gives them back.
func checkTokens(t *testing.T, in string, toks []string) {
	t.Helper()
	for _, tok := range toks {
		if tok == "" {
			t.Fatalf("%q: empty token", in)
		}
		if !utf8.ValidString(tok) {
			t.Fatalf("%q: token %q is not valid UTF-8", in, tok)
		}
		for _, r := range tok {
			if !IsWordRune(r) {
				t.Fatalf("%q: token %q has %U, not a letter or number", in, tok, r)
			}
			if unicode.ToLower(r) != r {
				t.Fatalf("%q: token %q has %U, not lower case", in, tok, r)
			}
		}
	}
	if again := Tokenize(nil, strings.Join(toks, " ")); !slices.Equal(again, toks) {
		t.Fatalf("%q: tokens %q re-tokenized as %q", in, toks, again)
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Hello, World!", "İstanbul ΟΔΟΣ straße", "x² ½ Ⅻ e\u0301", "ab\xffcd\xc3", "東京😀tower_2", "ǅ ǈ ᾈ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokenize(nil, s)
		checkTokens(t, s, toks)
		// The scanner with n-grams agrees with the tokens.
		var sc scanner
		sc.scan(s, 1, nil)
		grams := sc.terms(NGrams{1, 2})
		if len(toks) > 0 && len(grams) != 2*len(toks)-1 {
			t.Fatalf("%q: %d terms for %d tokens", s, len(grams), len(toks))
		}
		for i := 0; i+1 < len(toks); i++ {
			sp := grams[len(toks)+i]
			if got, want := string(sc.buf[sp.lo:sp.hi]), toks[i]+" "+toks[i+1]; got != want {
				t.Fatalf("%q: bigram %d is %q, want %q", s, i, got, want)
			}
		}
	})
}
