package gda

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package, lda and qda, with package
// registry.
func init() {
	registry.Register(KindLDA, UnmarshalLDA)
	registry.Register(KindQDA, UnmarshalQDA)
}
