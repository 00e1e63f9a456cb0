package linear

import "github.com/gendisc/gendisc/registry"

// init registers the kind of the package, linear, with package registry.
func init() {
	registry.Register(registry.Kind{
		Name:   Kind,
		Short:  "linear regression of a numeric target: least squares (the Gaussian-noise MLE) by QR, optionally ridge-penalised",
		Target: registry.Number,
		Flags:  flags,
	}, UnmarshalLinear)
}
