package crf

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultTemplates is the feature set of DefaultFeatures: the identity
// and lower case of the word, its affixes of 1–4 characters, shape,
// capitalisation, digits and hyphen, the lower-cased words at ±1 and ±2,
// and a bias.
const DefaultTemplates = "bias,word,lower,prefix:4,suffix:4,shape,cap,digit,hyphen,lower@-1,lower@+1,lower@-2,lower@+2"

// templateFuncs are the templates by name: each gives the values of its
// attribute for a token (none when it does not apply), n the affix length
// for prefix and suffix.
var templateFuncs = map[string]func(tok string, n int) []string{
	"bias":  func(string, int) []string { return []string{""} },
	"word":  func(tok string, _ int) []string { return []string{tok} },
	"lower": func(tok string, _ int) []string { return []string{strings.ToLower(tok)} },
	"prefix": func(tok string, n int) []string {
		return affixes(tok, n, func(r []rune, k int) []rune { return r[:k] })
	},
	"suffix": func(tok string, n int) []string {
		return affixes(tok, n, func(r []rune, k int) []rune { return r[len(r)-k:] })
	},
	"shape": func(tok string, _ int) []string { return []string{shape(tok)} },
	"cap": func(tok string, _ int) []string {
		r, _ := utf8.DecodeRuneInString(tok)
		switch {
		case tok != "" && strings.ToUpper(tok) == tok && strings.ToLower(tok) != tok:
			return []string{"all"}
		case unicode.IsUpper(r):
			return []string{"init"}
		case strings.ToLower(tok) != tok:
			return []string{"inner"}
		}
		return nil
	},
	"digit": func(tok string, _ int) []string {
		n := strings.IndexFunc(tok, func(r rune) bool { return !unicode.IsDigit(r) })
		switch {
		case tok != "" && n < 0:
			return []string{"all"}
		case strings.IndexFunc(tok, unicode.IsDigit) >= 0:
			return []string{"some"}
		}
		return nil
	},
	"hyphen": func(tok string, _ int) []string {
		if strings.Contains(tok, "-") {
			return []string{""}
		}
		return nil
	},
}

// affixes returns cut(runes, k) for k = 1 … min(n, len(runes)).
func affixes(tok string, n int, cut func([]rune, int) []rune) []string {
	r := []rune(tok)
	out := make([]string, 0, n)
	for k := 1; k <= min(n, len(r)); k++ {
		out = append(out, strconv.Itoa(k)+"="+string(cut(r, k)))
	}
	return out
}

// shape maps upper-case letters to X, other letters to x, digits to d,
// keeps other characters and collapses runs: "McDonald's" → "XxXx'x",
// "1,000.50" → "d,d.d".
func shape(tok string) string {
	var b strings.Builder
	last := rune(-1)
	for _, r := range tok {
		switch {
		case unicode.IsUpper(r):
			r = 'X'
		case unicode.IsLetter(r):
			r = 'x'
		case unicode.IsDigit(r):
			r = 'd'
		}
		if r != last {
			b.WriteRune(r)
			last = r
		}
	}
	return b.String()
}

// template is one parsed template: a function of the token at offset
// from the current one.
type template struct {
	name   string
	n      int // affix length, for prefix and suffix
	offset int
}

// Templates turns the tokens of a sentence into the items of a CRF: for
// each token, the attributes of every template, named
// "template[@offset]=value" ("template[@offset]" for bias and hyphen,
// "prefix=k=value" for an affix of k characters), each of value 1;
// hashed into Buckets names "#h" when Buckets > 0. A template at an
// offset beyond the sentence gives the value "__BOS__" or "__EOS__".
type Templates struct {
	list    []template
	Buckets int
}

// ParseTemplates parses a template specification: names separated by
// commas, each bias, word, lower, prefix:N, suffix:N (affixes of 1 … N
// characters, N ≤ 10), shape, cap, digit or hyphen, optionally with
// @OFFSET (−2 … +2) to take it from a neighbouring token, such as
// DefaultTemplates.
func ParseTemplates(spec string) (*Templates, error) {
	tp := &Templates{}
	seen := map[string]bool{}
	for field := range strings.SplitSeq(spec, ",") {
		field = strings.TrimSpace(field)
		var tpl template
		body, off, hasOff := strings.Cut(field, "@")
		if hasOff {
			o, err := strconv.Atoi(off)
			if err != nil || o < -2 || o > 2 {
				return nil, fmt.Errorf("template %q: the offset %q is not an integer from -2 to +2", field, off)
			}
			tpl.offset = o
		}
		name, arg, hasArg := strings.Cut(body, ":")
		if templateFuncs[name] == nil {
			return nil, fmt.Errorf("template %q: unknown name %q (want one of bias, word, lower, prefix:N, suffix:N, shape, cap, digit, hyphen)", field, name)
		}
		tpl.name = name
		switch {
		case name == "prefix" || name == "suffix":
			n, err := strconv.Atoi(arg)
			if !hasArg || err != nil || n < 1 || n > 10 {
				return nil, fmt.Errorf("template %q: want %s:N with N from 1 to 10", field, name)
			}
			tpl.n = n
		case hasArg:
			return nil, fmt.Errorf("template %q: %s takes no :N", field, name)
		}
		if seen[tpl.String()] {
			return nil, fmt.Errorf("template %q given twice", field)
		}
		seen[tpl.String()] = true
		tp.list = append(tp.list, tpl)
	}
	return tp, nil
}

func (t template) String() string {
	if t.n > 0 {
		return t.name + ":" + strconv.Itoa(t.n) + t.at()
	}
	return t.prefix()
}

// prefix is the start of the names of t's attributes: its name and offset.
func (t template) prefix() string { return t.name + t.at() }

func (t template) at() string {
	if t.offset == 0 {
		return ""
	}
	return fmt.Sprintf("@%+d", t.offset)
}

// String returns the specification of tp, as ParseTemplates reads it.
func (tp *Templates) String() string {
	names := make([]string, len(tp.list))
	for i, t := range tp.list {
		names[i] = t.String()
	}
	return strings.Join(names, ",")
}

// Items returns the items of the tokens of a sentence.
func (tp *Templates) Items(tokens []string) []Item {
	items := make([]Item, len(tokens))
	for i := range tokens {
		var item Item
		for _, t := range tp.list {
			prefix := t.prefix()
			j := i + t.offset
			var values []string
			switch {
			case j < 0:
				values = []string{"__BOS__"}
			case j >= len(tokens):
				values = []string{"__EOS__"}
			default:
				values = templateFuncs[t.name](tokens[j], t.n)
			}
			for _, v := range values {
				name := prefix
				if v != "" {
					name += "=" + v
				}
				item = append(item, Attribute{Name: tp.hash(name), Value: 1})
			}
		}
		items[i] = item
	}
	return items
}

// hash returns name, or with Buckets > 0 its bucket "#h", h the FNV-1a
// hash of name modulo Buckets.
func (tp *Templates) hash(name string) string {
	if tp.Buckets <= 0 {
		return name
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return "#" + strconv.FormatUint(h.Sum64()%uint64(tp.Buckets), 10)
}
