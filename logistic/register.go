package logistic

import "github.com/gendisc/gendisc/registry"

// init registers the kind of the package, logistic, with package registry.
func init() {
	registry.Register(registry.Kind{
		Name:  Kind,
		Short: "logistic regression: sigmoid (two classes) or softmax, L2-penalised (MCAP) conditional likelihood on standardised features",
		Flags: flags,
	}, UnmarshalLogistic)
}
