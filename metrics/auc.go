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
	y      []int
	weight []float64
	buf    []scored
}

func newAUC(y []int, weight []float64) *aucScorer {
	return &aucScorer{y: y, weight: weight, buf: make([]scored, len(y))}
}

// oneVsRest returns the ROC AUC of the probabilities of class k (column k of
// the row-major proba with K columns) as scores for "y_i = k".
func (a *aucScorer) oneVsRest(proba []float64, K, k int) float64 {
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
