package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/naivebayes"
)

// A hint is the command line's spelling of a remedy that a library error
// gives in the library's words (a Config field, a dataio.Options field).
type hint struct {
	lib string // the remedy as the library's message words it
	// flags returns the remedy in flags when err holds an error of the
	// hint's kind.
	flags func(err error) (string, bool)
}

// hints are the remedies of library errors that flags apply.
var hints = []hint{
	{"impute the missing cells first, or set Config.Impute to fill them with the training means", func(err error) (string, bool) {
		var e *data.MissingError
		return "fill missing cells with `gendisc impute` or fit with --impute mean", errors.As(err, &e)
	}},
	kindRemedy("(leave the column out: dataio.Options.Ignore)", func(column string) string {
		return "(leave it out with --ignore " + column + ")"
	}),
	kindRemedy("(read integer codes as categorical: dataio.Options.Categorical)", func(column string) string {
		return "(force integer codes with --categorical " + column + ")"
	}),
	kindRemedy("(mixed naive Bayes, Config{Family: Mixed}, takes every kind)", func(string) string {
		return "(use --model nb, mixed naive Bayes)"
	}),
	{"set Config.Shrinkage in (0, 1] or Config.ShrinkageAuto", func(err error) (string, bool) {
		var s *gda.SingularError
		var r *gda.TooFewRowsError
		return "use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto)", errors.As(err, &s) || errors.As(err, &r) && r.ShrinkageHelps()
	}},
	{"fit LDA (one covariance matrix shared by the classes) or naive Bayes instead, or leave the class out", func(err error) (string, bool) {
		var r *gda.TooFewRowsError
		return "use --model lda (one covariance matrix shared by the classes) or --model nb, or leave the class's rows out of the data",
			errors.As(err, &r) && !r.ShrinkageHelps()
	}},
	{"(name it in Options.Numeric or Options.Categorical, or in Options.Ignore)", func(err error) (string, bool) {
		var pe *data.ParseError
		if !errors.Is(err, dataio.ErrParquetType) || !errors.As(err, &pe) || pe.ColumnName == "" {
			return "", false
		}
		col := pe.ColumnName
		return "(name it in --numeric " + col + " or --categorical " + col + ", or --ignore " + col + ")",
			strings.Contains(err.Error(), "(name it in Options.Numeric or Options.Categorical, or in Options.Ignore)")
	}},
	{"(raise Limits.MaxRecord)", func(err error) (string, bool) {
		return "(raise the limit with --max-record SIZE, such as --max-record 1GiB)", errors.Is(err, dataio.ErrTooLong)
	}},
	{"(raise Limits.MaxMemory, or read the file in chunks with ReadChunks)", func(err error) (string, bool) {
		var s *streamable
		switch {
		case errors.As(err, &s) && s.streaming:
			return "(raise the budget with --max-memory SIZE)", true
		case errors.As(err, &s):
			return "(fit --stream reads the data in chunks, in memory that does not grow with the file; or raise the budget with --max-memory SIZE)", true
		}
		return "(this command holds all the data in memory: give it smaller files, or raise the budget with --max-memory SIZE)", errors.Is(err, dataio.ErrMemory)
	}},
	{"set Config.Alpha > 0", func(err error) (string, bool) {
		return "use --alpha > 0", errors.Is(err, naivebayes.ErrImpossible)
	}},
}

// kindRemedy is the hint for a data.KindError whose Takes holds the remedy
// lib; flags spells it for the error's column.
func kindRemedy(lib string, flags func(column string) string) hint {
	return hint{lib, func(err error) (string, bool) {
		var e *data.KindError
		if !errors.As(err, &e) || !strings.Contains(e.Takes, lib) {
			return "", false
		}
		return flags(e.Column), true
	}}
}

// hinted returns the message of err as the command line prints it: on one
// line (oneLine), with each remedy that the library words in terms of
// its API replaced by the flags that apply it, or, when the message does
// not hold the library's words, followed by them in parentheses.
func hinted(err error) string {
	msg := oneLine(err.Error())
	for _, h := range hints {
		flags, ok := h.flags(err)
		switch {
		case !ok:
		case strings.Contains(msg, h.lib):
			msg = strings.Replace(msg, h.lib, flags, 1)
		case strings.HasPrefix(flags, "("):
			msg += " " + flags
		default:
			msg += " (" + flags + ")"
		}
	}
	return msg
}

// kindHint adds to err, a model's refusal of a categorical feature column
// of d, what can work: --numeric when reading d found the column mostly
// numbers (naming its first cell that is not), --ignore, and, unless the
// model's message names one, the kinds that take categorical columns.
// --numeric is not offered for a column of words: it would fail on them.
func kindHint(err error, d *data.Dataset) error {
	var pe *data.ParseError
	if !errors.As(err, &pe) || pe.ColumnName == "" || pe.Column != 0 || !isKindError(err) {
		return err
	}
	if j := d.Schema.Feature(pe.ColumnName); j < 0 || d.Schema.Features[j].Kind != data.Categorical {
		return err
	}
	col := pe.ColumnName
	for _, w := range d.Source.Warnings {
		var wp *data.ParseError
		if errors.As(w, &wp) && errors.Is(w, data.ErrMostlyNumeric) && wp.ColumnName == col {
			return fmt.Errorf("%w (%s:%d:%d is the first cell of %q that is not a number; --numeric %s reads the column as numbers, --ignore %[5]s leaves it out)",
				err, wp.File, wp.Line, wp.Column, col, col)
		}
	}
	var ke *data.KindError
	if errors.As(err, &ke) && strings.Contains(ke.Takes, "(") {
		// The model's message gives the kinds that take the column.
		return fmt.Errorf("%w (or leave the column out with --ignore %s)", err, col)
	}
	return fmt.Errorf("%w (leave the column out with --ignore %s, or use a kind that takes categorical columns: --model nb or --model logistic)", err, col)
}

// isKindError reports whether err is a model's refusal of a feature
// column's kind.
func isKindError(err error) bool {
	return errors.Is(err, data.ErrFeatureKind) || errors.Is(err, gda.ErrFeatureKind) || errors.Is(err, naivebayes.ErrFeatureKind)
}
