package main

import (
	"github.com/gendisc/gendisc/cmd/gendisc/modelflags"
	"github.com/gendisc/gendisc/data"
)

// kinds defines the model flags of each kind that fit fits in one pass,
// those of gendisc fit, and returns the function that gives its empty
// accumulator once they are parsed.
var kinds = modelflags.Accumulators

func (f *dataFlags) options() data.Options {
	return data.Options{Target: f.target, Numeric: f.numeric, Categorical: f.categorical, Text: f.text, Ignore: f.ignored, Weight: f.weight}
}
