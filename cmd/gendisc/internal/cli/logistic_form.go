package cli

import (
	"fmt"
	"io"

	"github.com/gendisc/gendisc/modelfile"
)

// logisticForm is the logistic form of a two-class generative model whose
// log-odds are linear in x (LDA, Gaussian naive Bayes with variances
// shared by the classes), as inspect shows it:
//
//	P(y = class 1 | x) = σ(wᵀx + w0),  σ(t) = 1/(1 + e^(−t))
type logisticForm struct {
	Positive string           `json:"positive"` // class 1
	Negative string           `json:"negative"` // class 0
	W        modelfile.Floats `json:"w"`        // one weight per feature
	W0       modelfile.Float  `json:"w0"`
	features []string
	formula  string // how w and w0 follow from the parameters
}

func (f *logisticForm) writeText(w io.Writer) error {
	fmt.Fprintf(w, "\nlogistic form: P(y = %s | x) = σ(wᵀx + w0), σ(t) = 1/(1 + e^(−t))\n\n\t%s\n\n", f.Positive, f.formula)
	rows := [][]string{{"(w0)", num(float64(f.W0))}}
	for j, name := range f.features {
		rows = append(rows, []string{name, num(f.W[j])})
	}
	return writeTable(w, []string{"feature", "w"}, rows)
}
