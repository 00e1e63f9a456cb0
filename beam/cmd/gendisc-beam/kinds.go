package main

import "github.com/gendisc/gendisc/cmd/gendisc/modelflags"

// kinds defines the model flags of each kind that fit fits in one pass,
// those of gendisc fit, and returns the function that gives its empty
// accumulator once they are parsed.
var kinds = modelflags.Accumulators
