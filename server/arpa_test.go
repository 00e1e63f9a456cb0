package server

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/ngram"
)

// TestServeARPA serves a language model from its ARPA file: the score
// endpoint answers each document's log-probability, the one the model
// gives it, and the model's version is the file's checksum.
func TestServeARPA(t *testing.T) {
	docs := []string{"to be or not to be", "that is the question", "to be is to be", "the question is not that"}
	d := &data.Dataset{N: len(docs), Schema: &data.Schema{Features: []data.Column{{Name: "text", Kind: data.Text}}}, Text: [][]string{docs}}
	m, err := ngram.Config{Order: 2}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.WriteARPA(&b, 0); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lm.arpa")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, Options{Models: map[string]string{"lm": path}})
	body := mustJSON(t, map[string]any{"instances": []map[string]string{{"text": "to be or not"}, {"text": "the question"}}})
	code, out := do(t, s, "POST", "/v1/models/lm/score", "application/json", body)
	if code != http.StatusOK {
		t.Fatalf("score: %d %s", code, out)
	}
	var got struct {
		Scores []struct {
			Nats float64 `json:"log_p_nats"`
		} `json:"scores"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got.Scores) != 2 {
		t.Fatalf("score: %s (%v)", out, err)
	}
	for i, doc := range []string{"to be or not", "the question"} {
		want, _ := m.LogProb(doc, 0)
		if math.Abs(got.Scores[i].Nats-want) > 1e-12*math.Abs(want) {
			t.Errorf("%q: %v, want %v", doc, got.Scores[i].Nats, want)
		}
	}
	if _, meta := do(t, s, "GET", "/v2/models/lm", "", nil); !bytes.Contains(meta, []byte(`"platform":"gendisc_arpa"`)) {
		t.Errorf("metadata: %s", meta)
	}
	code, out = do(t, s, "GET", "/v1/models", "", nil)
	if code != http.StatusOK || !bytes.Contains(out, []byte(`"kind":"arpa"`)) || !bytes.Contains(out, []byte(`"version":"sha256:`)) {
		t.Errorf("models: %d %s", code, out)
	}
}
