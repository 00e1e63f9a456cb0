package cli

import (
	"flag"
	"sync"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
)

// TestKindFitConcurrent runs every kind's fit function from several
// goroutines at once, as compare does with the splits: under the race
// detector (.ci/run), a fit function that writes to the configuration
// it captured fails. Every goroutine must get the same model.
func TestKindFitConcurrent(t *testing.T) {
	for _, name := range kindNames() {
		t.Run(name, func(t *testing.T) {
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			k, _ := registry.Lookup(name)
			fit := kindFitAny(t, k, fs)
			var args []string // a kind of sentences reads no table: its kindFitFlags are its own flags
			if k.Input == registry.Sequences {
				args = kindFitFlags[name]
			}
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			const workers = 4
			var wg sync.WaitGroup
			out := make([]string, workers)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					m, err := fit()
					if err != nil {
						t.Error(err)
						return
					}
					b, err := persistent(m).MarshalJSON()
					if err != nil {
						t.Error(err)
					}
					out[w] = string(b)
				}()
			}
			wg.Wait()
			for w := 1; w < workers; w++ {
				if out[w] != out[0] {
					t.Errorf("goroutine %d fitted another model than goroutine 0", w)
				}
			}
		})
	}
}

// kindFitAny defines the flags of kind k on fs and returns the function
// that fits the kind's training data (kindData) with the configuration
// they hold once fs is parsed: a table, or the sentences of a kind of
// registry.Sequences.
func kindFitAny(t *testing.T, k *registry.Kind, fs *flag.FlagSet) func() (gendisc.Model, error) {
	if k.Input != registry.Sequences {
		d := kindTrainingData(t, k.Name)
		fit := kindFit(k, fs)
		return func() (gendisc.Model, error) { return fit(d) }
	}
	cfg := k.Flags(fs)
	c, err := (&Env{}).readSentences(kindData[k.Name], &seqFlags{})
	if err != nil {
		t.Fatal(err)
	}
	return func() (gendisc.Model, error) {
		sc, err := cfg()
		if err != nil {
			return nil, err
		}
		return sc.(registry.SequenceConfig).FitSequences(c, nil)
	}
}
