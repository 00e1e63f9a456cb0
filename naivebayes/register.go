package naivebayes

import "github.com/gendisc/gendisc/registry"

// init registers the kinds of the package with package registry: Gaussian
// naive Bayes and the five families of Config.
func init() {
	registry.Register(registry.Kind{
		Name:  KindGaussian,
		Short: "Gaussian naive Bayes: per class, an independent normal distribution for each numeric feature",
		Flags: gaussianFlags,
	}, UnmarshalGaussian)
	for _, k := range []registry.Kind{{
		Name:  KindMixed,
		Short: "naive Bayes with the family of each column's type: numeric → Gaussian, categorical → categorical, text → multinomial word counts (or --text-model bernoulli)",
		Flags: familyFlags(Mixed),
	}, {
		Name:  KindBernoulli,
		Short: "Bernoulli naive Bayes: binary features (numeric above --binarize, two-level categories, words present in a text)",
		Flags: familyFlags(Bernoulli),
	}, {
		Name:  KindMultinomial,
		Short: "multinomial naive Bayes: non-negative counts (numeric columns) and bags of words (text columns)",
		Flags: familyFlags(Multinomial),
	}, {
		Name:  KindComplement,
		Short: "complement naive Bayes (Rennie et al. 2003): multinomial counts scored against each class's complement, for skewed classes",
		Flags: familyFlags(Complement),
	}, {
		Name:  KindCategorical,
		Short: "categorical naive Bayes: per class, a Dirichlet-smoothed distribution over each categorical feature's values",
		Flags: familyFlags(Categorical),
	}} {
		registry.Register(k, UnmarshalModel)
	}
}
