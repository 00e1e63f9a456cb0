package text

import (
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"
	"unicode"

	"github.com/gendisc/gendisc/datasets"
)

// reference is testdata/reference.json.gz, written by gen_reference.py.
type reference struct {
	Documents        int           `json:"documents"`
	StopWordsEnglish []string      `json:"stop_words_english"`
	Argsort          []argsortCase `json:"argsort"`
	WordCharacters   struct {
		Unicode string    `json:"unicode"`
		Ranges  [][2]rune `json:"ranges"`
		Lower   [][2]any  `json:"lower"`
	} `json:"word_characters"`
	Settings map[string]referenceSetting `json:"settings"`
}

type argsortCase struct {
	Values  []int64 `json:"values"`
	Argsort []int   `json:"argsort"`
}

type referenceSetting struct {
	Params struct {
		NGramRange  []int  `json:"ngram_range"`
		MinDF       any    `json:"min_df"`
		MaxDF       any    `json:"max_df"`
		MaxFeatures int    `json:"max_features"`
		StopWords   string `json:"stop_words"`
	} `json:"params"`
	Vocabulary []string  `json:"vocabulary"`
	RowNNZ     []int     `json:"row_nnz"`
	ColumnSums []float64 `json:"column_sums"`
	HeadRows   []int     `json:"head_rows"`
	HeadCols   []int32   `json:"head_cols"`
	HeadCounts []float64 `json:"head_counts"`
	Checksum   int64     `json:"checksum"`
}

var loadReference = sync.OnceValues(func() (*reference, error) {
	return readGzipJSON[reference]("testdata/reference.json.gz")
})

// readGzipJSON decodes the gzip-compressed JSON file at path into a T.
func readGzipJSON[T any](path string) (*T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var r T
	return &r, json.NewDecoder(z).Decode(&r)
}

func readReference(t testing.TB) *reference {
	t.Helper()
	r, err := loadReference()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// smsSpam returns the text column of the bundled sms_spam data, read as
// the reference script reads it (RFC 4180, no missing-value handling).
var smsSpam = sync.OnceValues(func() ([]string, error) {
	rc, err := datasets.Open("sms_spam")
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	rows, err := csv.NewReader(rc).ReadAll()
	if err != nil {
		return nil, err
	}
	col := slices.Index(rows[0], "text")
	docs := make([]string, len(rows)-1)
	for i, r := range rows[1:] {
		docs[i] = r[col]
	}
	return docs, nil
})

func smsDocs(t testing.TB) []string {
	t.Helper()
	docs, err := smsSpam()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// config translates the CountVectorizer parameters of a setting.
func (s referenceSetting) config(t *testing.T) VectorizerConfig {
	docFreq := func(v any) DocFreq {
		switch x := v.(type) {
		case nil:
			return DocFreq{}
		case float64:
			// json gives every number as float64: the script writes
			// integers without a decimal point.
			if x == float64(int(x)) && x >= 1 {
				return DocFreq{Count: int(x)}
			}
			return DocFreq{Fraction: x}
		}
		t.Fatalf("bad document frequency %v", v)
		return DocFreq{}
	}
	c := VectorizerConfig{
		StopWords:   s.Params.StopWords,
		MinDF:       docFreq(s.Params.MinDF),
		MaxDF:       docFreq(s.Params.MaxDF),
		MaxFeatures: s.Params.MaxFeatures,
	}
	if g := s.Params.NGramRange; g != nil {
		c.NGrams = NGrams{g[0], g[1]}
	}
	return c
}

// checkAgainst compares a vocabulary and its count matrix with a
// reference setting, exactly.
func checkAgainst(t *testing.T, ref referenceSetting, v *Vocabulary, m *CSR) {
	t.Helper()
	if got := v.Terms(); !slices.Equal(got, ref.Vocabulary) {
		t.Fatalf("vocabulary: %d terms, want %d; first difference at %d", len(got), len(ref.Vocabulary), firstDiff(got, ref.Vocabulary))
	}
	if m.Rows != len(ref.RowNNZ) || m.Cols != len(ref.Vocabulary) {
		t.Fatalf("matrix %d×%d, want %d×%d", m.Rows, m.Cols, len(ref.RowNNZ), len(ref.Vocabulary))
	}
	for i, want := range ref.RowNNZ {
		if got := m.Indptr[i+1] - m.Indptr[i]; got != want {
			t.Fatalf("row %d has %d entries, want %d", i, got, want)
		}
	}
	if got := m.ColumnSums(nil, nil); !slices.Equal(got, ref.ColumnSums) {
		t.Fatalf("column sums differ at %d", firstDiff(got, ref.ColumnSums))
	}
	k := 0
	for i := range 200 {
		idx, val := sortedRow(m, i)
		for e, j := range idx {
			if ref.HeadRows[k] != i || ref.HeadCols[k] != j || ref.HeadCounts[k] != val[e] {
				t.Fatalf("entry %d: (%d, %d) = %v, want (%d, %d) = %v", k, i, j, val[e], ref.HeadRows[k], ref.HeadCols[k], ref.HeadCounts[k])
			}
			k++
		}
	}
	if k != len(ref.HeadRows) {
		t.Fatalf("%d entries in the first 200 rows, want %d", k, len(ref.HeadRows))
	}
	const mod = 1000000007
	var sum int64
	for i := range m.Rows {
		idx, val := m.Row(i)
		for e, j := range idx {
			sum = (sum + int64(val[e])*((int64(i)*1000003+int64(j))%mod)) % mod
		}
	}
	if sum != ref.Checksum {
		t.Fatalf("checksum %d, want %d", sum, ref.Checksum)
	}
}

// sortedRow returns row i of m sorted by column, as scipy stores it.
func sortedRow(m *CSR, i int) ([]int32, []float64) {
	idx, val := m.Row(i)
	order := make([]int, len(idx))
	for e := range order {
		order[e] = e
	}
	slices.SortFunc(order, func(a, b int) int { return int(idx[a]) - int(idx[b]) })
	si, sv := make([]int32, len(idx)), make([]float64, len(idx))
	for e, o := range order {
		si[e], sv[e] = idx[o], val[o]
	}
	return si, sv
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestReferenceCountVectorizer(t *testing.T) {
	ref := readReference(t)
	docs := smsDocs(t)
	if len(docs) != ref.Documents {
		t.Fatalf("%d documents, reference has %d", len(docs), ref.Documents)
	}
	for name, s := range ref.Settings {
		t.Run(name, func(t *testing.T) {
			cfg := s.config(t)
			v, m, err := cfg.FitTransform(docs)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainst(t, s, v, m)
			// Transform with the fitted vocabulary gives the same matrix.
			m2, unseen := v.Transform(docs)
			checkAgainst(t, s, v, m2)
			if (unseen == 0) != (v.Len() == len(ref.Settings[name].Vocabulary) && cfg.MinDF == DocFreq{} && cfg.MaxDF == DocFreq{} && cfg.MaxFeatures == 0) {
				t.Errorf("unseen = %d with pruning %+v", unseen, cfg)
			}
		})
	}
}

func TestReferenceStopWords(t *testing.T) {
	ref := readReference(t)
	if got := StopWords("english"); !slices.Equal(got, ref.StopWordsEnglish) {
		t.Fatalf("english stop list differs from scikit-learn's at %d", firstDiff(got, ref.StopWordsEnglish))
	}
}

func TestReferenceNumpyArgsort(t *testing.T) {
	for i, c := range readReference(t).Argsort {
		if got := numpyArgsort(c.Values); !slices.Equal(got, c.Argsort) {
			t.Errorf("case %d (n = %d): differs from numpy at %d", i, len(c.Values), firstDiff(got, c.Argsort))
		}
	}
}

// TestReferenceWordRunes compares IsWordRune and the lower-casing with
// Python's token pattern and str.lower over every code point: each
// character Python takes is a word rune here and lower-cases the same way
// (except U+0130, see Tokenize); the word runes Python does not take are
// those that Go's newer Unicode tables added.
func TestReferenceWordRunes(t *testing.T) {
	ref := readReference(t).WordCharacters
	python := make([]bool, unicode.MaxRune+1)
	for _, r := range ref.Ranges {
		for c := r[0]; c <= r[1]; c++ {
			python[c] = true
		}
	}
	extra := 0
	for c := range rune(unicode.MaxRune + 1) {
		switch here := IsWordRune(c); {
		case python[c] && !here:
			t.Errorf("%U (%q) is a word character in Python, not here", c, c)
		case here && !python[c]:
			extra++
		}
	}
	// Unicode 15.0 added 4,489 characters, most of them letters; Python
	// 3.11 has 14.0.
	if unicode.Version != ref.Unicode && extra > 4489 {
		t.Errorf("%d word runes unknown to Python's Unicode %s", extra, ref.Unicode)
	}
	if unicode.Version == ref.Unicode && extra > 0 {
		t.Errorf("%d word runes that Python does not take", extra)
	}
	for _, p := range ref.Lower {
		c, low := rune(p[0].(float64)), p[1].(string)
		if got := string(unicode.ToLower(c)); got != low && c != 'İ' {
			t.Errorf("lower case of %U: %q, Python %q", c, got, low)
		}
	}
}
