package ngram

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
)

// The ARPA back-off format of SRILM and KenLM lists, for each order k,
// the k-grams hw with log₁₀ P(w | h) and, for those that are contexts of
// longer ones, their log₁₀ back-off weight b(hw):
//
//	\data\
//	ngram 1=5
//	ngram 2=9
//
//	\1-grams:
//	-0.8450980	a	-0.2218487
//	...
//	\end\
//
// and reads P(w | h) = P(hw) when hw is listed, else b(h) · P(w | h'), b
// being 1 for an unlisted context. The interpolated smoothings have that
// form exactly: with P(w | h) = α(w | h) + λ(h) P(w | h') and α zero for
// a word never seen after h, the listed n-grams carry the interpolated
// probability and b(h) = λ(h) (γ(h)/c(h•) for KneserNey, N_1+(h•)/(c(h•)
// + N_1+(h•)) for WittenBell). Lidstone and MLE have no such form
// (ErrARPA).

// ErrARPA is wrapped by the errors of WriteARPA for a model that has no
// back-off form and of ReadARPA for a file that does not read.
var ErrARPA = errors.New("ngram: ARPA")

// logZero is the log₁₀ probability that ARPA files write for 0: that of
// Start, which is never predicted, and of a back-off weight of 0.
const logZero = -99

var _ gendisc.ARPAWriter = (*Model)(nil)

// WriteARPA writes class k's model in the ARPA format so that a reader
// of the format (SRILM, KenLM, IRSTLM, sphinxbase) gives every word of
// every document the probability the model gives it.
//
// ARPA readers pad a sentence with one Start, where the model pads with
// N−1, so the n-grams that begin with Start are written with their
// leading Starts folded into one: the entry of <s> x…w carries the
// model's P(w | <s>^(N−1−|x…|) x…), the probability the model gives w
// after the padded history that the reader's history <s> x… stands for,
// and the back-off weight of the context <s> x… is the product
//
//	b(<s> x…) = Π_{i=1}^{N−|<s> x…|} λ(<s>^i x…)
//
// of the interpolation weights of the model's contexts along that
// history (up to the first one never seen), which is what a word never
// seen after it gets on top of P(w | x…): every n-gram that begins with
// Start is seen at a document's start only, so a word seen after
// <s>^i x… for any i is listed. The n-grams of each order are sorted by
// their words, compared byte by byte, as SRILM writes them and IRSTLM's
// compile-lm needs them. Every word of the vocabulary (Unknown and End
// included; Start with log₁₀ probability −99) is a unigram. Numbers are
// written with the fewest digits that read back to the same float64.
// Before \data\, where the format allows any text, a line names the
// tokenization of the model (see ReadARPA).
func (m *Model) WriteARPA(w io.Writer, k int) error {
	l := m.lms[k]
	if l.smoothing == Lidstone || l.smoothing == MLE {
		return fmt.Errorf("%w: %v smoothing has no back-off form", ErrARPA, l.smoothing)
	}
	N := l.order
	// listed[k-1] holds the k-grams to write: the seen ones and the
	// contexts of longer ones, leading Starts folded into one.
	listed := make([]*gramTable, N)
	for k := range listed {
		listed[k] = newGramTable(k+1, l.grams[k].len())
	}
	for v := range len(m.vocab) {
		listed[0].add([]int32{int32(v)}, 0)
	}
	list := func(g []int32) {
		g = foldStarts(g)
		listed[len(g)-1].add(g, 0)
	}
	for k := range N {
		for e := range l.grams[k].counts {
			list(l.grams[k].gram(e))
		}
		if k > 0 {
			for e := range l.ctx[k].counts {
				list(l.ctx[k].gram(e))
			}
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s keep-punct=%t\n\n", arpaHeader, m.stats.cfg.KeepPunct)
	fmt.Fprintf(bw, "\\data\\\n")
	for k, t := range listed {
		fmt.Fprintf(bw, "ngram %d=%d\n", k+1, t.len())
	}
	var padded [MaxOrder]int32 // a history padded to N−1 ids
	words := make([]string, N)
	for k, t := range listed {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", k+1)
		entries := make([]int, t.len())
		for e := range entries {
			entries[e] = e
		}
		slices.SortFunc(entries, func(a, b int) int {
			return slices.CompareFunc(t.gram(a), t.gram(b), func(x, y int32) int { return strings.Compare(m.vocab[x], m.vocab[y]) })
		})
		for _, e := range entries {
			g := t.gram(e)
			// h is g's history as the model reads it: N−1 ids, Start
			// padding in front when g begins with Start.
			h := padded[:0]
			if g[0] == idStart {
				for range N - len(g) {
					h = append(h, idStart)
				}
			}
			h = append(h, g[:len(g)-1]...)
			lp := float64(logZero)
			if g[len(g)-1] != idStart {
				if g[0] == idStart {
					lp = math.Log10(l.prob(h, g[len(g)-1]))
				} else {
					lp = math.Log10(l.probGram(g))
				}
			}
			for i, id := range g {
				words[i] = m.vocab[id]
			}
			bw.WriteString(strconv.FormatFloat(lp, 'g', -1, 64))
			bw.WriteByte('\t')
			bw.WriteString(strings.Join(words[:len(g)], " "))
			if len(g) < N {
				if b, ok := l.backoffOf(g, N); ok {
					bw.WriteByte('\t')
					bw.WriteString(strconv.FormatFloat(b, 'g', -1, 64))
				}
			}
			bw.WriteByte('\n')
		}
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// foldStarts returns g with its leading Starts folded into one (g itself
// when it has at most one).
func foldStarts(g []int32) []int32 {
	i := 0
	for i+1 < len(g) && g[i] == idStart && g[i+1] == idStart {
		i++
	}
	return g[i:]
}

// backoffOf returns the log₁₀ back-off weight of the context c (a listed
// n-gram shorter than N) and whether c is a context of the model: log₁₀
// λ(c) when c does not begin with Start, else the sum of log₁₀ λ(<s>^i x…)
// over the contexts <s>^i x… (i = 1 … N−|c|, c = <s> x…) up to the first
// the model never saw (see WriteARPA).
func (l *lm) backoffOf(c []int32, N int) (float64, bool) {
	if c[0] != idStart {
		x := l.ctx[len(c)].find(c)
		if x < 0 {
			return 0, false
		}
		return log10OrZero(l.backoff(len(c), x)), true
	}
	var buf [MaxOrder]int32
	h := append(buf[:0], c...)
	sum, found := 0.0, false
	for len(h) < N {
		x := l.ctx[len(h)].find(h)
		if x < 0 {
			break
		}
		found = true
		if b := l.backoff(len(h), x); b > 0 {
			sum += math.Log10(b)
		} else {
			return logZero, true
		}
		h = append(h[:1:1], h...) // one more Start in front
	}
	return sum, found
}

// backoff returns λ(h) for the context entry x of order k+1 (index k).
func (l *lm) backoff(k, x int) float64 {
	st := l.ctxStats[k][x]
	total := float64(l.ctx[k].counts[x])
	if l.smoothing == WittenBell {
		u := float64(st.n1 + st.n2 + st.n3)
		return u / (total + u)
	}
	d := l.disc[k]
	return (d[1]*float64(st.n1) + d[2]*float64(st.n2) + d[3]*float64(st.n3)) / total
}

func log10OrZero(x float64) float64 {
	if x <= 0 {
		return logZero
	}
	return math.Log10(x)
}

// ARPA is a back-off language model read from an ARPA file.
type ARPA struct {
	order int
	// grams[k-1] maps a k-gram, its words joined by spaces, to its
	// log₁₀ probability and back-off weight.
	grams []map[string]arpaEntry
	// words are the unigrams in the order of the file.
	words []string
	// tokenize is the tokenization of a file that WriteARPA wrote, nil
	// for tokens separated by white space.
	tokenize *Config
}

// arpaHeader begins the line before \data\ that names the tokenization
// of a file written by WriteARPA.
const arpaHeader = "gendisc ngram:"

type arpaEntry struct{ logProb, backoff float64 }

// Order returns the model's highest order.
func (a *ARPA) Order() int { return a.order }

// Size returns the number of n-grams of each order, 1 to Order.
func (a *ARPA) Size() []int {
	n := make([]int, a.order)
	for k, g := range a.grams {
		n[k] = len(g)
	}
	return n
}

// maxARPALine bounds a line of an ARPA file: an n-gram of at most
// MaxOrder words, its numbers and any text before \data\.
const maxARPALine = 1 << 20

// ReadARPA reads a model in the ARPA format, or returns an error wrapping
// ErrARPA that names the line. A document's tokens are its words
// separated by white space, as ARPA tools read text, unless a line before
// \data\ written by WriteARPA names gendisc's tokenization (Config's
// KeepPunct), which the model then uses, so that the file scores text as
// the model it was written from.
func ReadARPA(r io.Reader) (*ARPA, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), maxARPALine)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: line %d: %s", ErrARPA, line, fmt.Sprintf(format, args...))
	}
	a := &ARPA{}
	var counts []int
	section := -1 // −1 before \data\, 0 in it, k in \k-grams:
	done := false
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || done:
			continue
		case s == `\data\`:
			section = 0
		case s == `\end\`:
			done = true
		case section < 0:
			if v, ok := strings.CutPrefix(s, arpaHeader); ok {
				c := Config{}
				for _, kv := range strings.Fields(v) {
					if kv == "keep-punct=true" {
						c.KeepPunct = true
					}
				}
				a.tokenize = &c
			}
			continue // text before \data\
		case strings.HasPrefix(s, `\`) && strings.HasSuffix(s, "-grams:"):
			k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, `\`), "-grams:"))
			if err != nil || k != section+1 || k > len(counts) {
				return nil, fail("unexpected section %s", s)
			}
			section = k
		case section == 0:
			v, ok := strings.CutPrefix(s, "ngram ")
			ks, ns, ok2 := strings.Cut(v, "=")
			k, err1 := strconv.Atoi(strings.TrimSpace(ks))
			n, err2 := strconv.Atoi(strings.TrimSpace(ns))
			if !ok || !ok2 || err1 != nil || err2 != nil || k != len(counts)+1 || n < 0 {
				return nil, fail("want ngram %d=count, got %q", len(counts)+1, s)
			}
			if len(counts) == MaxOrder {
				return nil, fail("more than %d orders", MaxOrder)
			}
			counts = append(counts, n)
			// The count is the file's word: the map grows with the lines
			// read, not with what the header announces.
			a.grams = append(a.grams, make(map[string]arpaEntry, min(n, 1<<16)))
		default:
			f := strings.Fields(s)
			if len(f) != section+1 && len(f) != section+2 {
				return nil, fail("a %d-gram has %d fields", section, len(f))
			}
			var e arpaEntry
			var err error
			// A log₁₀ probability is at most 0 (−inf for 0), a back-off
			// weight any number or −inf (a weight of 0).
			if e.logProb, err = strconv.ParseFloat(f[0], 64); err != nil || !(e.logProb <= 0) {
				return nil, fail("log probability %q: want a number ≤ 0", f[0])
			}
			if len(f) == section+2 {
				if e.backoff, err = strconv.ParseFloat(f[section+1], 64); err != nil || math.IsNaN(e.backoff) || math.IsInf(e.backoff, 1) {
					return nil, fail("back-off weight %q: want a number", f[section+1])
				}
			}
			key := strings.Join(f[1:section+1], " ")
			if _, dup := a.grams[section-1][key]; dup {
				return nil, fail("the %d-gram %q is listed twice", section, key)
			}
			if section == 1 {
				a.words = append(a.words, f[1])
			}
			a.grams[section-1][key] = e
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%w: line %d: longer than %d bytes", ErrARPA, line+1, maxARPALine)
	} else if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrARPA, err)
	}
	if !done || len(counts) == 0 {
		return nil, fmt.Errorf("%w: no \\data\\ section or no \\end\\", ErrARPA)
	}
	for k, n := range counts {
		if len(a.grams[k]) != n {
			return nil, fmt.Errorf("%w: %d %d-grams, the header says %d", ErrARPA, len(a.grams[k]), k+1, n)
		}
	}
	if _, ok := a.grams[0][Unknown]; !ok {
		return nil, fmt.Errorf("%w: no unigram %s", ErrARPA, Unknown)
	}
	a.order = len(counts)
	return a, nil
}

// Log10Prob returns log₁₀ P(w | h) by back-off, h the words before w (the
// last Order−1 count); a word that is not a unigram is Unknown.
func (a *ARPA) Log10Prob(h []string, w string) float64 {
	if _, ok := a.grams[0][w]; !ok {
		w = Unknown
	}
	h = h[max(0, len(h)-(a.order-1)):]
	bo := 0.0
	for {
		key := strings.Join(append(h[:len(h):len(h)], w), " ")
		if e, ok := a.grams[len(h)][key]; ok {
			return bo + e.logProb
		}
		if len(h) == 0 {
			return math.Inf(-1) // unreachable: Unknown is a unigram
		}
		if c, ok := a.grams[len(h)-1][strings.Join(h, " ")]; ok {
			bo += c.backoff
		}
		h = h[1:]
	}
}

// LogProbTokens returns the natural log-probability of the tokens of a
// document as ARPA readers compute it: the
// history starts with one Start, and the tokens and one End are
// predicted. It returns the number of tokens predicted. Words that are
// not unigrams of the model are Unknown, in the contexts too.
func (a *ARPA) LogProbTokens(tokens []string) (float64, int) {
	seq := make([]string, 0, len(tokens)+2)
	seq = append(seq, Start)
	for _, w := range tokens {
		seq = append(seq, a.known(w))
	}
	seq = append(seq, End)
	lp := 0.0
	for i := 1; i < len(seq); i++ {
		lp += a.Log10Prob(seq[max(0, i-a.order+1):i], seq[i])
	}
	return lp * math.Ln10, len(tokens) + 1
}
