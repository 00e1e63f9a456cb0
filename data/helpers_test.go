package data

import (
	"os"
	"path/filepath"
	"testing"
)

// datasetBytes returns the bundled data set name (as CSV), or skips the
// test when it is not available. Until package datasets exists, it reads
// the shared copy beside the repository.
func datasetBytes(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "shared", "datasets", name+".csv"))
	if err != nil {
		tb.Skipf("data set %s not available: %v", name, err)
	}
	return raw
}
