package seqeval

// Average is a precision, recall and F1 averaged over the tags.
type Average struct {
	Precision, Recall, F1 float64
}

// Macro returns the unweighted mean over the tags of their precision,
// recall and F1, as scikit-learn's precision_recall_fscore_support with
// average="macro" and its default labels and zero_division: over the tags
// that occur in the truth or the predictions (a tag of PerTag with
// neither support nor predictions, which a report of several folds may
// list, is left out), a precision or recall of 0/0 counting as 0, the F1
// of each tag being 2PR/(P+R) of those (0 when both are 0). NaN for a
// report without tokens.
func (r *Report) Macro() Average {
	var sum Average
	n := 0
	for i, m := range r.PerTag {
		predicted := 0
		for j := range r.Confusion {
			predicted += r.Confusion[j][i]
		}
		if m.Support == 0 && predicted == 0 {
			continue
		}
		p, rc := ratioOr0(r.Confusion[i][i], predicted), ratioOr0(r.Confusion[i][i], m.Support)
		sum.Precision += p
		sum.Recall += rc
		sum.F1 += f1(p, rc)
		n++
	}
	if n == 0 {
		nan := ratio(0, 0)
		return Average{nan, nan, nan}
	}
	return Average{sum.Precision / float64(n), sum.Recall / float64(n), sum.F1 / float64(n)}
}

// Micro returns the precision, recall and F1 of the tokens pooled over the
// tags: Σ true positives over Σ predictions and over Σ support. Every token
// has one true tag and one predicted, so all three equal the token
// accuracy; NaN for a report without tokens.
func (r *Report) Micro() Average {
	a := ratio(r.Correct, r.Tokens)
	return Average{a, a, a}
}
