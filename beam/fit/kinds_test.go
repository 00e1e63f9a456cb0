package fit

import (
	"slices"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/ngram"
)

// TestKindsFromRegistry checks the kinds Fit takes, as package registry
// declares them: the one-pass kinds of tables.
func TestKindsFromRegistry(t *testing.T) {
	want := []string{"bernoulli-nb", "categorical-nb", "complement-nb", "gaussian-nb", "lda", "linear", "multinomial-nb", "nb", "qda"}
	if got := Kinds(); !slices.Equal(got, want) {
		t.Errorf("Kinds() = %q, want %q", got, want)
	}
}

// TestDecoderKind checks that Fit finds, from an accumulator alone, a kind
// whose accumulators decode its encoding into one that finishes the
// model of its own kind (a QDA accumulator decoded by lda's).
func TestDecoderKind(t *testing.T) {
	for _, name := range Kinds() {
		a, err := emptyAccumulator(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decoderKind(a); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	q, err := gda.QDAConfig{}.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	kind, err := decoderKind(q)
	if err != nil {
		t.Fatal(err)
	}
	b, err := q.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	a, err := decode(kind, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.(*gda.Accumulator).Kind(); got != gda.KindQDA {
		t.Errorf("a QDA accumulator decoded by %s's is of kind %q", kind, got)
	}
	var lm gendisc.Accumulator
	if lm, err = ngram.NewAccumulator(ngram.Config{}); err != nil {
		t.Fatal(err)
	}
	if _, err := decoderKind(lm); err == nil {
		t.Error("an accumulator of ngram, not fitted by Beam: no error")
	}
}
