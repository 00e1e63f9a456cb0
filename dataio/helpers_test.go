package dataio

import (
	"io"
	"testing"

	"github.com/gendisc/gendisc/datasets"
)

// datasetBytes returns the bundled data set name as CSV.
func datasetBytes(tb testing.TB, name string) []byte {
	tb.Helper()
	rc, err := datasets.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer rc.Close()
	raw, err := io.ReadAll(rc)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}
