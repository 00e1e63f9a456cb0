package crf

import "github.com/gendisc/gendisc"

// The capabilities the command line and the server ask of a tagger.
var (
	_ gendisc.MarginalTagger       = (*Model)(nil)
	_ gendisc.Warner               = (*Model)(nil)
	_ gendisc.ConditionalTagScorer = (*Model)(nil)
	_ gendisc.AttributeTagger      = (*Model)(nil)
	_ gendisc.OptionalVocabulary   = (*Model)(nil)
)
