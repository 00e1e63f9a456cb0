package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc/data"
)

var cmdInspect = &Command{
	Name:      "inspect",
	UsageLine: "inspect --model M.json [--json]",
	Short:     "print the fitted parameters of a model",
	Long: `
Inspect prints what a model file holds in readable form: the kind, the
features and classes, then the fitted parameters of the kind (for Gaussian
naive Bayes: the class priors, the per-class means and variances, the
variance tying and the smoothing ε). Numbers are rounded to 6 significant
digits; --json prints them exactly, with the schema.

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
	rep := kinds[e.Kind].inspect(m)
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
