package gda

import "fmt"

// shrinkageAdvice ends the messages of TooFewRowsError and SingularError.
const shrinkageAdvice = "set Config.Shrinkage in (0, 1] or Config.ShrinkageAuto"

// otherModelAdvice ends the message of a TooFewRowsError that shrinkage
// cannot mend: a QDA class of fewer than 2 rows.
const otherModelAdvice = "fit LDA (one covariance matrix shared by the classes) or naive Bayes instead, or leave the class out"

// TooFewRowsError: too few rows to estimate a covariance matrix without
// shrinkage (Config.Shrinkage, Config.ShrinkageAuto), or, with shrinkage,
// a QDA class of fewer than 2 rows. Fit returns it inside a
// data.ParseError naming the source. It wraps ErrTooFewRows.
//
// Its message advises shrinkage when shrinkage can mend it
// (ShrinkageHelps), and otherwise LDA, naive Bayes or leaving the class
// out: the scatter of a class of one row is zero, and shrinking it toward
// its mean variance, zero too, leaves it singular.
type TooFewRowsError struct {
	Kind     string // KindLDA or KindQDA
	Class    string // QDA: the class with too few rows; "" for LDA
	Features int    // the number of features
	Classes  int    // LDA: the number of classes with rows; 0 for QDA
	Need     int    // the rows needed (in the class, for QDA)
	Have     int    // the rows there are (in the class, for QDA)
}

func (e *TooFewRowsError) Error() string {
	if e.Kind == KindLDA {
		return fmt.Sprintf("%v: lda with %d features and %d classes needs at least %d rows, have %d; %s",
			ErrTooFewRows, e.Features, e.Classes, e.Need, e.Have, shrinkageAdvice)
	}
	if !e.ShrinkageHelps() {
		return fmt.Sprintf("%v: qda needs at least 2 rows in every class, whatever the shrinkage, and class %q has %d; %s",
			ErrTooFewRows, e.Class, e.Have, otherModelAdvice)
	}
	return fmt.Sprintf("%v: qda needs at least %d rows in every class, class %q has %d; %s",
		ErrTooFewRows, e.Need, e.Class, e.Have, shrinkageAdvice)
}

// ShrinkageHelps reports whether shrinkage mends the error: always for
// LDA, and for QDA when the class has at least 2 rows.
func (e *TooFewRowsError) ShrinkageHelps() bool { return e.Kind == KindLDA || e.Have >= 2 }

func (e *TooFewRowsError) Unwrap() error { return ErrTooFewRows }

// SingularError: a covariance matrix is singular or not positive definite
// (collinear features, or too few rows), or a feature has zero variance.
// Shrinkage (Config.Shrinkage, Config.ShrinkageAuto) regularises the
// matrix. Fit returns it inside a data.ParseError naming the source, and
// the feature when there is one. It wraps ErrSingular.
type SingularError struct {
	Kind    string // KindLDA or KindQDA
	Class   string // QDA: the class whose covariance matrix is singular; "" for LDA's pooled matrix
	Feature string // the feature of zero variance, or "" when the matrix is singular otherwise
}

func (e *SingularError) Error() string {
	if e.Feature != "" {
		within := "within the classes"
		if e.Kind == KindQDA {
			within = fmt.Sprintf("within class %q", e.Class)
		}
		return fmt.Sprintf("%v: the feature has zero variance %s; drop it or %s", ErrSingular, within, shrinkageAdvice)
	}
	which := "the pooled covariance matrix"
	if e.Kind == KindQDA {
		which = fmt.Sprintf("the covariance matrix of class %q", e.Class)
	}
	return fmt.Sprintf("%v: %s is singular or not positive definite (collinear features, or too few rows); %s",
		ErrSingular, which, shrinkageAdvice)
}

func (e *SingularError) Unwrap() error { return ErrSingular }
