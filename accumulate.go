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
// refuses ("naivebayes", "gda", "ngram", "linear"), Kind the kind of its
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
