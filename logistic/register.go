package logistic

import "github.com/gendisc/gendisc/registry"

// init registers the kind of the package, logistic, with package registry.
func init() { registry.Register(Kind, UnmarshalLogistic) }
