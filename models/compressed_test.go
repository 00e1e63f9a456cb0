package models_test

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/ngram"
)

// TestReadFileCompressedARPA checks that ReadFile reads an ARPA file
// compressed with gzip as the same model as the plain file: package
// models sets the registry's decompressor, which the registry lacks.
func TestReadFileCompressedARPA(t *testing.T) {
	docs := []string{"the cat sat on the mat", "the dog sat on the log", "a cat and a dog"}
	m, err := ngram.Config{Order: 2}.Fit(data.TextDataset(docs, data.Named("toy")))
	if err != nil {
		t.Fatal(err)
	}
	var arpa, gz bytes.Buffer
	if err := m.WriteARPA(&arpa, 0); err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(&gz)
	zw.Write(arpa.Bytes())
	zw.Close()
	_, plain, err := models.ReadFile(bytes.NewReader(arpa.Bytes()), "m.arpa")
	if err != nil {
		t.Fatal(err)
	}
	e, packed, err := models.ReadFile(bytes.NewReader(gz.Bytes()), "m.arpa.gz")
	if err != nil {
		t.Fatal(err)
	}
	lm, ok := plain.(ngram.LanguageModel)
	lz, ok2 := packed.(ngram.LanguageModel)
	if !ok || !ok2 || e.Kind != plain.Kind() {
		t.Fatalf("models %T, %T of kind %q", plain, packed, e.Kind)
	}
	for _, doc := range docs {
		want, n := lm.LogProb(doc, 0)
		if got, n2 := lz.LogProb(doc, 0); got != want || n != n2 {
			t.Errorf("%q: log P %v (%d tokens) from the gzip file, %v (%d) from the plain one", doc, got, n2, want, n)
		}
	}
}
