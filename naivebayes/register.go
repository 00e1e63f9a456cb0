package naivebayes

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package with package registry: Gaussian
// naive Bayes and the five families of Config.
func init() {
	registry.Register("gaussian-nb", UnmarshalGaussian)
	for _, f := range []Family{Mixed, Bernoulli, Multinomial, Complement, Categorical} {
		registry.Register(f.String(), UnmarshalModel)
	}
}
