package logistic

import (
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// load reads a bundled data set whose last column is the class.
func load(t testing.TB, name string) *data.Dataset {
	t.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := data.Read(r, name, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
