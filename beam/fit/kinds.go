package fit

import (
	"fmt"
	"slices"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// Kinds returns the names of the kinds that Fit takes, the one-pass kinds
// whose models are gendisc.Mergeable: every naive Bayes kind, lda, qda and
// linear; sorted.
func Kinds() []string {
	k := []string{gaussianNB, gda.KindLDA, gda.KindQDA, linear.Kind}
	for _, f := range []naivebayes.Family{naivebayes.Mixed, naivebayes.Bernoulli, naivebayes.Multinomial, naivebayes.Complement, naivebayes.Categorical} {
		k = append(k, f.String())
	}
	slices.Sort(k)
	return k
}

// gaussianNB is the kind of naivebayes.GaussianConfig's models.
const gaussianNB = "gaussian-nb"

// emptyAccumulator returns an accumulator of the kind to decode an encoded
// one into (UnmarshalBinary replaces its settings by the encoded ones).
func emptyAccumulator(kind string) (gendisc.Accumulator, error) {
	switch kind {
	case gaussianNB:
		return new(naivebayes.GaussianAccumulator), nil
	case gda.KindLDA, gda.KindQDA:
		return new(gda.Accumulator), nil
	case linear.Kind:
		return new(linear.Accumulator), nil
	}
	if _, err := naivebayes.ParseFamily(kind); err == nil {
		return new(naivebayes.Accumulator), nil
	}
	return nil, fmt.Errorf("fit: kind %q is not fitted in one pass (kinds: %v)", kind, Kinds())
}

// decode returns the accumulator of the kind that b encodes.
func decode(kind string, b []byte) (gendisc.Accumulator, error) {
	a, err := emptyAccumulator(kind)
	if err != nil {
		return nil, err
	}
	if err := a.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return a, nil
}
