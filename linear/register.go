package linear

import "github.com/gendisc/gendisc/registry"

// init registers the kind of the package, linear, with package registry.
func init() { registry.Register(Kind, UnmarshalLinear) }
