package ngram

import "github.com/gendisc/gendisc/registry"

// init registers the kind ngram with package registry.
func init() { registry.Register(Kind, UnmarshalModel) }
