package metrics

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the text output")

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("text output differs from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestTextGolden(t *testing.T) {
	ref := loadReference(t)
	for _, c := range ref.Classification {
		switch c.Name {
		case "binary_weighted", "binary_no_negatives", "multi", "multi_absent_class":
		default:
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			r, err := Classification(c.Classes, c.Y, c.Proba, c.Weight)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.Text(&buf); err != nil {
				t.Fatal(err)
			}
			golden(t, c.Name, buf.Bytes())
		})
	}
	for _, c := range ref.Regression {
		if c.Name != "regression_weighted" {
			continue
		}
		r, err := Regression(c.Y, c.Pred, c.Weight)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := r.Text(&buf); err != nil {
			t.Fatal(err)
		}
		golden(t, c.Name, buf.Bytes())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestTextWriteError(t *testing.T) {
	r, _ := Classification(tiny.classes, tiny.y, tiny.proba, nil)
	if err := r.Text(failWriter{}); err != os.ErrClosed {
		t.Errorf("Report.Text to a failing writer: %v", err)
	}
	g, _ := Regression([]float64{1, 2}, []float64{1, 3}, nil)
	if err := g.Text(failWriter{}); err != os.ErrClosed {
		t.Errorf("RegressionReport.Text to a failing writer: %v", err)
	}
}
