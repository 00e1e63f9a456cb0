package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/gendisc/gendisc/beam/fit"
)

// applyOptions are the flags of predict and score.
type applyOptions struct {
	model, data, out string
	what             fit.Output
}

// applyFlags defines the flags of predict (what is fit.Predictions) or
// score on fs, named as gendisc predict and score name them.
func applyFlags(fs *flag.FlagSet, what fit.Output) *applyOptions {
	o := &applyOptions{what: what}
	fs.StringVar(&o.model, "model", "", "the model `file` (from gendisc fit or gendisc-beam fit), on a filesystem the workers reach")
	fs.StringVar(&o.data, "data", "", "the data: a `glob` of CSV, TSV, Parquet or JSON lines files, each with its header, compressed or not, on any Beam filesystem")
	fs.StringVar(&o.out, "out", "", "write the output of the i-th file of n to `PREFIX`-0000i-of-0000n.csv, on any Beam filesystem")
	return o
}

// runApply runs predict or score (verb) with its arguments, on
// flag.CommandLine, where Beam's flags are.
func runApply(ctx context.Context, verb string, args []string) error {
	what := fit.Predictions
	if verb == "score" {
		what = fit.Scores
	}
	var o *applyOptions
	if err := parse(args, func(fs *flag.FlagSet) { o = applyFlags(fs, what) }); err != nil {
		return err
	}
	switch {
	case o.model == "" || o.model == "-":
		return fmt.Errorf("%w: missing --model, a model file", errUsage)
	case o.data == "":
		return fmt.Errorf("%w: missing --data", errUsage)
	case o.out == "" || o.out == "-":
		return fmt.Errorf("%w: missing --out, a prefix of file names", errUsage)
	}
	if _, err := fit.CheckInput(ctx, o.model, nil); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if _, err := fit.CheckInput(ctx, o.data, nil); err != nil {
		return bundledHint(err, o.data)
	}
	beam.Init()
	return fit.Apply(ctx, beamx.Run, o.data, o.model, o.out, o.what)
}
