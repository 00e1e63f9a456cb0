package fit

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/gendisc/gendisc"
	_ "github.com/gendisc/gendisc/models" // every kind of gendisc
	"github.com/gendisc/gendisc/registry"
)

// Kinds returns the names of the kinds that Fit takes, sorted: the
// one-pass kinds of tables in package registry, those whose Config is a
// registry.OnePassConfig (every naive Bayes kind, lda, qda and linear).
func Kinds() []string { return onePassKinds(registry.Table) }

// SequenceKinds returns the names of the kinds that FitSequences takes,
// sorted: the one-pass kinds of sentences (registry.Sequences) in package
// registry, whose accumulators are gendisc.SequenceAccumulator (hmm).
func SequenceKinds() []string { return onePassKinds(registry.Sequences) }

// onePassKinds returns the names of the one-pass kinds of the input in
// package registry, sorted.
func onePassKinds(input registry.Input) []string {
	var names []string
	for _, name := range registry.Kinds() {
		if k, err := registry.Lookup(name); err == nil && k.Input == input && k.OnePass() {
			names = append(names, name)
		}
	}
	return names
}

// pipelineKinds returns the kinds that Fit or FitSequences takes: Kinds,
// then SequenceKinds.
func pipelineKinds() []string { return append(Kinds(), SequenceKinds()...) }

// emptyAccumulator returns an accumulator of the kind, of its default
// configuration, to decode an encoded one into (UnmarshalBinary replaces
// its settings by the encoded ones).
func emptyAccumulator(kind string) (gendisc.Accumulator, error) {
	k, err := registry.Lookup(kind)
	if err != nil || !slices.Contains(pipelineKinds(), kind) {
		return nil, fmt.Errorf("fit: kind %q is not fitted in one pass (kinds: %v)", kind, pipelineKinds())
	}
	c, err := k.DefaultConfig()
	if err != nil {
		return nil, err
	}
	return c.(registry.OnePassConfig).NewAccumulator()
}

// decoderKind returns the name of a kind of pipelineKinds whose empty accumulator
// has the type of acc: the kind by which the workers decode acc's
// encoding (emptyAccumulator). Kinds that share an accumulator type, lda
// and qda, decode each other's, whose settings say which model they
// finish.
func decoderKind(acc gendisc.Accumulator) (string, error) {
	t := reflect.TypeOf(acc)
	for _, name := range pipelineKinds() {
		if a, err := emptyAccumulator(name); err == nil && reflect.TypeOf(a) == t {
			return name, nil
		}
	}
	return "", fmt.Errorf("fit: an accumulator of type %v is of no kind fitted in one pass (kinds: %v)", t, pipelineKinds())
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
