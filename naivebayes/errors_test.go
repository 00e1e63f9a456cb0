package naivebayes

import (
	"errors"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
)

// read reads a CSV data set from text.
func read(t *testing.T, csv string, opt dataio.Options) *data.Dataset {
	t.Helper()
	d, err := dataio.Read(strings.NewReader(csv), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestErrorTypes checks that the typed errors of the fits carry their
// fields, wrap the package's sentinels, sit in a ParseError naming the
// column, and name no flag.
func TestErrorTypes(t *testing.T) {
	numeric := read(t, "n,class\n1,a\n2,b\n-3,a\n4,b\n", dataio.Options{})
	mixed := read(t, "n,c,class\n1,u,a\n2,v,b\n3,u,a\n4,v,b\n", dataio.Options{})
	constantInA := read(t, "x,class\n1,a\n1,a\n2,b\n3,b\n", dataio.Options{})
	constant := read(t, "x,class\n1,a\n1,a\n1,b\n1,b\n", dataio.Options{})
	for _, tc := range []struct {
		name     string
		err      error
		sentinel error
		want     any
		column   string
	}{
		{"categorical-nb on a numeric column", fitErr(Config{Family: Categorical}.Fit(numeric)), ErrFeatureKind,
			data.KindError{Column: "n", Kind: data.Numeric, Model: "categorical-nb",
				Takes: "categorical columns only (read integer codes as categorical: dataio.Options.Categorical)", Err: ErrFeatureKind}, "n"},
		{"gaussian-nb on a categorical column", fitErr(GaussianConfig{}.Fit(mixed)), ErrFeatureKind,
			data.KindError{Column: "c", Kind: data.Categorical, Model: "gaussian-nb",
				Takes: "numeric features only (mixed naive Bayes, Config{Family: Mixed}, takes every kind)", Err: ErrFeatureKind}, "c"},
		{"negative count", fitErr(Config{Family: Multinomial}.Fit(numeric)), ErrNegativeCount,
			NegativeCountError{Column: "n", Row: 2, Value: -3, Model: "multinomial"}, "n"},
		{"zero variance in a class", fitErr(GaussianConfig{VarSmoothing: NoVarSmoothing}.Fit(constantInA)), ErrZeroVariance,
			ZeroVarianceError{Column: "x", Class: "a", Variance: ClassFeatureVariance}, "x"},
		{"every feature constant", fitErr(GaussianConfig{}.Fit(constant)), ErrZeroVariance,
			ZeroVarianceError{Column: "x", AllConstant: true, Variance: ClassFeatureVariance}, "x"},
	} {
		if !errors.Is(tc.err, tc.sentinel) {
			t.Errorf("%s: error %v does not wrap %v", tc.name, tc.err, tc.sentinel)
			continue
		}
		var got any
		switch tc.want.(type) {
		case data.KindError:
			var e *data.KindError
			if errors.As(tc.err, &e) {
				got = *e
			}
		case NegativeCountError:
			var e *NegativeCountError
			if errors.As(tc.err, &e) {
				got = *e
			}
		case ZeroVarianceError:
			var e *ZeroVarianceError
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
		if strings.Contains(tc.err.Error(), "--") {
			t.Errorf("%s: message %q names a flag", tc.name, tc.err)
		}
	}
}

// TestImpossibleError checks the row and the advice of the error of
// Model.Impossible.
func TestImpossibleError(t *testing.T) {
	d := read(t, "c,e,class\nu,w,a\nv,x,b\n", dataio.Options{})
	m, err := Config{Family: Categorical, Alpha: NoAlpha}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	q := &data.Dataset{Schema: d.Schema, N: 3, X: []float64{0, 0, 1, 1, 0, 1}, Source: data.Provenance{Name: "q.csv", Lines: []int{2, 3, 4}}}
	err = m.Impossible(q)
	var e *ImpossibleError
	var pe *data.ParseError
	if !errors.As(err, &e) || e.Row != 2 || !errors.As(err, &pe) || pe.Line != 4 || !errors.Is(err, ErrImpossible) {
		t.Fatalf("Impossible: %#v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "set Config.Alpha > 0") || strings.Contains(msg, "--") {
		t.Errorf("message %q does not advise Config.Alpha", msg)
	}
}

// fitErr returns the error of a Fit.
func fitErr[M any](_ M, err error) error { return err }
