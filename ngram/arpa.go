package ngram

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
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

// WriteARPA writes class k's model in the ARPA format: every word of the
// vocabulary (Unknown and End included; Start with log₁₀ probability −99)
// as a unigram, each order's n-grams seen in training, and the contexts
// of longer n-grams that end in Start. Numbers are written with the
// fewest digits that read back to the same float64.
func (m *Model) WriteARPA(w io.Writer, k int) error {
	l := m.lms[k]
	if l.smoothing == Lidstone || l.smoothing == MLE {
		return fmt.Errorf("%w: %v smoothing has no back-off form", ErrARPA, l.smoothing)
	}
	N := l.order
	// listed[k-1] holds the k-grams to write: the seen ones, then the
	// contexts of order k+1 that are not among them (those ending in
	// Start, which is never predicted).
	listed := make([]*gramTable, N)
	for k := 1; k <= N; k++ {
		t := newGramTable(k, l.grams[k-1].len())
		if k == 1 {
			for v := range len(m.vocab) {
				t.add([]int32{int32(v)}, 0)
			}
		}
		for e := range l.grams[k-1].counts {
			t.add(l.grams[k-1].gram(e), 0)
		}
		if k < N {
			for e := range l.ctx[k].counts {
				t.add(l.ctx[k].gram(e), 0)
			}
		}
		listed[k-1] = t
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\\data\\\n")
	for k, t := range listed {
		fmt.Fprintf(bw, "ngram %d=%d\n", k+1, t.len())
	}
	words := make([]string, N)
	for k, t := range listed {
		fmt.Fprintf(bw, "\n\\%d-grams:\n", k+1)
		for e := range t.counts {
			g := t.gram(e)
			lp := float64(logZero)
			if g[len(g)-1] != idStart {
				lp = math.Log10(l.probGram(g))
			}
			for i, id := range g {
				words[i] = m.vocab[id]
			}
			bw.WriteString(strconv.FormatFloat(lp, 'g', -1, 64))
			bw.WriteByte('\t')
			bw.WriteString(strings.Join(words[:len(g)], " "))
			if k+1 < N {
				if x := l.ctx[k+1].find(g); x >= 0 {
					bw.WriteByte('\t')
					bw.WriteString(strconv.FormatFloat(log10OrZero(l.backoff(k+1, x)), 'g', -1, 64))
				}
			}
			bw.WriteByte('\n')
		}
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
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
}

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

// ReadARPA reads a model in the ARPA format, or returns an error wrapping
// ErrARPA that names the line.
func ReadARPA(r io.Reader) (*ARPA, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
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
			continue // a header before \data\
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
			counts = append(counts, n)
			a.grams = append(a.grams, make(map[string]arpaEntry, n))
		default:
			f := strings.Fields(s)
			if len(f) != section+1 && len(f) != section+2 {
				return nil, fail("a %d-gram has %d fields", section, len(f))
			}
			var e arpaEntry
			var err error
			if e.logProb, err = strconv.ParseFloat(f[0], 64); err != nil {
				return nil, fail("log probability %q", f[0])
			}
			if len(f) == section+2 {
				if e.backoff, err = strconv.ParseFloat(f[section+1], 64); err != nil {
					return nil, fail("back-off weight %q", f[section+1])
				}
			}
			a.grams[section-1][strings.Join(f[1:section+1], " ")] = e
		}
	}
	if err := sc.Err(); err != nil {
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

// LogProb returns the natural log-probability of the tokens of a document
// (words, the output of Config.Tokenize) padded with Order−1 Start symbols
// and one End, and the number of tokens predicted. Words that are not
// unigrams of the model are Unknown, in the contexts too.
func (a *ARPA) LogProb(tokens []string) (float64, int) {
	seq := make([]string, 0, a.order+len(tokens))
	for range a.order - 1 {
		seq = append(seq, Start)
	}
	for _, w := range tokens {
		if _, ok := a.grams[0][w]; !ok || w == Start {
			w = Unknown
		}
		seq = append(seq, w)
	}
	seq = append(seq, End)
	lp := 0.0
	for i := a.order - 1; i < len(seq); i++ {
		lp += a.Log10Prob(seq[i-a.order+1:i], seq[i])
	}
	return lp * math.Ln10, len(tokens) + 1
}
