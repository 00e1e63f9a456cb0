// Package dataflags defines the command-line flags that say how training
// data is read, those of dataio.Options that every kind takes, for the
// commands that read tables (gendisc and gendisc-beam). It lives apart
// from package modelflags, which the model families import, so that the
// families do not depend on the file formats.
package dataflags

import (
	"flag"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelflags"
)

// Define defines --target, --numeric, --categorical, --text, --ignore and
// --weight on fs and returns the function that gives the dataio.Options
// they hold once fs is parsed.
func Define(fs *flag.FlagSet) func() dataio.Options {
	var (
		target, weight                      string
		numeric, categorical, text, ignored modelflags.List
	)
	fs.StringVar(&target, "target", "", "the `column` to predict (default: the last column)")
	fs.Var(&numeric, "numeric", "read these `columns` as numbers: a cell that is not one is an error (comma-separated)")
	fs.Var(&categorical, "categorical", "read these `columns` as categorical (comma-separated)")
	fs.Var(&text, "text", "read these `columns` as free text")
	fs.Var(&ignored, "ignore", "skip these `columns`")
	fs.StringVar(&weight, "weight", "", "the `column` holding a weight per row")
	return func() dataio.Options {
		return dataio.Options{Target: target, Numeric: numeric, Categorical: categorical, Text: text, Ignore: ignored, Weight: weight}
	}
}
