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
	for _, k := range []struct {
		family Family
		short  string
	}{
		{Mixed, "naive Bayes with the family of each column's type: numeric → Gaussian, categorical → categorical, text → multinomial word counts (or --text-model bernoulli)"},
		{Bernoulli, "Bernoulli naive Bayes: binary features (numeric above --binarize, two-level categories, words present in a text)"},
		{Multinomial, "multinomial naive Bayes: non-negative counts (numeric columns) and bags of words (text columns)"},
		{Complement, "complement naive Bayes (Rennie et al. 2003): multinomial counts scored against each class's complement, for skewed classes"},
		{Categorical, "categorical naive Bayes: per class, a Dirichlet-smoothed distribution over each categorical feature's values"},
	} {
		registry.Register(registry.Kind{Name: k.family.String(), Short: k.short, Flags: familyFlags(k.family)}, UnmarshalModel)
	}
}
