package gda

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestErrorTypes checks that the typed errors of Fit carry their fields,
// wrap the package's sentinels, and speak of Config, not of flags.
func TestErrorTypes(t *testing.T) {
	sonar := bundled.Load(t, "sonar", data.Options{})
	iono := bundled.Load(t, "ionosphere", data.Options{})
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
		want     any
		column   string
	}{
		{"qda too few rows", fitErr(QDAConfig{}.Fit(sonar.Subset(slices.Concat(seq(0, 40), seq(150, 208))))), ErrTooFewRows,
			TooFewRowsError{Kind: KindQDA, Class: "M", Features: 60, Need: 61, Have: 58}, ""},
		{"lda too few rows", fitErr(LDAConfig{}.Fit(sonar.Subset(slices.Concat(seq(0, 20), seq(150, 170))))), ErrTooFewRows,
			TooFewRowsError{Kind: KindLDA, Features: 60, Classes: 2, Need: 62, Have: 40}, ""},
		{"lda zero variance", fitErr(LDAConfig{}.Fit(iono)), ErrSingular,
			SingularError{Kind: KindLDA, Feature: "V2"}, "V2"},
		{"qda zero variance", fitErr(QDAConfig{}.Fit(bundled.Load(t, "ionosphere", data.Options{Ignore: []string{"V2"}}))), ErrSingular,
			SingularError{Kind: KindQDA, Class: "good", Feature: "V1"}, "V1"},
	} {
		if !errors.Is(tc.err, tc.sentinel) {
			t.Errorf("%s: error %v does not wrap %v", tc.name, tc.err, tc.sentinel)
			continue
		}
		var got any
		switch tc.want.(type) {
		case TooFewRowsError:
			var e *TooFewRowsError
			if errors.As(tc.err, &e) {
				got = *e
			}
		case SingularError:
			var e *SingularError
			if errors.As(tc.err, &e) {
				got = *e
			}
		}
		if got != tc.want {
			t.Errorf("%s: error %#v, want %#v", tc.name, got, tc.want)
		}
		var pe *data.ParseError
		if !errors.As(tc.err, &pe) || pe.ColumnName != tc.column {
			t.Errorf("%s: %v is not a ParseError of column %q", tc.name, tc.err, tc.column)
		}
		if msg := tc.err.Error(); !strings.Contains(msg, "Config.Shrinkage") || strings.Contains(msg, "--") {
			t.Errorf("%s: message %q does not advise Config.Shrinkage in library words", tc.name, msg)
		}
	}
	// A QDA class of one row cannot be mended by shrinkage: the message
	// says so and advises LDA, naive Bayes or leaving the class out, in
	// library words.
	one := bundled.Load(t, "iris", data.Options{}).Subset(seq(0, 101))
	for _, cfg := range []QDAConfig{{}, {Shrinkage: 0.5}, {ShrinkageAuto: true}} {
		err := fitErr(cfg.Fit(one))
		var e *TooFewRowsError
		if !errors.As(err, &e) || e.ShrinkageHelps() || e.Class != "Iris-virginica" || e.Have != 1 {
			t.Errorf("%+v: one-row class: error %v", cfg, err)
			continue
		}
		const want = `too few rows for a covariance matrix: qda needs at least 2 rows in every class, whatever the shrinkage, and class "Iris-virginica" has 1; ` +
			"fit LDA (one covariance matrix shared by the classes) or naive Bayes instead, or leave the class out"
		if msg := e.Error(); msg != want {
			t.Errorf("%+v: message %q, want %q", cfg, msg, want)
		}
	}
	if e := (&TooFewRowsError{Kind: KindQDA, Class: "a", Features: 3, Need: 4, Have: 2}); !e.ShrinkageHelps() {
		t.Errorf("%v: shrinkage mends a class of 2 rows", e)
	}

	// The message of a singular pooled matrix names no class.
	e := &SingularError{Kind: KindLDA}
	if want := "singular covariance matrix: the pooled covariance matrix is singular or not positive definite (collinear features, or too few rows); " +
		"set Config.Shrinkage in (0, 1] or Config.ShrinkageAuto"; e.Error() != want {
		t.Errorf("message %q, want %q", e.Error(), want)
	}
}

// fitErr returns the error of a Fit.
func fitErr[M any](_ M, err error) error { return err }

// TestFirstInf checks that firstInf returns the first infinite value of
// x when the cores search it in several blocks: with infinities in the
// last block and the first, the first block's; with none, −1.
func TestFirstInf(t *testing.T) {
	x := make([]float64, 5<<16+3)
	x[7] = math.NaN()
	if i := firstInf(x); i != -1 {
		t.Fatalf("firstInf without infinities = %d, want -1", i)
	}
	x[len(x)-2] = math.Inf(1)
	if i := firstInf(x); i != len(x)-2 {
		t.Fatalf("firstInf = %d, want %d", i, len(x)-2)
	}
	x[1<<16+5], x[3<<16] = math.Inf(-1), math.Inf(1)
	if i := firstInf(x); i != 1<<16+5 {
		t.Fatalf("firstInf = %d, want %d", i, 1<<16+5)
	}
}
