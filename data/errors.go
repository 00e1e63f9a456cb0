package data

import (
	"errors"
	"fmt"
)

// Errors wrapped in a ParseError.
var (
	ErrFieldCount    = errors.New("wrong number of fields")
	ErrNotNumber     = errors.New("not a number")
	ErrInfinite      = errors.New("infinite or out-of-range number")
	ErrEmpty         = errors.New("empty file")
	ErrNoRows        = errors.New("no data rows after the header")
	ErrNoColumn      = errors.New("no such column")
	ErrQuote         = errors.New("bad quoting")
	ErrEncoding      = errors.New("not valid UTF-8")
	ErrMissingTarget = errors.New("missing target value")
	ErrDuplicate     = errors.New("duplicate column name")
	ErrWeight        = errors.New("weight must be a finite number >= 0")
	ErrUnseenClass   = errors.New("class not among the schema's classes")
	ErrUnseenLevel   = errors.New("not a level of the model's column")
	// ErrNotClassification: a classifier's data set has no categorical
	// target (Dataset.CheckClassRows).
	ErrNotClassification = errors.New("not a classification data set: the target is not categorical")
)

// Errors of models about the cells of a data set.
var (
	// ErrMissing: a feature cell is missing where the model takes none
	// (MissingError).
	ErrMissing = errors.New("missing value")
	// ErrFeatureKind: a feature's kind does not suit the model
	// (KindError, when the model's package has no sentinel of its own).
	ErrFeatureKind = errors.New("unsuitable feature kind")
)

// MissingError is a missing feature cell given to a model that takes
// none, such as logistic or linear regression without Config.Impute. A
// model returns it inside a ParseError that names the source line; Row is
// the row's index in the data set, from 0. It wraps ErrMissing.
type MissingError struct {
	Column string // the feature's name
	Row    int    // the row's index in the data set, from 0
}

// missingAdvice ends the message of a MissingError.
const missingAdvice = "impute the missing cells first, or set Config.Impute to fill them with the training means"

func (e *MissingError) Error() string { return fmt.Sprintf("%v: %s", ErrMissing, missingAdvice) }

func (e *MissingError) Unwrap() error { return ErrMissing }

// KindError is a feature column whose kind the model does not take. A
// model returns it inside a ParseError that names the source and column.
// It wraps Err, the model package's sentinel such as
// naivebayes.ErrFeatureKind, or ErrFeatureKind.
type KindError struct {
	Column string // the feature's name
	Kind   Kind   // its kind
	Model  string // the model, such as "gaussian-nb"
	// Takes is what the model takes, with a remedy where there is one,
	// such as "numeric features only".
	Takes string
	Err   error
}

func (e *KindError) Error() string {
	return fmt.Sprintf("%v: the column is %v; %s takes %s", e.Err, e.Kind, e.Model, e.Takes)
}

func (e *KindError) Unwrap() error { return e.Err }

// ErrMostlyNumeric is wrapped by the warnings of Dataset.Source.Warnings about a
// column read as categorical although most of its cells are numbers.
var ErrMostlyNumeric = errors.New("read as categorical, though mostly numbers")

// ParseError is a data error positioned in its source, in the shape of
// encoding/csv's ParseError. Line and Column count from 1; 0 means not
// applicable. Column is the 1-based field index.
type ParseError struct {
	File       string // file name, "<stdin>", or the bundled data set's name
	Line       int    // line of the error
	Column     int    // field number, from 1
	ColumnName string // header name of that field, when known
	// RowGroup is, in a Parquet file, the row group of the row (from 1);
	// Line is then the row's number in the file (from 1), and Column 0.
	RowGroup int
	Err      error
}

func (e *ParseError) Error() string {
	pos := e.File
	if pos == "" {
		pos = "data"
	}
	if e.RowGroup > 0 {
		pos = fmt.Sprintf("%s: row group %d, row %d", pos, e.RowGroup, e.Line)
	} else if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d", pos, e.Line)
		if e.Column > 0 {
			pos = fmt.Sprintf("%s:%d", pos, e.Column)
		}
	}
	if e.ColumnName != "" {
		return fmt.Sprintf("%s: column %q: %v", pos, e.ColumnName, e.Err)
	}
	return fmt.Sprintf("%s: %v", pos, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }
