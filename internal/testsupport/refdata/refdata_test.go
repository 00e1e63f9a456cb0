package refdata

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	const text = `{"cases": [1, 2.5]}`
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(text))
	w.Close()
	files := map[string][]byte{"r.json": []byte(text), "r.json.gz": z.Bytes()}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var v struct{ Cases []float64 }
		ReadJSON(t, path, &v)
		if len(v.Cases) != 2 || v.Cases[1] != 2.5 {
			t.Errorf("%s: %+v", name, v)
		}
	}
}
