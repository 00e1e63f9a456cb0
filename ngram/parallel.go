package ngram

import (
	"math"
	"runtime"
)

// blockBytes is about how many bytes of text a block of documents holds:
// Add tokenizes blocks on every core and counts their n-grams block after
// block. A variable so that the tests can make blocks of a few documents.
var blockBytes = 64 << 10

// block is a run of consecutive documents that one worker has tokenized:
// their padded sequences back to back, in the worker's own word ids.
type block struct {
	lo, hi int      // the rows
	seq    []int32  // Order−1 Starts, the words and End of each document counted
	ends   []int    // where each document's sequence ends in seq
	class  []int    // each document's class
	fresh  []string // the words the worker first met in this block, in that order
}

// lexer is a worker's tokenizer and word ids: the special tokens, then
// every word in the order the worker first met it. Its ids are its own;
// Add maps them to the accumulator's block by block, in the order of the
// blocks, so that the accumulator's ids are those of the first appearance
// in the whole text, whatever the number of workers.
type lexer struct {
	tok   tokenizer
	index map[string]int32
}

func newLexer(keepPunct bool) *lexer {
	return &lexer{tok: tokenizer{keepPunct: keepPunct}, index: map[string]int32{Start: idStart, End: idEnd, Unknown: idUnk}}
}

// lex tokenizes the rows [b.lo, b.hi) of texts into b, padded for n-grams
// of n words, skipping the rows Add skips: a missing class (y NaN, when
// target) or an empty text.
func (x *lexer) lex(b *block, texts []string, y []float64, target bool, n int) {
	b.seq, b.ends, b.class, b.fresh = b.seq[:0], b.ends[:0], b.class[:0], b.fresh[:0]
	for i := b.lo; i < b.hi; i++ {
		k := 0
		if target {
			if y == nil || math.IsNaN(y[i]) {
				continue
			}
			k = int(y[i])
		}
		doc := texts[i]
		if doc == "" {
			continue
		}
		for range n - 1 {
			b.seq = append(b.seq, idStart)
		}
		x.tok.scan(doc)
		for _, s := range x.tok.toks {
			id, ok := x.index[string(x.tok.buf[s.lo:s.hi])]
			if !ok {
				w := string(x.tok.buf[s.lo:s.hi])
				id = int32(len(x.index))
				x.index[w] = id
				b.fresh = append(b.fresh, w)
			}
			b.seq = append(b.seq, id)
		}
		b.seq = append(b.seq, idEnd)
		b.ends = append(b.ends, len(b.seq))
		b.class = append(b.class, k)
	}
}

// count adds the words that b's worker first met in b to the
// accumulator's (ids, in toGlobal, the worker's id to the accumulator's),
// and counts the n-grams of b's documents in their classes, a run of
// documents of one class at a time (at and hs: scratch).
func (a *Accumulator) count(b *block, toGlobal *[]int32, at *[]int, hs *[]uint64) {
	for _, w := range b.fresh {
		id, ok := a.index[w]
		if !ok {
			id = a.addWord(w)
		}
		*toGlobal = append(*toGlobal, id)
	}
	ids, seq, n := *toGlobal, b.seq, a.cfg.Order
	for p, id := range seq {
		seq[p] = ids[id]
	}
	start := 0
	for j := 0; j < len(b.ends); {
		k := b.class[j]
		*at = (*at)[:0]
		for ; j < len(b.ends) && b.class[j] == k; j++ {
			for p := start; p+n <= b.ends[j]; p++ {
				*at = append(*at, p)
			}
			a.docs[k]++
			start = b.ends[j]
		}
		if cap(*hs) < len(*at) {
			*hs = make([]uint64, len(*at))
		}
		a.grams[k].addAt(seq, *at, nil, 1, *hs, nil)
	}
}

// addTexts counts the n-grams of texts, each in its row's class (y, when
// target), on up to a.workers cores (0: all): workers tokenize blocks of
// rows, a block after another in turn, while this goroutine counts the
// blocks in their order.
func (a *Accumulator) addTexts(texts []string, y []float64, target bool) {
	type rows struct{ lo, hi int }
	var blocks []rows
	for lo := 0; lo < len(texts); {
		hi, b := lo, 0
		for hi < len(texts) && b < blockBytes {
			b += len(texts[hi])
			hi++
		}
		blocks = append(blocks, rows{lo, hi})
		lo = hi
	}
	P := a.workers
	if P <= 0 {
		P = runtime.GOMAXPROCS(0)
	}
	P = min(P, len(blocks))
	n, keep := a.cfg.Order, a.cfg.KeepPunct
	specials := []int32{idStart, idEnd, idUnk}
	var at []int
	var hs []uint64
	if P <= 1 {
		x, toGlobal := newLexer(keep), specials
		var b block
		for _, r := range blocks {
			b.lo, b.hi = r.lo, r.hi
			x.lex(&b, texts, y, target, n)
			a.count(&b, &toGlobal, &at, &hs)
		}
		return
	}
	// Worker w tokenizes blocks w, w+P, …, into the buffers of its free
	// channel, three in turn, and hands them over in its out channel.
	const buffers = 3
	out, free := make([]chan *block, P), make([]chan *block, P)
	for w := range P {
		out[w], free[w] = make(chan *block, buffers), make(chan *block, buffers)
		for range buffers {
			free[w] <- new(block)
		}
		go func() {
			x := newLexer(keep)
			for i := w; i < len(blocks); i += P {
				b := <-free[w]
				b.lo, b.hi = blocks[i].lo, blocks[i].hi
				x.lex(b, texts, y, target, n)
				out[w] <- b
			}
		}()
	}
	toGlobal := make([][]int32, P)
	for w := range toGlobal {
		toGlobal[w] = append([]int32(nil), specials...)
	}
	for i := range blocks {
		w := i % P
		b := <-out[w]
		a.count(b, &toGlobal[w], &at, &hs)
		free[w] <- b
	}
}
