package design

import (
	"errors"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
)

// TestErrorTypes checks the typed errors of Fit: a missing cell names its
// column and row, a text column its kind, and neither names a flag.
func TestErrorTypes(t *testing.T) {
	_, err := Fit(testData(), Options{})
	var me *data.MissingError
	if !errors.As(err, &me) || *me != (data.MissingError{Column: "color", Row: 2}) || !errors.Is(err, data.ErrMissing) {
		t.Errorf("missing cell: %#v, want a MissingError of color in row 2", err)
	}
	if msg := err.Error(); msg != `t.csv:4: column "color": missing value: impute the missing cells first, or set Config.Impute to fill them with the training means` {
		t.Errorf("missing cell: message %q", msg)
	}

	s := &data.Schema{Features: []data.Column{{Name: "x", Kind: data.Numeric}, {Name: "note", Kind: data.Text}}}
	d := &data.Dataset{Schema: s, N: 1, Source: data.Named("t.csv"), X: []float64{1, 0}, Text: [][]string{nil, {"hello"}}}
	_, err = Fit(d, Options{})
	var ke *data.KindError
	want := data.KindError{Column: "note", Kind: data.Text, Model: "this model",
		Takes: "numeric and categorical features only (leave the column out: dataio.Options.Ignore)", Err: data.ErrFeatureKind}
	var pe *data.ParseError
	if !errors.As(err, &ke) || *ke != want || !errors.Is(err, data.ErrFeatureKind) || !errors.As(err, &pe) || pe.ColumnName != "note" {
		t.Fatalf("text column: %#v, want %#v", err, want)
	}
	if msg := err.Error(); strings.Contains(msg, "--") {
		t.Errorf("text column: message %q names a flag", msg)
	}
}
