package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/ngram"
)

var cmdExport = &Command{
	Name:      "export",
	UsageLine: "export --model M.json --format arpa [--class C] [--out M.arpa]",
	Short:     "write a language model in the ARPA format of SRILM and KenLM",
	Long: `
Export writes a fitted language model (--model ngram) in another program's
format. The only format is arpa: the back-off n-gram format that SRILM
and KenLM read, with log10 probabilities and back-off weights. The
interpolated smoothings (kneser-ney, witten-bell) have that form exactly:
a listed n-gram carries its interpolated probability and a context its
interpolation weight. lidstone and mle do not, and are refused. A model
with classes exports one class, named by --class.

Example:

	gendisc fit --data tinyshakespeare --model ngram --order 3 --out shakes.json
	gendisc export --model shakes.json --format arpa --out shakes.arpa`,
	Required: []string{"model", "format"},
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		var model, format, class, out string
		fs.StringVar(&model, "model", "", "the model `file` of a language model; - for standard input")
		fs.StringVar(&format, "format", "", "the `format`: arpa")
		fs.StringVar(&class, "class", "", "the `class` whose model to export (required when the model has classes)")
		fs.StringVar(&out, "out", "-", "write to this `file`; - for standard output")
		return func(ctx context.Context, env *Env) error {
			if format != ngram.FormatARPA {
				return usagef("--format %q: the only format is arpa", format)
			}
			_, m, err := env.loadModel(model)
			if err != nil {
				return err
			}
			lm, err := modelAs[gendisc.ARPAWriter](model, m, "is not a language model (ngram)")
			if err != nil {
				return err
			}
			k := 0
			if lm.Schema().Target != nil {
				if k = slices.Index(lm.Classes(), class); class == "" || k < 0 {
					return usagef("--class: the model has classes, name one of %s", strings.Join(lm.Classes(), ", "))
				}
			}
			w, commit, abort, err := env.stdoutOrCreate(out, false)
			if err != nil {
				return err
			}
			defer abort()
			if err := lm.WriteARPA(w, k); err != nil {
				return fmt.Errorf("%s: %w", model, err)
			}
			return commit()
		}
	},
}
