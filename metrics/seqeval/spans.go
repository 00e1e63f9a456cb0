package seqeval

import (
	"slices"
	"strings"
)

// SpanReport is the span-level evaluation of BIO/IOB tags, as conlleval.
type SpanReport struct {
	// True counts the spans of the truth, Predicted those of the
	// predictions, Correct those predicted with the same boundaries and
	// type.
	True, Predicted, Correct int
	Precision, Recall, F1    float64 // Correct/Predicted, Correct/True; 0 for 0/0, as conlleval
	// Types are the span types, sorted, with their own figures.
	Types []SpanMetrics
}

// SpanMetrics are the span figures of one type.
type SpanMetrics struct {
	Type                     string
	True, Predicted, Correct int
	Precision, Recall, F1    float64
}

// splitTag splits a tag as conlleval does: "B-PER" into "B" and "PER"
// at the first '-', a tag without '-' (such as "O") into itself and "".
func splitTag(t string) (prefix, typ string) {
	prefix, typ, _ = strings.Cut(t, "-")
	return prefix, typ
}

// endOfChunk reports whether a span ends between a token tagged prev
// (of type prevType) and one tagged tag (of type typ): conlleval's
// endOfChunk, for IOB1, IOB2 (BIO) and IOE tags.
func endOfChunk(prev, tag, prevType, typ string) bool {
	switch {
	case prev == "B" && (tag == "B" || tag == "O"),
		prev == "I" && (tag == "B" || tag == "O"),
		prev == "E" && (tag == "E" || tag == "I" || tag == "O"),
		prev != "O" && prev != "." && prevType != typ,
		prev == "]" || prev == "[":
		return true
	}
	return false
}

// startOfChunk reports whether a span starts at a token tagged tag after
// one tagged prev: conlleval's startOfChunk.
func startOfChunk(prev, tag, prevType, typ string) bool {
	switch {
	case tag == "B" && (prev == "B" || prev == "I" || prev == "O"),
		prev == "O" && (tag == "I" || tag == "E"),
		prev == "E" && (tag == "E" || tag == "I"),
		tag != "O" && tag != "." && prevType != typ,
		tag == "[" || tag == "]":
		return true
	}
	return false
}

// Spans evaluates the spans of predicted tags against the true ones
// (see Evaluate for the layout) as conlleval does: a span is correct
// when it starts and ends at the same tokens in both and has the same
// type; a sentence's end ends every span. It returns an error wrapping
// ErrLength for predictions that do not line up.
func Spans(truth, pred [][]string) (*SpanReport, error) {
	if err := lineUp(truth, pred); err != nil {
		return nil, err
	}
	type counts struct{ true, predicted, correct int }
	byType := map[string]*counts{}
	of := func(t string) *counts {
		if byType[t] == nil {
			byType[t] = &counts{}
		}
		return byType[t]
	}
	var total counts
	inCorrect := false
	lastT, lastP, lastTType, lastPType := "O", "O", "", ""
	step := func(t, p string) {
		tTag, tType := splitTag(t)
		pTag, pType := splitTag(p)
		if inCorrect {
			endT := endOfChunk(lastT, tTag, lastTType, tType)
			endP := endOfChunk(lastP, pTag, lastPType, pType)
			if endT && endP && lastPType == lastTType {
				inCorrect = false
				total.correct++
				of(lastTType).correct++
			} else if endT != endP || pType != tType {
				inCorrect = false
			}
		}
		startT := startOfChunk(lastT, tTag, lastTType, tType)
		startP := startOfChunk(lastP, pTag, lastPType, pType)
		if startT && startP && pType == tType {
			inCorrect = true
		}
		if startT {
			total.true++
			of(tType).true++
		}
		if startP {
			total.predicted++
			of(pType).predicted++
		}
		lastT, lastP, lastTType, lastPType = tTag, pTag, tType, pType
	}
	for i := range truth {
		for j := range truth[i] {
			step(truth[i][j], pred[i][j])
		}
		step("O", "O") // the sentence's end, as conlleval's boundary line
	}
	if inCorrect {
		total.correct++
		of(lastTType).correct++
	}
	r := &SpanReport{True: total.true, Predicted: total.predicted, Correct: total.correct}
	r.Precision, r.Recall = ratioOr0(r.Correct, r.Predicted), ratioOr0(r.Correct, r.True)
	r.F1 = f1(r.Precision, r.Recall)
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, t := range types {
		c := byType[t]
		m := SpanMetrics{Type: t, True: c.true, Predicted: c.predicted, Correct: c.correct,
			Precision: ratioOr0(c.correct, c.predicted), Recall: ratioOr0(c.correct, c.true)}
		m.F1 = f1(m.Precision, m.Recall)
		r.Types = append(r.Types, m)
	}
	return r, nil
}

// ratioOr0 returns a/b, 0 for b = 0 (conlleval's convention).
func ratioOr0(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
