package fit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/naivebayes"
)

// TestFnsDecodeOnce checks that the CombineFns decode the JSON of their
// configuration (a schema, read options) once per instance, not once per
// file: after the first AddInput, the field's JSON is overwritten with
// bytes that do not decode, and the next files are read all the same,
// as a fn that decoded them again would not.
func TestFnsDecodeOnce(t *testing.T) {
	dir := t.TempDir()
	var files []fileio.ReadableFile
	for i, rows := range []string{"1.5,2,a\n3,4,b\n", "0.5,1,b\n2,0,a\n", "7,8,a\n"} {
		path := filepath.Join(dir, "part-"+string(rune('0'+i))+".csv")
		if err := os.WriteFile(path, []byte("x1,x2,y\n"+rows), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}})
	}
	schema := &data.Schema{Features: []data.Column{{Name: "x1"}, {Name: "x2"}},
		Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b"}}}
	sj, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	oj, err := json.Marshal(dataio.Options{Target: "y"})
	if err != nil {
		t.Fatal(err)
	}
	acc, err := naivebayes.GaussianConfig{}.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	empty, err := acc.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	garbage := []byte("not JSON")
	accumulate := &AccumulateFn{Kind: naivebayes.KindGaussian, Empty: empty, Schema: sj}
	sample := &SampleFn{Size: 10, Seed: 1, Schema: sj}
	union := &SchemaFn{Options: oj}
	for _, c := range []struct {
		name  string
		add   func([]byte, fileio.ReadableFile) ([]byte, error)
		start []byte
		spoil func()
	}{
		{"AccumulateFn", accumulate.AddInput, accumulate.CreateAccumulator(), func() { accumulate.Schema = garbage }},
		{"SampleFn", sample.AddInput, sample.CreateAccumulator(), func() { sample.Schema = garbage }},
		{"SchemaFn", union.AddInput, union.CreateAccumulator(), func() { union.Options = garbage }},
	} {
		a := c.start
		for i, f := range files {
			if i == 1 {
				c.spoil()
			}
			if a, err = c.add(a, f); err != nil {
				t.Errorf("%s: file %d: %v", c.name, i, err)
				break
			}
		}
	}
	// A fresh instance decodes its fields, and says when they are not
	// JSON.
	fresh := &AccumulateFn{Kind: naivebayes.KindGaussian, Empty: empty, Schema: garbage}
	if _, err := fresh.AddInput(fresh.CreateAccumulator(), files[0]); err == nil {
		t.Error("AccumulateFn of a schema that is not JSON: no error")
	}
}
