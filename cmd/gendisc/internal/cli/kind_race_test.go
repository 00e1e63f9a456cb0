package cli

import (
	"flag"
	"sync"
	"testing"

	"github.com/gendisc/gendisc/registry"
)

// TestKindFitConcurrent runs every kind's fit function from several
// goroutines at once, as compare does with the splits: under the race
// detector (.ci/run), a fit function that writes to the configuration
// it captured fails. Every goroutine must get the same model.
func TestKindFitConcurrent(t *testing.T) {
	for _, name := range kindNames() {
		t.Run(name, func(t *testing.T) {
			d := kindTrainingData(t, name)
			fs := flag.NewFlagSet(name, flag.ContinueOnError)
			k, _ := registry.Lookup(name)
			fit := kindFit(k, fs)
			if err := fs.Parse(nil); err != nil {
				t.Fatal(err)
			}
			const workers = 4
			var wg sync.WaitGroup
			out := make([]string, workers)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					m, err := fit(d)
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
