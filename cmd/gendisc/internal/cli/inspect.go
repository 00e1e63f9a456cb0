package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/hmm"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/logistic"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/ngram"
)

var cmdInspect = &Command{
	Name:      "inspect",
	UsageLine: "inspect --model M.json [--json]",
	Short:     "print the fitted parameters of a model",
	Long: `
Inspect prints what a model file holds in readable form: the kind, the
features and classes, then the settings of the fit that the model keeps
(how the class prior was set, shrinkage and the intensities --shrinkage
auto chose, --binarize, --norm, the text settings, logistic regression's
--class-weight and --impute, linear regression's --impute, the EM
settings of gmm and mda: --init, --restarts, --seed, --tol, --max-iter,
--reg-covar and --reg-covar-mode; a model file written before a setting
was kept says "not recorded", null in --json) and the fitted parameters
of the kind (for Gaussian naive Bayes: the class priors, the per-class
means and variances, the variance tying and the smoothing ε). Numbers
are rounded to 6 significant digits; --json prints them exactly, with
the schema.

Example:

	gendisc inspect --model iris.json`,
	Required: []string{"model"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		o := &inspectOptions{}
		fs.StringVar(&o.model, "model", "", "the model `file`; - for standard input")
		fs.BoolVar(&o.json, "json", false, "print JSON instead of text")
		return func(ctx context.Context, env *Env) error { return o.run(env) }
	},
}

type inspectOptions struct {
	model string
	json  bool
}

func (o *inspectOptions) run(env *Env) error {
	e, m, err := env.loadModel(o.model)
	if err != nil {
		return err
	}
	rep, err := inspectReport(m)
	if err != nil {
		return fmt.Errorf("%s: %w", o.model, err)
	}
	if o.json {
		return writeJSON(env.Stdout, struct {
			Kind       string       `json:"kind"`
			Schema     *data.Schema `json:"schema"`
			Parameters report       `json:"parameters"`
		}{e.Kind, m.Schema(), rep})
	}
	var b strings.Builder
	writeSchema(&b, e.Kind, m.Schema())
	if err := rep.writeText(&b); err != nil {
		return err
	}
	_, err = io.WriteString(env.Stdout, b.String())
	return err
}

// inspectReport returns what inspect shows of m: a description of its
// family's parameters (inspect_FAMILY.go), chosen by its Go type, or for
// a kind that inspect does not know, the parameters of its model file.
func inspectReport(m gendisc.Model) (report, error) {
	switch m := m.(type) {
	case *gda.LDA:
		return inspectLDA(m), nil
	case *gda.QDA:
		return inspectQDA(m), nil
	case *naivebayes.Gaussian:
		return inspectGaussianNB(m), nil
	case *naivebayes.Model:
		return inspectNB(m), nil
	case *linear.Model:
		return inspectLinear(m), nil
	case *logistic.Model:
		return inspectLogistic(m), nil
	case *mixture.GMM:
		return inspectGMM(m), nil
	case *mixture.MDA:
		return inspectMDA(m), nil
	case *ngram.Model:
		return inspectNgram(m), nil
	case *ngram.ARPA:
		return inspectARPA(m), nil
	case *hmm.Model:
		return inspectHMM(m), nil
	case *crf.Model:
		return inspectCRF(m), nil
	}
	p, ok := m.(modelfile.Persistent)
	if !ok {
		return nil, fmt.Errorf("a %s model has no parameters to describe", m.Kind())
	}
	params, err := p.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return parametersReport(params), nil
}

// parametersReport is what inspect shows of a model of a kind it does not
// know: the parameters of its model file, as JSON.
type parametersReport json.RawMessage

func (r parametersReport) MarshalJSON() ([]byte, error) { return r, nil }

func (r parametersReport) writeText(w io.Writer) error {
	var b bytes.Buffer
	if err := json.Indent(&b, r, "", "  "); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "parameters:\n%s\n", b.String())
	return err
}

// writeSchema writes the header of inspect's text: the kind, the feature
// columns and the target.
func writeSchema(w io.Writer, kind string, s *data.Schema) {
	fmt.Fprintf(w, "kind: %s\n", kind)
	fmt.Fprintf(w, "features (%d):", len(s.Features))
	for _, c := range s.Features {
		fmt.Fprintf(w, " %s", c.Name)
		switch c.Kind {
		case data.Categorical:
			fmt.Fprintf(w, " (%s, %d levels)", c.Kind, len(c.Levels))
		case data.Text:
			fmt.Fprintf(w, " (%s)", c.Kind)
		}
	}
	fmt.Fprintln(w)
	switch {
	case s.Target == nil:
	case s.Target.Kind == data.Numeric:
		fmt.Fprintf(w, "target: %s (numeric)\n", s.Target.Name)
	default:
		fmt.Fprintf(w, "target: %s, %d classes: %s\n", s.Target.Name, len(s.Target.Levels), strings.Join(s.Target.Levels, ", "))
	}
	fmt.Fprintln(w)
}

// priorSetting is how a model's class prior π_k was set, for inspect:
// fixed by --class-prior, smoothed by --prior-alpha, or the maximum-
// likelihood estimate.
type priorSetting struct {
	PriorAlpha float64            `json:"prior_alpha"`
	ClassPrior map[string]float64 `json:"class_prior,omitempty"`
}

// writeText writes the setting on one line.
func (p priorSetting) writeText(w io.Writer) {
	switch {
	case p.ClassPrior != nil:
		fmt.Fprintf(w, "class prior: fixed at the fit (--class-prior), not estimated\n")
	case p.PriorAlpha > 0:
		fmt.Fprintf(w, "class prior: smoothed, π_k = (W_k + α)/(W + α·K),  α = %s\n", num(p.PriorAlpha))
	default:
		fmt.Fprintf(w, "class prior: maximum likelihood, π_k = W_k/W\n")
	}
}
