package metrics

import (
	"cmp"
	"math"
	"slices"
)

// scored is a row seen by a ROC curve: its score, weight and whether it is
// a positive.
type scored struct {
	score, w float64
	pos      bool
}

// aucScorer computes the one-vs-rest ROC AUC of each class of one set of
// true classes, reusing one buffer.
type aucScorer struct {
	y        []int
	weight   []float64
	buf      []scored
	pos, neg []float64 // the scores of unweighted
	keys     []uint64  // sortFloats' scratch
}

func newAUC(y []int, weight []float64) *aucScorer {
	return &aucScorer{y: y, weight: weight, buf: make([]scored, len(y))}
}

// oneVsRest returns the ROC AUC of the probabilities of class k (column k of
// the row-major proba with K columns) as scores for "y_i = k".
func (a *aucScorer) oneVsRest(proba []float64, K, k int) float64 {
	if a.weight == nil {
		if auc, ok := a.unweighted(proba, K, k); ok {
			return auc
		}
	}
	for i, yi := range a.y {
		a.buf[i] = scored{score: proba[i*K+k], w: weightOf(a.weight, i), pos: yi == k}
	}
	return rocAUC(a.buf)
}

// rocAUC returns the area under the ROC curve of rows (which it sorts), NaN
// when the positives or the negatives have no weight. Walking the scores
// from the highest down, each group of tied scores moves the curve from
// (FP, TP) to (FP + fp, TP + tp), fp and tp the weights of the group's
// negatives and positives, and adds the trapezoid under that segment:
//
//	AUC = Σ_groups fp (TP + tp/2) / (P N),
//
// P and N the total weights of positives and negatives. Without weights
// this is the Mann–Whitney U / (P N) with tied scores counting one half.
func rocAUC(rows []scored) float64 {
	slices.SortFunc(rows, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	var tp, fp, area float64
	for i := 0; i < len(rows); {
		tp0, fp0 := tp, fp
		s := rows[i].score
		for ; i < len(rows) && rows[i].score == s; i++ {
			if rows[i].pos {
				tp += rows[i].w
			} else {
				fp += rows[i].w
			}
		}
		area += (fp - fp0) * (tp + tp0) / 2
	}
	if tp == 0 || fp == 0 {
		return math.NaN()
	}
	return area / (tp * fp)
}

// unweighted is oneVsRest for rows without weights, by the Mann–Whitney
// count: the positives' and the negatives' scores are sorted apart (a
// radix sort of plain float64 values, sortFloats, many times faster than
// rocAUC's sort of rows) and
//
//	AUC = Σ_positives (#{negatives below} + ½ #{negatives tied}) / (P N).
//
// The sum is of integers and halves, exact below 2⁵³, so it equals
// rocAUC's to the last bit. It reports false, leaving the rows to rocAUC,
// when a score is NaN.
func (a *aucScorer) unweighted(proba []float64, K, k int) (float64, bool) {
	pos, neg := a.pos[:0], a.neg[:0]
	for i, yi := range a.y {
		s := proba[i*K+k]
		if math.IsNaN(s) {
			return 0, false
		}
		if yi == k {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	a.pos, a.neg = pos, neg
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN(), true
	}
	a.keys = sortFloats(pos, a.keys)
	a.keys = sortFloats(neg, a.keys)
	var area float64
	below := 0 // negatives below the current score
	for i := 0; i < len(pos); {
		s, count := pos[i], 0
		for ; i < len(pos) && pos[i] == s; i++ {
			count++
		}
		for below < len(neg) && neg[below] < s {
			below++
		}
		tied := 0
		for below+tied < len(neg) && neg[below+tied] == s {
			tied++
		}
		area += float64(count) * (float64(below) + float64(tied)/2)
	}
	return area / (float64(len(pos)) * float64(len(neg))), true
}
