package fit

import (
	"fmt"
	"reflect"

	"github.com/gendisc/gendisc"
	_ "github.com/gendisc/gendisc/models" // every kind of gendisc
	"github.com/gendisc/gendisc/registry"
)

// Kinds returns the names of the kinds that Fit takes, sorted: the
// one-pass kinds of tables in package registry, those whose Config is a
// registry.OnePassConfig (every naive Bayes kind, lda, qda and linear).
func Kinds() []string {
	var names []string
	for _, name := range registry.Kinds() {
		if k, err := registry.Lookup(name); err == nil && k.Input == registry.Table && k.OnePass() {
			names = append(names, name)
		}
	}
	return names
}

// emptyAccumulator returns an accumulator of the kind, of its default
// configuration, to decode an encoded one into (UnmarshalBinary replaces
// its settings by the encoded ones).
func emptyAccumulator(kind string) (gendisc.Accumulator, error) {
	k, err := registry.Lookup(kind)
	if err != nil || k.Input != registry.Table || !k.OnePass() {
		return nil, fmt.Errorf("fit: kind %q is not fitted in one pass (kinds: %v)", kind, Kinds())
	}
	c, err := k.DefaultConfig()
	if err != nil {
		return nil, err
	}
	return c.(registry.OnePassConfig).NewAccumulator()
}

// decoderKind returns the name of a kind of Kinds whose empty accumulator
// has the type of acc: the kind by which the workers decode acc's
// encoding (emptyAccumulator). Kinds that share an accumulator type, lda
// and qda, decode each other's, whose settings say which model they
// finish.
func decoderKind(acc gendisc.Accumulator) (string, error) {
	t := reflect.TypeOf(acc)
	for _, name := range Kinds() {
		if a, err := emptyAccumulator(name); err == nil && reflect.TypeOf(a) == t {
			return name, nil
		}
	}
	return "", fmt.Errorf("fit: an accumulator of type %v is of no kind fitted in one pass (kinds: %v)", t, Kinds())
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
