package mixture

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package, gmm and mda, with package
// registry.
func init() {
	registry.Register(Kind, UnmarshalGMM)
	registry.Register(KindMDA, UnmarshalMDA)
}
