package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/ngram"
)

// ngramReport is what inspect shows of a language model.
type ngramReport struct {
	Order      int                `json:"order"`
	Smoothing  string             `json:"smoothing"`
	Alpha      float64            `json:"alpha,omitempty"`
	MinCount   int                `json:"min_count"`
	KeepPunct  bool               `json:"keep_punct"`
	Vocabulary int                `json:"vocabulary"` // words, <unk> and </s>
	Classes    []ngramClassReport `json:"classes"`
}

type ngramClassReport struct {
	Class     string              `json:"class"`
	Documents int64               `json:"documents"`
	Orders    []ngram.OrderStats  `json:"orders"`
	Contexts  []ngramContinuation `json:"frequent_contexts"`
}

type ngramContinuation struct {
	Context []string  `json:"context"`
	Next    []string  `json:"next"`
	Prob    []float64 `json:"prob"`
}

// arpaReport is what inspect shows of an ARPA model: its order, the
// n-grams of each order and how it tokenizes documents.
type arpaReport struct {
	Order        int    `json:"order"`
	NGrams       []int  `json:"ngrams"`
	Tokenization string `json:"tokenization"`
}

func inspectARPA(a *ngram.ARPA) report {
	return &arpaReport{Order: a.Order(), NGrams: a.Size(), Tokenization: a.Tokenization()}
}

func (r *arpaReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "order: %d (a back-off model read from an ARPA file)\ntokenization: %s\n", r.Order, r.Tokenization)
	for k, n := range r.NGrams {
		fmt.Fprintf(w, "%d-grams: %d\n", k+1, n)
	}
	return nil
}

// inspectContexts and inspectNext are how many frequent contexts inspect
// shows per class, and how many continuations of each.
const inspectContexts, inspectNext = 5, 5

func inspectNgram(m gendisc.Model) report {
	lm := m.(*ngram.Model)
	c := lm.Config()
	r := &ngramReport{Order: c.Order, Smoothing: c.Smoothing.String(), MinCount: c.MinCount, KeepPunct: c.KeepPunct,
		Vocabulary: len(lm.Vocabulary()) - 1}
	if c.Smoothing == ngram.Lidstone {
		r.Alpha = c.Alpha
	}
	vocab := lm.Vocabulary()
	for k, name := range lm.Classes() {
		cr := ngramClassReport{Class: name, Documents: lm.Docs(k), Orders: lm.Stats(k)}
		var p []float64
		for _, ctx := range lm.FrequentContexts(k, inspectContexts) {
			p = lm.Next(p, k, ctx)
			idx := make([]int, len(p))
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int {
				switch {
				case p[a] > p[b]:
					return -1
				case p[a] < p[b]:
					return 1
				}
				return 0
			})
			cn := ngramContinuation{Context: ctx}
			for _, v := range idx[:min(inspectNext, len(idx))] {
				cn.Next, cn.Prob = append(cn.Next, vocab[v]), append(cn.Prob, p[v])
			}
			cr.Contexts = append(cr.Contexts, cn)
		}
		r.Classes = append(r.Classes, cr)
	}
	return r
}

func (r *ngramReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "Word %d-gram language model, %s smoothing", r.Order, r.Smoothing)
	if r.Smoothing == ngram.Lidstone.String() {
		fmt.Fprintf(w, " (α = %s)", num(r.Alpha))
	}
	fmt.Fprintf(w, "\n\n\tlog P(doc) = Σ_i log P(w_i | w_{i−%d} … w_{i−1}) over the words and </s>\n", r.Order-1)
	fmt.Fprintf(w, "\tvocabulary: %d (the words seen at least %s, <unk> and </s>); punctuation and case kept: %v\n", r.Vocabulary, count(r.MinCount, "time", "times"), r.KeepPunct)
	for _, c := range r.Classes {
		if c.Class != "" || len(r.Classes) > 1 {
			fmt.Fprintf(w, "\nclass %s", c.Class)
		}
		fmt.Fprintf(w, "\n%s\n", count(int(c.Documents), "document", "documents"))
		rows := [][]string{}
		for _, o := range c.Orders {
			row := []string{strconv.Itoa(o.Order), strconv.Itoa(o.NGrams), strconv.Itoa(o.Contexts)}
			for _, n := range o.Counts {
				row = append(row, strconv.FormatInt(n, 10))
			}
			if r.Smoothing == ngram.KneserNey.String() {
				row = append(row, num(o.Discount[0]), num(o.Discount[1]), num(o.Discount[2]))
			}
			rows = append(rows, row)
		}
		header := []string{"order", "n-grams", "contexts", "n1", "n2", "n3", "n4"}
		if r.Smoothing == ngram.KneserNey.String() {
			header = append(header, "D1", "D2", "D3+")
		}
		if err := writeTable(w, header, rows); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nmost probable continuations of the most frequent contexts\n")
		for _, cn := range c.Contexts {
			fmt.Fprintf(w, "  %s →", strings.Join(cn.Context, " "))
			for i, nx := range cn.Next {
				fmt.Fprintf(w, " %s (%s)", nx, num(cn.Prob[i]))
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}
