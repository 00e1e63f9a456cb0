package text

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// hashingReference is testdata/hashing_reference.json.gz, written by
// gen_hashing_reference.py from scikit-learn's HashingVectorizer.
type hashingReference struct {
	Documents int              `json:"documents"`
	Murmur3   map[string]int32 `json:"murmur3"`
	Settings  map[string]struct {
		Params struct {
			NFeatures     int    `json:"n_features"`
			AlternateSign bool   `json:"alternate_sign"`
			NGramRange    []int  `json:"ngram_range"`
			StopWords     string `json:"stop_words"`
		} `json:"params"`
		RowNNZ          []int     `json:"row_nnz"`
		ColumnSumCols   []int32   `json:"column_sum_cols"`
		ColumnSumValues []float64 `json:"column_sum_values"`
		HeadRows        []int     `json:"head_rows"`
		HeadCols        []int32   `json:"head_cols"`
		HeadValues      []float64 `json:"head_values"`
	} `json:"settings"`
}

var loadHashingReference = sync.OnceValues(func() (*hashingReference, error) {
	return readGzipJSON[hashingReference]("testdata/hashing_reference.json.gz")
})

func readHashingReference(t *testing.T) *hashingReference {
	t.Helper()
	r, err := loadHashingReference()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMurmur3 checks the hash against scikit-learn's murmurhash3_32.
func TestMurmur3(t *testing.T) {
	for s, want := range readHashingReference(t).Murmur3 {
		if got := murmur3([]byte(s)); got != want {
			t.Errorf("murmur3(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestHashingReference compares the hashed count matrices of sms_spam with
// scikit-learn's HashingVectorizer (norm=None) under every setting of the
// reference, exactly: the entries of the first 200 rows, the number of
// nonzero entries of every row and the nonzero column sums. The matrix is
// made four ways that must agree: NewHashing's Transform, FitTransform
// (a Counter per core, merged), Count, and a Counter fed in chunks of 1000
// documents, as fit --stream does.
func TestHashingReference(t *testing.T) {
	ref := readHashingReference(t)
	docs := smsDocs(t)
	if len(docs) != ref.Documents {
		t.Fatalf("%d documents, the reference has %d", len(docs), ref.Documents)
	}
	for name, s := range ref.Settings {
		t.Run(name, func(t *testing.T) {
			cfg := VectorizerConfig{HashFeatures: s.Params.NFeatures, AlternateSign: s.Params.AlternateSign, StopWords: s.Params.StopWords}
			if g := s.Params.NGramRange; g != nil {
				cfg.NGrams = NGrams{g[0], g[1]}
			}
			v, err := NewHashing(cfg)
			if err != nil {
				t.Fatal(err)
			}
			transformed, unseen := v.Transform(docs)
			if unseen != 0 {
				t.Errorf("%d unseen terms with hashed columns", unseen)
			}
			fv, fitted, err := cfg.FitTransform(docs)
			if err != nil {
				t.Fatal(err)
			}
			if fv.Len() != s.Params.NFeatures || fv.Term(3) != "#3" {
				t.Errorf("fitted vocabulary: %d columns, column 3 %q", fv.Len(), fv.Term(3))
			}
			_, counted, err := cfg.Count(docs)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := NewCounter(cfg)
			var chunks []*CSR
			for lo := 0; lo < len(docs); lo += 1000 {
				chunks = append(chunks, c.Count(docs[lo:min(lo+1000, len(docs))]))
			}
			streamed := concat(chunks, c.Len())
			if c.Docs() != len(docs) || c.Len() != s.Params.NFeatures {
				t.Errorf("counter: %d documents, %d columns", c.Docs(), c.Len())
			}
			for way, m := range map[string]*CSR{"Transform": transformed, "FitTransform": fitted, "Count": counted, "chunks": streamed} {
				if m.Rows != len(docs) || m.Cols != s.Params.NFeatures {
					t.Fatalf("%s: matrix %d×%d", way, m.Rows, m.Cols)
				}
				sums := make(map[int32]float64)
				var hr []int
				var hc []int32
				var hv []float64
				for i := range m.Rows {
					cols, vals := m.Row(i)
					type entry struct {
						col int32
						v   float64
					}
					var row []entry
					for k, j := range cols {
						if vals[k] != 0 {
							row = append(row, entry{j, vals[k]})
							sums[j] += vals[k]
						}
					}
					if len(row) != s.RowNNZ[i] {
						t.Fatalf("%s: row %d has %d nonzero entries, want %d", way, i, len(row), s.RowNNZ[i])
					}
					if i < 200 {
						slices.SortFunc(row, func(a, b entry) int { return int(a.col - b.col) })
						for _, e := range row {
							hr, hc, hv = append(hr, i), append(hc, e.col), append(hv, e.v)
						}
					}
				}
				if !slices.Equal(hr, s.HeadRows) || !slices.Equal(hc, s.HeadCols) || !slices.Equal(hv, s.HeadValues) {
					t.Errorf("%s: the entries of the first 200 rows differ from HashingVectorizer's", way)
				}
				var sc []int32
				for j, v := range sums {
					if v != 0 {
						sc = append(sc, j)
					}
				}
				slices.Sort(sc)
				if !slices.Equal(sc, s.ColumnSumCols) {
					t.Fatalf("%s: %d nonzero column sums, want %d", way, len(sc), len(s.ColumnSumCols))
				}
				for k, j := range sc {
					if sums[j] != s.ColumnSumValues[k] {
						t.Errorf("%s: column %d sums to %g, want %g", way, j, sums[j], s.ColumnSumValues[k])
					}
				}
			}
		})
	}
}

// TestHashingConfig: hashing refuses the vocabulary's pruning and a
// negative number of columns; alternate signs need hashing; a hashed
// vocabulary and counter read back from JSON without terms.
func TestHashingConfig(t *testing.T) {
	for _, c := range []VectorizerConfig{
		{HashFeatures: -1},
		{AlternateSign: true},
		{HashFeatures: 8, MinDF: DocFreq{Count: 2}},
		{HashFeatures: 8, MaxDF: DocFreq{Fraction: 0.5}},
		{HashFeatures: 8, MaxFeatures: 3},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	cfg := VectorizerConfig{HashFeatures: 16, AlternateSign: true}
	c, _ := NewCounter(cfg)
	c.Add([]string{"free entry now", "call me"})
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "free") {
		t.Errorf("a hashed counter keeps words: %s", b)
	}
	back, err := UnmarshalCounter(b)
	if err != nil || back.Docs() != 2 || back.Len() != 16 {
		t.Fatalf("read back: %v, %+v", err, back)
	}
	v, _, _ := c.Vocabulary()
	b, _ = json.Marshal(v)
	vb, err := UnmarshalVocabulary(b)
	if err != nil || vb.Len() != 16 || vb.Config() != cfg {
		t.Fatalf("vocabulary read back: %v", err)
	}
	if _, err := UnmarshalVocabulary([]byte(`{"config":{"ngrams":{"min":1,"max":1},"min_df":{},"max_df":{},"hash_features":4},"terms":["a"]}`)); err == nil {
		t.Error("a hashed vocabulary with terms read without an error")
	}
	j, ok := vb.Index("free")
	if k, _ := hashColumn([]byte("free"), 16, true); !ok || j != int(k) {
		t.Errorf("Index(free) = %d, %v, want %d", j, ok, k)
	}
}
