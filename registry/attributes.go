package registry

import "github.com/gendisc/gendisc/seq"

// AttributeConfig is the SequenceConfig of a kind whose models read the
// attributes of tokens (a linear-chain CRF, whose models are
// gendisc.AttributeTagger): Attributes returns those that the
// configuration (its feature templates) makes of the tokens of a
// sentence, on which the kind's fit, given them as attributes, gives the
// model that its fit of the words gives. gendisc features writes them in
// CRFsuite's data format.
type AttributeConfig interface {
	SequenceConfig
	Attributes(tokens []string) [][]seq.Attribute
}
