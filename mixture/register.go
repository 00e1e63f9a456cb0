package mixture

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package, gmm and mda, with package
// registry.
func init() {
	registry.Register(registry.Kind{
		Name:   Kind,
		Short:  "Gaussian mixture fitted by EM to the features (the target column is left out); see also gendisc cluster",
		Target: registry.None,
		Flags:  gmmFlags,
	}, UnmarshalGMM)
	registry.Register(registry.Kind{
		Name:  KindMDA,
		Short: "mixture discriminant analysis: per class a Gaussian mixture fitted by EM, classification by Bayes' rule",
		Flags: mdaFlags,
	}, UnmarshalMDA)
}
