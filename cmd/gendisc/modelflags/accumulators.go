package modelflags

import (
	"flag"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/naivebayes"
)

// Accumulators maps the name of each kind above whose models keep their
// sufficient statistics (gendisc.Mergeable) to the function that defines
// its flags on a flag set and returns the function that gives an empty
// accumulator of the configuration they hold once they are parsed, or the
// error of an invalid one: the kinds of gendisc-beam fit, which gendisc
// fit --stream fits too.
var Accumulators = map[string]func(fs *flag.FlagSet) func() (gendisc.Accumulator, error){
	"gaussian-nb": func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
		cfg := GaussianNB(fs)
		return func() (gendisc.Accumulator, error) { return AccumulatorOf(cfg().NewAccumulator()) }
	},
	gda.KindLDA: func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
		cfg := GDA(fs)
		return func() (gendisc.Accumulator, error) { return AccumulatorOf(gda.LDAConfig(cfg()).Accumulator()) }
	},
	gda.KindQDA: func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
		cfg := GDA(fs)
		return func() (gendisc.Accumulator, error) { return AccumulatorOf(gda.QDAConfig(cfg()).Accumulator()) }
	},
	linear.Kind: func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
		cfg := Linear(fs)
		return func() (gendisc.Accumulator, error) { return AccumulatorOf(cfg().NewAccumulator()) }
	},
}

func init() {
	for _, f := range []naivebayes.Family{naivebayes.Mixed, naivebayes.Bernoulli, naivebayes.Multinomial, naivebayes.Complement, naivebayes.Categorical} {
		Accumulators[f.String()] = func(fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
			cfg := NaiveBayes(fs, f)
			return func() (gendisc.Accumulator, error) { return AccumulatorOf(cfg().NewAccumulator()) }
		}
	}
}

// AccumulatorOf returns the accumulator a that a family's constructor
// returned with err, as a gendisc.Accumulator: nil with the error, so
// that no nil pointer hides in the interface.
func AccumulatorOf[A gendisc.Accumulator](a A, err error) (gendisc.Accumulator, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}
