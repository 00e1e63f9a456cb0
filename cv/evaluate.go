package cv

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/metrics"
	"github.com/gendisc/gendisc/ngram"
)

// Report is the evaluation of a model on held-out rows, one of
// *metrics.Report (a classifier), *metrics.RegressionReport (a regressor)
// and *metrics.LanguageModelReport (a language model): the report of
// gendisc eval for the model's kind. It marshals to JSON as eval --json
// writes it.
type Report interface {
	Text(w io.Writer) error
}

// Evaluate evaluates m on the rows d, which must follow m's schema, as
// gendisc eval does: a language model (ngram.LanguageModel) with
// metrics.EvaluateLanguageModel, a classifier with metrics.Evaluate and a
// regressor with metrics.Regression of its predictions. A row without its
// target is an error positioned at the row; so is a prediction that is
// not finite. A model of another kind (a clustering) is an error.
func Evaluate(m gendisc.Model, d *data.Dataset) (Report, error) {
	if lm, ok := m.(ngram.LanguageModel); ok {
		return metrics.EvaluateLanguageModel(lm, d)
	}
	if c, ok := m.(gendisc.Classifier); ok {
		return metrics.Evaluate(c, d)
	}
	r, ok := m.(gendisc.Regressor)
	if _, clusters := m.(gendisc.Clusterer); !ok || clusters {
		return nil, fmt.Errorf("cv: a %s model neither classifies nor predicts a number: it has no held-out metrics", m.Kind())
	}
	if d.Y == nil {
		return nil, fmt.Errorf("cv: %s: no target column", d.Source)
	}
	for i, y := range d.Y {
		if math.IsNaN(y) {
			return nil, d.RowError(i, "%w: cross-validation needs the true value of every row", data.ErrMissingTarget)
		}
	}
	rep, err := metrics.Regression(d.Y, r.Predict(nil, d), d.Weight)
	var re *metrics.RowError
	if errors.As(err, &re) {
		return nil, d.RowError(re.Row, "%w", re.Err)
	}
	return rep, err
}
