package gda

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package, lda and qda, with package
// registry.
func init() {
	registry.Register(registry.Kind{
		Name:  KindLDA,
		Short: "linear discriminant analysis: per class a multivariate normal, one covariance matrix shared by the classes",
		Flags: ldaFlags,
	}, UnmarshalLDA)
	registry.Register(registry.Kind{
		Name:  KindQDA,
		Short: "quadratic discriminant analysis: per class a multivariate normal with its own covariance matrix",
		Flags: qdaFlags,
	}, UnmarshalQDA)
}
