package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/modelfile"
)

// TestCRFEvalUnknownWords checks that eval of a crf model reports the
// accuracy on the dev words that are not among the training words,
// counted here from the sentences and the model's tags, and that a model
// file without its words (written before models kept them) still loads,
// its unknown-word accuracy undefined.
func TestCRFEvalUnknownWords(t *testing.T) {
	dir := t.TempDir()
	train, trainSents := treebankSlice(t, dir, "ud_english_ewt", 0, 200)
	dev, devSents := treebankSlice(t, dir, "ud_english_ewt_dev", 0, 60)
	model := filepath.Join(dir, "crf.json")
	mustRun(t, "fit", "--model", "crf", "--data", train, "--perceptron", "--epochs", "2", "--out", model)
	seen := map[string]bool{}
	for _, s := range trainSents {
		for _, w := range s.Tokens {
			seen[w] = true
		}
	}
	m := loadCRF(t, model)
	unknown, correct := 0, 0
	for _, s := range devSents {
		tags, err := m.TagTokens(s.Tokens)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range s.Tokens {
			if !seen[w] {
				unknown++
				if tags[i] == s.Tags[i] {
					correct++
				}
			}
		}
	}
	var rep struct {
		Unknown         int      `json:"unknown_tokens"`
		UnknownCorrect  int      `json:"unknown_correct"`
		UnknownAccuracy *float64 `json:"unknown_accuracy"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, "eval", "--model", model, "--data", dev, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	if unknown < 20 || rep.Unknown != unknown || rep.UnknownCorrect != correct || rep.UnknownAccuracy == nil || *rep.UnknownAccuracy != float64(correct)/float64(unknown) {
		t.Errorf("eval: %d unknown tokens, %d correct, accuracy %v; want %d, %d", rep.Unknown, rep.UnknownCorrect, rep.UnknownAccuracy, unknown, correct)
	}

	j := crfParams(t, m)
	delete(j, "vocabulary")
	params, _ := json.Marshal(j)
	old, err := crf.UnmarshalModel(m.Schema(), params)
	if err != nil {
		t.Fatal(err)
	}
	oldFile := filepath.Join(dir, "old.json")
	if err := modelfile.Save(oldFile, old); err != nil {
		t.Fatal(err)
	}
	if text := mustRun(t, "eval", "--model", oldFile, "--data", dev); !strings.Contains(text, "unknown-word accuracy  undefined (0/0)") {
		t.Errorf("eval of a model file without its words:\n%s", text)
	}
}
