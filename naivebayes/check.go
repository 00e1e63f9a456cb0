package naivebayes

import (
	"errors"

	"github.com/gendisc/gendisc/data"
)

// Errors wrapped by the data errors of Fit and Update.
var (
	// ErrNotClassification: the data set has no categorical target
	// (data.ErrNotClassification).
	ErrNotClassification = data.ErrNotClassification
	// ErrOneClass: fewer than two classes have rows of positive weight.
	ErrOneClass = errors.New("fewer than two classes have rows: naive Bayes needs at least two")
	// ErrFeatureKind: a feature's kind does not suit the model.
	ErrFeatureKind = errors.New("unsuitable feature kind")
	// ErrNotObserved: a feature has no observed value in the labelled rows.
	ErrNotObserved = errors.New("no observed value in the labelled rows")
	// ErrZeroVariance: a fitted variance is zero.
	ErrZeroVariance = errors.New("zero variance")
	// ErrSchema: the data of an update, or the statistics of a merge, do
	// not match the model's schema (data.ErrSchema, wrapped by a
	// *data.SchemaError that names the column).
	ErrSchema = data.ErrSchema
)

// checkRows checks what every naive Bayes variant needs of training rows
// (data.Dataset.CheckClassRows).
func checkRows(d *data.Dataset) error { return d.CheckClassRows("naivebayes") }

// checkClasses returns ErrOneClass unless at least two classes have a
// positive total weight.
func checkClasses(source string, classWeight []float64) error {
	if !twoClasses(classWeight) {
		return &data.ParseError{File: source, Err: ErrOneClass}
	}
	return nil
}

// twoClasses reports whether at least two classes have a positive total
// weight.
func twoClasses(classWeight []float64) bool {
	n := 0
	for _, w := range classWeight {
		if w > 0 {
			n++
		}
	}
	return n >= 2
}

// columnError is a data error about feature j of schema s.
func columnError(source string, s *data.Schema, j int, err error) error {
	return &data.ParseError{File: source, ColumnName: s.Features[j].Name, Err: err}
}
