package modelflags

import (
	"flag"

	"github.com/gendisc/gendisc/dataio"
)

// Data defines the flags that say how to read training data, those of
// dataio.Options that every kind takes (--target, --numeric, --categorical,
// --text, --ignore and --weight), and returns the function that gives
// the options once they are parsed.
func Data(fs *flag.FlagSet) func() dataio.Options {
	var (
		target, weight                      string
		numeric, categorical, text, ignored List
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
