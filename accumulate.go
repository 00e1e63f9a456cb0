package gendisc

import (
	"errors"
	"fmt"

	"github.com/gendisc/gendisc/data"
)

// ErrMerge is wrapped by every *MergeError: statistics that cannot be
// merged (errors.Is(err, ErrMerge)).
var ErrMerge = errors.New("cannot merge the statistics")

// MergeError is the refusal of an Accumulator's Merge, or of its
// UnmarshalBinary, of statistics gathered under another kind,
// configuration or shape: Package is the package of the accumulator that
// refuses ("naivebayes", "gda", "ngram", "linear", "logistic"; the
// families of one kind name it by their Kind, which is their package's
// name), Kind the kind of its
// model, Other the other's kind (its Go type for an accumulator of
// another package, its quoted kind for an encoding), Reason what differs.
// It reads
//
//	naivebayes: cannot merge the statistics of nb into nb: other settings: …
//
// A refused merge leaves both accumulators unchanged.
type MergeError struct {
	Package, Kind, Other string
	Reason               string
}

func (e *MergeError) Error() string {
	return fmt.Sprintf("%s: %v of %s into %s: %s", e.Package, ErrMerge, e.Other, e.Kind, e.Reason)
}

// Unwrap returns ErrMerge.
func (e *MergeError) Unwrap() error { return ErrMerge }

// Labelled returns d without its rows whose target is missing (NaN: an
// empty target cell, or a regression's target value that is not there),
// and how many it left out, so that the caller can say so. It is the one
// rule for unlabelled rows of every fit that learns from the target (a
// clustering, which leaves the target out, keeps them). d itself is
// returned when every row is labelled or d has no target.
func Labelled(d *data.Dataset) (*data.Dataset, int) {
	if d.Y == nil {
		return d, 0
	}
	var keep []int
	for i, y := range d.Y {
		if y == y {
			keep = append(keep, i)
		}
	}
	if len(keep) == d.N {
		return d, 0
	}
	return d.Subset(keep), d.N - len(keep)
}

// FoldLabels returns, for a FoldAdder, the labels that put row i of d in
// class fold[i]·K + y_i of K·folds classes (K the classes of d's schema,
// y_i its class, d.Y[i]): statistics per class of those labels hold, in
// their classes f·K to f·K + K − 1, the statistics of fold f's rows. A row
// without its class keeps NaN. fold must hold d.N numbers in [0, folds),
// an error otherwise; d.Y must hold class indices (the accumulator checks
// its rows first).
func FoldLabels(d *data.Dataset, fold []int, folds int) ([]float64, error) {
	if len(fold) != d.N || len(d.Y) != d.N {
		return nil, fmt.Errorf("%s: %d fold numbers and %d labels for %d rows", d.Source.Name, len(fold), len(d.Y), d.N)
	}
	k := float64(len(d.Schema.Classes()))
	y := make([]float64, d.N)
	for i, f := range fold {
		if f < 0 || f >= folds {
			return nil, d.RowError(i, "fold %d, want 0 to %d", f, folds-1)
		}
		y[i] = float64(f)*k + d.Y[i]
	}
	return y, nil
}
