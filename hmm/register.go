package hmm

import "github.com/gendisc/gendisc/registry"

// init registers the kind hmm with package registry.
func init() { registry.Register(Kind, UnmarshalModel) }
