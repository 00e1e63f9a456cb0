package hmm

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seq"
)

// The capabilities the command line asks of a tagger and its accumulator.
var (
	_ gendisc.MarginalTagger      = (*Model)(nil)
	_ gendisc.Vocabulary          = (*Model)(nil)
	_ gendisc.SequenceDensity     = (*Model)(nil)
	_ gendisc.SentenceSampler     = (*Model)(nil)
	_ gendisc.Mergeable           = (*Model)(nil)
	_ gendisc.Warner              = (*Model)(nil)
	_ gendisc.SequenceAccumulator = (*Accumulator)(nil)
)

// flagConfig parses args with the kind's flags and returns its
// configuration, a registry.SequenceConfig.
func flagConfig(t *testing.T, args ...string) registry.SequenceConfig {
	t.Helper()
	fs := flag.NewFlagSet(Kind, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	c, err := cfg()
	if err != nil {
		t.Fatal(err)
	}
	return c.(registry.SequenceConfig)
}

// marshal returns the model file parameters of m.
func marshal(t *testing.T, m gendisc.Model) []byte {
	t.Helper()
	b, err := m.(*Model).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFlags checks that the flags' defaults give the zero Config (TnT),
// that the flags set the fields they name (NLTK's configuration), and
// that without --em the configuration is one-pass.
func TestFlags(t *testing.T) {
	corpus := &seq.Corpus{Source: "toy", Sentences: toy}
	c := flagConfig(t)
	if _, ok := c.(registry.OnePassConfig); !ok {
		t.Errorf("the default configuration is not one-pass")
	}
	if _, err := c.Fit(nil); !errors.Is(err, registry.ErrNotTable) {
		t.Errorf("Fit of a table: %v", err)
	}
	got, err := c.FitSequences(corpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Config{}.Fit(toy)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(marshal(t, got), marshal(t, want)) {
		t.Errorf("the flags' defaults fit another model than the zero Config")
	}
	c = flagConfig(t, "--order", "1", "--smoothing", "add-alpha", "--alpha", "0.1", "--emission-alpha", "0.1", "--unknown", "uniform", "--no-capitalization", "--no-end")
	if got, err = c.FitSequences(corpus, nil); err != nil {
		t.Fatal(err)
	}
	if want, err = nltkConfig(0.1).Fit(toy); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(marshal(t, got), marshal(t, want)) {
		t.Errorf("NLTK's flags fit another model than nltkConfig(0.1): %+v", got.(*Model).Config())
	}
	if c := got.(*Model).Config(); c.Order != 1 || c.Transitions != AddAlpha || c.Unknown != Uniform || !c.NoEnd {
		t.Errorf("configuration %+v", c)
	}
	c = flagConfig(t, "--context", "0", "--beam", "0")
	if got, err = c.FitSequences(corpus, nil); err != nil {
		t.Fatal(err)
	}
	if c := got.(*Model).Config(); c.Context != NoContext || c.Beam != NoBeam {
		t.Errorf("--context 0 --beam 0: %+v", c)
	}
	fs := flag.NewFlagSet(Kind, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flags(fs)
	for _, args := range [][]string{{"--order", "3"}, {"--labeled", "1.5"}, {"--smoothing", "kn"}, {"--unknown", "x"}} {
		if err := fs.Parse(args); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}

// TestFlagsEM checks --em: Baum–Welch with the progress of every
// iteration, a warning when it stops at --max-iter and none when it
// converges, and the refusal of a configuration it cannot take.
func TestFlagsEM(t *testing.T) {
	corpus := &seq.Corpus{Source: "toy", Sentences: toy}
	var lines []string
	trace := func(l string) { lines = append(lines, l) }
	c := flagConfig(t, "--em", "--smoothing", "add-alpha", "--context", "0", "--emission-alpha", "0.1", "--labeled", "0.5", "--max-iter", "2", "--seed", "3")
	if _, ok := c.(registry.OnePassConfig); ok {
		t.Errorf("--em is one-pass")
	}
	m, err := c.FitSequences(corpus, trace)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "Baum–Welch: start 1, iteration 2: log-likelihood ") {
		t.Errorf("progress %q", lines)
	}
	if w := m.(*Model).Warnings(); len(w) != 1 || !strings.Contains(w[0], "limit of 2 iterations") {
		t.Errorf("warnings %q", w)
	}
	c = flagConfig(t, "--em", "--smoothing", "add-alpha", "--context", "0", "--emission-alpha", "0.1", "--labeled", "0.5", "--max-iter", "1000", "--tol", "1e-6")
	if m, err = c.FitSequences(corpus, nil); err != nil {
		t.Fatal(err)
	}
	if w := m.(*Model).Warnings(); w != nil {
		t.Errorf("a converged fit warns %q", w)
	}
	c = flagConfig(t, "--em", "--smoothing", "add-alpha", "--context", "0", "--labeled", "0.5")
	if _, err := c.FitSequences(corpus, nil); !errors.Is(err, ErrZeroLikelihood) {
		t.Errorf("words without an emission pseudo-count: %v, want ErrZeroLikelihood", err)
	}
	fs := flag.NewFlagSet(Kind, flag.ContinueOnError)
	cfg := flags(fs)
	if err := fs.Parse([]string{"--em"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg(); !errors.Is(err, ErrEMConfig) {
		t.Errorf("--em with interpolated transitions: %v", err)
	}
}
