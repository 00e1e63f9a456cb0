package bundled

import (
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// Load reads the bundled data set name with data.Read and options opt (the
// zero Options take the last column as the class), its source being name.
// It stops the test with tb.Fatal if the set does not exist or does not
// read.
func Load(tb testing.TB, name string, opt data.Options) *data.Dataset {
	tb.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	d, err := data.Read(r, name, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
