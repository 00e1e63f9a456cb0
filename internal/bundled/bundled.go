package bundled

import (
	"io"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/seq"
	"github.com/gendisc/gendisc/seqio"
)

// Treebank reads the bundled treebank name (such as "ud_english_ewt") with
// seqio.Read and options opt, its source being name. It stops the test
// with tb.Fatal if the treebank does not exist or does not read.
func Treebank(tb testing.TB, name string, opt seqio.Options) *seq.Corpus {
	tb.Helper()
	r, err := datasets.OpenTreebank(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	c, err := seqio.Read(r, name+".conllu", opt)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// Load reads the bundled data set name with dataio.Read and options opt (the
// zero Options take the last column as the class), its source being name.
// It stops the test with tb.Fatal if the set does not exist or does not
// read.
func Load(tb testing.TB, name string, opt dataio.Options) *data.Dataset {
	tb.Helper()
	return read(tb, name, func(r io.Reader) (*data.Dataset, error) { return dataio.Read(r, name, opt) })
}

// LoadSchema reads the bundled data set name with dataio.ReadWithSchema,
// its columns mapped by name through the schema s (of a fitted model, say),
// its source being name. It stops the test with tb.Fatal if the set does
// not exist or does not read.
func LoadSchema(tb testing.TB, name string, s *data.Schema, opt dataio.SchemaOptions) *data.Dataset {
	tb.Helper()
	return read(tb, name, func(r io.Reader) (*data.Dataset, error) { return dataio.ReadWithSchema(r, name, s, opt) })
}

// read opens the bundled data set name and reads it with parse.
func read(tb testing.TB, name string, parse func(io.Reader) (*data.Dataset, error)) *data.Dataset {
	tb.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	d, err := parse(r)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
