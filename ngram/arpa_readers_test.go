package ngram

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var arpaOut = flag.String("arpa-out", "", "write the ARPA files and tokenized sentences of TestARPAReaders to this `directory`, for testdata/arpa_reference.py")

// readLines returns the lines of a file of the test data.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// TestARPAReaders checks the ARPA files the models write against an
// independent ARPA reader (testdata/arpa_reference.py, whose log₁₀
// probabilities are in testdata/arpa_reference.json): one <s> in front
// of each held-out sentence, as SRILM, KenLM, IRSTLM and sphinxbase
// read, gives the probability the model gives the sentence, padded with
// N−1 Starts, to 1e-9 in log₁₀. ReadARPA gives it too. The files must be
// the ones the reference read (their SHA-256): a change of WriteARPA
// needs the reference written again (see the script).
func TestARPAReaders(t *testing.T) {
	train, test := readLines(t, "testdata/arpa/corpus.txt"), readLines(t, "testdata/arpa/heldout.txt")
	b, err := os.ReadFile("testdata/arpa_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]struct {
		SHA256 string
		Log10  []float64
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	configs := map[string]Config{
		"kn2":      {Order: 2},
		"kn3":      {Order: 3},
		"kn4":      {Order: 4},
		"wb3":      {Order: 3, Smoothing: WittenBell},
		"kn3_min2": {Order: 3, MinCount: 2},
	}
	for name, c := range configs {
		m := fit(t, c, docs(train, nil))
		var arpa bytes.Buffer
		if err := m.WriteARPA(&arpa, 0); err != nil {
			t.Fatal(err)
		}
		var toks []string
		for _, doc := range test {
			toks = append(toks, strings.Join(c.Tokenize(doc), " "))
		}
		if *arpaOut != "" {
			if err := os.WriteFile(filepath.Join(*arpaOut, name+".arpa"), arpa.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*arpaOut, name+".tok"), []byte(strings.Join(toks, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		r, ok := ref[name]
		sum := sha256.Sum256(arpa.Bytes())
		if !ok || hex.EncodeToString(sum[:]) != r.SHA256 || len(r.Log10) != len(test) {
			t.Fatalf("%s: the ARPA file is not the one testdata/arpa_reference.json was computed from: write it again (testdata/arpa_reference.py)", name)
		}
		a, err := ReadARPA(bytes.NewReader(arpa.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range test {
			lp, _ := m.LogProb(doc, 0)
			want := r.Log10[i]
			if got := lp / math.Ln10; math.Abs(got-want) > 1e-9 {
				t.Errorf("%s: %q: log₁₀ P %v in the model, %v in the reference reader of its ARPA file", name, toks[i], got, want)
			}
			if lp, _ := a.LogProbTokens(strings.Fields(toks[i])); math.Abs(lp/math.Ln10-want) > 1e-9 {
				t.Errorf("%s: %q: log₁₀ P %v by ReadARPA, %v by the reference reader", name, toks[i], lp/math.Ln10, want)
			}
		}
	}
}

// TestReadARPAOther reads an ARPA file that another implementation wrote
// (testdata/arpa_reference.py write: a trigram model of interpolated
// absolute discounting) and checks that ReadARPA gives each held-out
// sentence the log₁₀ probability that implementation computed from its
// own formulas, to 1e-9.
func TestReadARPAOther(t *testing.T) {
	f, err := os.Open("testdata/arpa/other.arpa")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ReadARPA(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("testdata/arpa/other.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []struct {
		Tokens []string
		Log10  float64
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no sentences in testdata/arpa/other.json")
	}
	for _, s := range want {
		lp, n := a.LogProbTokens(s.Tokens)
		if got := lp / math.Ln10; math.Abs(got-s.Log10) > 1e-9 || n != len(s.Tokens)+1 {
			t.Errorf("%q: log₁₀ P %v over %d tokens, want %v over %d", s.Tokens, got, n, s.Log10, len(s.Tokens)+1)
		}
	}
}
