package naivebayes

import "fmt"

// ImpossibleError is a row for which every class has probability 0 under
// a model with α = 0 (Model.Impossible). It comes inside a
// data.ParseError naming the source line; Row is the row's index in the
// data set, from 0. It wraps ErrImpossible.
type ImpossibleError struct {
	Row int
}

func (e *ImpossibleError) Error() string { return ErrImpossible.Error() }

func (e *ImpossibleError) Unwrap() error { return ErrImpossible }

// ZeroVarianceError is a fitted variance of zero, possible only without
// smoothing (GaussianConfig.VarSmoothing). It comes inside a
// data.ParseError naming the source and the column. It wraps
// ErrZeroVariance.
type ZeroVarianceError struct {
	Column string // the feature; the first one when every feature is constant
	// Class is the class within which the variance is zero; "" when the
	// variance is tied across the classes (FeatureVariance,
	// SharedVariance) or every feature is constant.
	Class       string
	AllConstant bool     // every feature is constant
	Variance    Variance // the variance tying of the model
}

func (e *ZeroVarianceError) Error() string {
	if e.AllConstant {
		return fmt.Sprintf("%v: every feature is constant", ErrZeroVariance)
	}
	where := "within every class"
	if e.Class != "" {
		where = fmt.Sprintf("within class %q", e.Class)
	}
	return fmt.Sprintf("%v %s (%v variance tying, no var smoothing)", ErrZeroVariance, where, e.Variance)
}

func (e *ZeroVarianceError) Unwrap() error { return ErrZeroVariance }

// NegativeCountError is a negative value in a count feature of
// multinomial or complement naive Bayes. It comes inside a
// data.ParseError naming the source line and column; Row is the row's
// index in the data set, from 0. It wraps ErrNegativeCount.
type NegativeCountError struct {
	Column string  // the feature
	Row    int     // the row's index in the data set, from 0
	Value  float64 // the negative value
	Model  string  // "multinomial" or "complement"
}

func (e *NegativeCountError) Error() string {
	return fmt.Sprintf("%v: %v; %s naive Bayes takes counts ≥ 0", ErrNegativeCount, e.Value, e.Model)
}

func (e *NegativeCountError) Unwrap() error { return ErrNegativeCount }
