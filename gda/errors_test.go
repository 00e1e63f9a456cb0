package gda

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/bundled"
)

// TestErrorTypes checks that the typed errors of Fit carry their fields,
// wrap the package's sentinels, and speak of Config, not of flags.
func TestErrorTypes(t *testing.T) {
	sonar := bundled.Load(t, "sonar", dataio.Options{})
	iono := bundled.Load(t, "ionosphere", dataio.Options{})
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
		{"qda zero variance", fitErr(QDAConfig{}.Fit(bundled.Load(t, "ionosphere", dataio.Options{Ignore: []string{"V2"}}))), ErrSingular,
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
	one := bundled.Load(t, "iris", dataio.Options{}).Subset(seq(0, 101))
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

// TestAddInfiniteKeepsAccumulator checks that rows with an infinite cell,
// refused with the cell's line and column, leave an accumulator as it
// was, also when they bring new classes (the line of an error is checked
// on a file in TestErrors); the finite rows then add as to
// an accumulator that never saw them.
func TestAddInfiniteKeepsAccumulator(t *testing.T) {
	first := matrix([]string{"a", "b"}, [][]float64{{1, 2}, {2, 1}, {3, 5}, {1, 1}, {4, 2}, {2, 3}}, []int{0, 0, 0, 1, 1, 1})
	rows := [][]float64{{5, 1}, {1, 4}, {2, 2}, {3, 3}, {4, 4}, {0, 1}, {2, 5}}
	more := matrix([]string{"b", "c"}, rows, []int{0, 1, 1, 1, 0, 1, -1})
	bad := matrix([]string{"b", "c"}, rows, []int{0, 1, 1, 1, 0, 1, -1})
	bad.X[5*2+1] = math.Inf(-1)
	bad.X[6*2] = math.Inf(1) // unlabelled: after the first
	for _, kind := range []string{KindLDA, KindQDA} {
		a, want := newAcc(t, kind, Config{Shrinkage: 0.1}), newAcc(t, kind, Config{Shrinkage: 0.1})
		for _, x := range []*Accumulator{a, want} {
			if err := x.Add(first); err != nil {
				t.Fatal(err)
			}
		}
		before, _ := a.MarshalBinary()
		err := a.Add(bad)
		var pe *data.ParseError
		if !errors.Is(err, data.ErrInfinite) || !errors.As(err, &pe) || pe.Line != bad.Line(5) || pe.ColumnName != "x1" {
			t.Fatalf("%s: error %v, want an infinite cell in row 5, x1", kind, err)
		}
		if after, _ := a.MarshalBinary(); !slices.Equal(after, before) {
			t.Fatalf("%s: the refused rows changed the accumulator", kind)
		}
		for _, x := range []*Accumulator{a, want} {
			if err := x.Add(more); err != nil {
				t.Fatal(err)
			}
		}
		ja, _ := a.MarshalBinary()
		jw, _ := want.MarshalBinary()
		if !slices.Equal(ja, jw) {
			t.Fatalf("%s: rows added after the refusal differ", kind)
		}
	}
}
