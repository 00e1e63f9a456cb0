package text

import (
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// csrDiff reports where two matrices differ, or "".
func csrDiff(a, b *CSR) string {
	switch {
	case a.Rows != b.Rows || a.Cols != b.Cols:
		return "shape"
	case !slices.Equal(a.Indptr, b.Indptr):
		return "indptr"
	case !slices.Equal(a.Indices, b.Indices):
		return "indices"
	case !slices.Equal(a.Data, b.Data):
		return "data"
	}
	return ""
}

// checkRows checks that m is well formed and every row has distinct
// columns within [0, Cols) and positive values.
func checkRows(t *testing.T, m *CSR) {
	t.Helper()
	if len(m.Indptr) != m.Rows+1 || m.Indptr[0] != 0 || m.Indptr[m.Rows] != len(m.Indices) || len(m.Data) != len(m.Indices) {
		t.Fatalf("malformed CSR: %d rows, indptr %d, %d indices, %d values", m.Rows, len(m.Indptr), len(m.Indices), len(m.Data))
	}
	last := make([]int, m.Cols)
	for i := range m.Rows {
		idx, val := m.Row(i)
		for e, j := range idx {
			if j < 0 || int(j) >= m.Cols || last[j] == i+1 || val[e] <= 0 {
				t.Fatalf("row %d: entry %d (%d, %v) repeated or out of range", i, e, j, val[e])
			}
			last[j] = i + 1
		}
	}
}

// TestCounterChunks checks that counting in chunks, counting parts and
// merging them, and counting at once give the same vocabulary and matrix,
// and that FitTransform (parallel) equals Fit then Transform.
func TestCounterChunks(t *testing.T) {
	docs := smsDocs(t)
	for _, cfg := range []VectorizerConfig{
		{},
		{NGrams: NGrams{1, 2}, StopWords: "english", MinDF: DocFreq{Count: 2}, MaxFeatures: 2000},
		{MinLen: 2, MaxDF: DocFreq{Fraction: 0.1}, MinDF: DocFreq{Fraction: 0.001}},
	} {
		whole, m, err := cfg.FitTransform(docs)
		if err != nil {
			t.Fatal(err)
		}
		checkRows(t, m)
		fitted, err := cfg.Fit(docs)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fitted.Terms(), whole.Terms()) {
			t.Fatalf("%+v: Fit and FitTransform differ", cfg)
		}
		tm, _ := fitted.Transform(docs)
		if d := csrDiff(tm, m); d != "" {
			t.Fatalf("%+v: Transform and FitTransform differ in %s", cfg, d)
		}

		// One Counter over chunks of varying size.
		rng := rand.New(rand.NewPCG(1, 2))
		c, _ := NewCounter(cfg)
		var rows []*CSR
		for lo := 0; lo < len(docs); {
			hi := min(len(docs), lo+1+rng.IntN(700))
			rows = append(rows, c.Count(docs[lo:hi]))
			lo = hi
		}
		v, col, err := c.Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Terms(), whole.Terms()) {
			t.Fatalf("%+v: chunked vocabulary differs", cfg)
		}
		for k, r := range rows {
			checkRows(t, r)
			r.Cols = c.Len() // earlier chunks know fewer terms
			rows[k] = r.MapColumns(col, v.Len())
		}
		if d := csrDiff(concat(rows, v.Len()), m); d != "" {
			t.Fatalf("%+v: chunked counts differ in %s", cfg, d)
		}

		// Counters over three parts, merged, and a JSON round trip.
		var parts [3]*Counter
		for p := range parts {
			parts[p], _ = NewCounter(cfg)
			parts[p].Add(docs[p*len(docs)/3 : (p+1)*len(docs)/3])
		}
		b, err := json.Marshal(parts[0])
		if err != nil {
			t.Fatal(err)
		}
		merged, err := UnmarshalCounter(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts[1:] {
			ids, err := merged.Merge(p)
			if err != nil {
				t.Fatal(err)
			}
			for i, id := range ids {
				if merged.Term(int(id)) != p.Term(i) {
					t.Fatalf("merge maps %q to %q", p.Term(i), merged.Term(int(id)))
				}
			}
		}
		for id := range c.Len() {
			j, ok := merged.ID(c.Term(id))
			tf, df := c.Frequency(id)
			if tf2, df2 := merged.Frequency(j); !ok || j != id || tf != tf2 || df != df2 {
				t.Fatalf("term %q: id %d tf %d df %d after merge, want id %d tf %d df %d", c.Term(id), j, tf2, df2, id, tf, df)
			}
		}
		if merged.Docs() != len(docs) || merged.Len() != c.Len() {
			t.Fatalf("merged %d docs %d terms, want %d, %d", merged.Docs(), merged.Len(), len(docs), c.Len())
		}

		// A clone counts on apart from its original, as a counter of all
		// its documents would.
		clone := parts[0].Clone()
		n, nDocs := parts[0].Len(), parts[0].Docs()
		clone.Add(docs[len(docs)/3 : 2*len(docs)/3])
		if parts[0].Len() != n || parts[0].Docs() != nDocs {
			t.Fatalf("%+v: counting on a clone changed its original", cfg)
		}
		ref, _ := NewCounter(cfg)
		ref.Add(docs[:2*len(docs)/3])
		if clone.Len() != ref.Len() || clone.Docs() != ref.Docs() {
			t.Fatalf("%+v: the clone has %d terms of %d docs, want %d, %d", cfg, clone.Len(), clone.Docs(), ref.Len(), ref.Docs())
		}
		for id := range ref.Len() {
			j, ok := clone.ID(ref.Term(id))
			tf, df := ref.Frequency(id)
			if tf2, df2 := clone.Frequency(j); !ok || j != id || tf != tf2 || df != df2 {
				t.Fatalf("term %q: id %d tf %d df %d in the clone, want id %d tf %d df %d", ref.Term(id), j, tf2, df2, id, tf, df)
			}
		}
	}
}

func TestCounterMergeSettings(t *testing.T) {
	a, _ := NewCounter(VectorizerConfig{})
	b, _ := NewCounter(VectorizerConfig{MinLen: 2})
	if _, err := a.Merge(b); err == nil {
		t.Fatal("merging counters with different settings: no error")
	}
}

func TestVocabularyErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  VectorizerConfig
		docs []string
		want string
	}{
		{"no documents", VectorizerConfig{}, nil, "empty vocabulary"},
		{"no terms", VectorizerConfig{}, []string{"", " ?! "}, "empty vocabulary"},
		{"only stop words", VectorizerConfig{StopWords: "english"}, []string{"the and of", "a"}, "empty vocabulary"},
		{"all pruned", VectorizerConfig{MinDF: DocFreq{Count: 3}}, []string{"a b", "b c"}, "no terms remain"},
		{"max_df below min_df", VectorizerConfig{MinDF: DocFreq{Count: 2}, MaxDF: DocFreq{Fraction: 0.1}}, []string{"a b", "b c"}, "fewer documents than min_df"},
		{"bad n-grams", VectorizerConfig{NGrams: NGrams{2, 1}}, []string{"a"}, "n-gram range"},
		{"bad stop list", VectorizerConfig{StopWords: "french"}, []string{"a"}, "unknown stop list"},
		{"fraction above 1", VectorizerConfig{MaxDF: DocFreq{Fraction: 1.5}}, []string{"a"}, "max_df"},
		{"both count and fraction", VectorizerConfig{MinDF: DocFreq{Count: 1, Fraction: 0.5}}, []string{"a"}, "min_df"},
		{"negative max features", VectorizerConfig{MaxFeatures: -1}, []string{"a"}, "max features"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.cfg.FitTransform(c.docs)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "text: ") {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]DocFreq{"2": {Count: 2}, "0": {}, "0.01": {Fraction: 0.01}, "1.0": {Fraction: 1}, "1e-3": {Fraction: 0.001}} {
		got, err := ParseDocFreq(in)
		if err != nil || got != want {
			t.Errorf("ParseDocFreq(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if back, _ := ParseDocFreq(got.String()); back != got {
			t.Errorf("%+v: String %q reads back as %+v", got, got.String(), back)
		}
	}
	for _, in := range []string{"-1", "1.5", "x", ""} {
		if _, err := ParseDocFreq(in); err == nil {
			t.Errorf("ParseDocFreq(%q): no error", in)
		}
	}
	for in, want := range map[string]NGrams{"1-2": {1, 2}, "2": {2, 2}, " 1 - 3 ": {1, 3}} {
		if got, err := ParseNGrams(in); err != nil || got != want {
			t.Errorf("ParseNGrams(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"0-1", "2-1", "a-b", "1-", ""} {
		if _, err := ParseNGrams(in); err == nil {
			t.Errorf("ParseNGrams(%q): no error", in)
		}
	}
}

func TestVocabularyJSON(t *testing.T) {
	cfg := VectorizerConfig{NGrams: NGrams{1, 2}, StopWords: "english", MinDF: DocFreq{Count: 2}, MaxDF: DocFreq{Fraction: 0.5}, MaxFeatures: 500}
	docs := smsDocs(t)
	v, m, err := cfg.FitTransform(docs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	w, err := UnmarshalVocabulary(b)
	if err != nil {
		t.Fatal(err)
	}
	if w.Config() != cfg || !slices.Equal(w.Terms(), v.Terms()) {
		t.Fatalf("round trip changed the vocabulary")
	}
	m2, _ := w.Transform(docs)
	if d := csrDiff(m, m2); d != "" {
		t.Fatalf("reloaded vocabulary transforms differently (%s)", d)
	}
	for _, bad := range []string{
		`{"config":{},"terms":[]}`,
		`{"config":{},"terms":["b","a"]}`,
		`{"config":{},"terms":["a","a"]}`,
		`{"config":{},"terms":[""]}`,
		`{"config":{"max_features":1},"terms":["a","b"]}`,
		`{"config":{"ngrams":{"min":2,"max":1}},"terms":["a"]}`,
		`{"config":{},"terms":["A"]}`,
		`{"config":{},"terms":["a b"]}`,
		`{"config":{"ngrams":{"min":1,"max":2}},"terms":["a  b"]}`,
		`{"config":{"ngrams":{"min":1,"max":2}},"terms":["a b c"]}`,
		`{"config":{"stop_words":"english"},"terms":["the"]}`,
		`{"config":{"min_len":2},"terms":["a"]}`,
		`{"config":{},"terms":["a_b"]}`,
		`{"config":{},"terms":"a"}`,
	} {
		if _, err := UnmarshalVocabulary([]byte(bad)); err == nil {
			t.Errorf("UnmarshalVocabulary(%s): no error", bad)
		}
	}
	for _, bad := range []string{
		`{"config":{},"docs":1,"terms":["a"],"tf":[1],"df":[2]}`,
		`{"config":{},"docs":1,"terms":["a"],"tf":[1]}`,
		`{"config":{},"docs":2,"terms":["a","a"],"tf":[1,1],"df":[1,1]}`,
		`{"config":{},"docs":1,"terms":[""],"tf":[1],"df":[1]}`,
		`{"config":{},"docs":1,"terms":["a b"],"tf":[1],"df":[1]}`,
		`{"config":{"stop_words":"x"},"docs":0,"terms":[],"tf":[],"df":[]}`,
	} {
		if _, err := UnmarshalCounter([]byte(bad)); err == nil {
			t.Errorf("UnmarshalCounter(%s): no error", bad)
		}
	}
}

func TestTransformUnseen(t *testing.T) {
	v, err := VectorizerConfig{}.Fit([]string{"spam spam eggs", "ham"})
	if err != nil {
		t.Fatal(err)
	}
	m, unseen := v.Transform([]string{"Eggs, SPAM and more spam!", "", "bacon"})
	if unseen != 3 {
		t.Errorf("unseen = %d, want 3 (and, more, bacon)", unseen)
	}
	want := &CSR{Rows: 3, Cols: 3, Indptr: []int{0, 2, 2, 2}, Indices: []int32{0, 2}, Data: []float64{1, 2}}
	if d := csrDiff(m, want); d != "" {
		t.Errorf("Transform: %+v, want %+v", m, want)
	}
	if got := v.Terms(); !slices.Equal(got, []string{"eggs", "ham", "spam"}) {
		t.Errorf("terms %q", got)
	}
	if j, ok := v.Index("spam"); !ok || j != 2 || v.Term(j) != "spam" {
		t.Errorf("Index(spam) = %d, %v", j, ok)
	}
	if _, ok := v.Index("bacon"); ok {
		t.Errorf("Index(bacon) found")
	}
}

// TestTransformConcurrent checks that one Vocabulary serves many
// goroutines at once with the same results (run with -race).
func TestTransformConcurrent(t *testing.T) {
	docs := smsDocs(t)[:1500]
	v, want, err := VectorizerConfig{NGrams: NGrams{1, 2}}.FitTransform(docs)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for g := range 8 {
		go func() {
			lo := g * 100
			m, _ := v.Transform(docs[lo:])
			wantPart := &CSR{Rows: len(docs) - lo, Cols: want.Cols, Indptr: make([]int, 0, len(docs)-lo+1)}
			for _, p := range want.Indptr[lo:] {
				wantPart.Indptr = append(wantPart.Indptr, p-want.Indptr[lo])
			}
			wantPart.Indices = want.Indices[want.Indptr[lo]:]
			wantPart.Data = want.Data[want.Indptr[lo]:]
			errs <- csrDiff(m, wantPart)
		}()
	}
	for range 8 {
		if d := <-errs; d != "" {
			t.Errorf("concurrent Transform differs in %s", d)
		}
	}
}

// TestCount checks that the parallel Count gives the Counter and matrix
// of counting with one Counter, and that mapping its columns gives
// FitTransform.
func TestCount(t *testing.T) {
	docs := smsDocs(t)
	cfg := VectorizerConfig{NGrams: NGrams{1, 2}, MinDF: DocFreq{Count: 2}}
	c, m, err := cfg.Count(docs)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := NewCounter(cfg)
	want := one.Count(docs)
	if d := csrDiff(m, want); d != "" {
		t.Fatalf("Count and Counter.Count differ in %s", d)
	}
	for id := range one.Len() {
		tf, df := one.Frequency(id)
		if tf2, df2 := c.Frequency(id); c.Term(id) != one.Term(id) || tf != tf2 || df != df2 {
			t.Fatalf("term %d: %q %d %d, want %q %d %d", id, c.Term(id), tf2, df2, one.Term(id), tf, df)
		}
	}
	v, col, err := c.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	_, fm, err := cfg.FitTransform(docs)
	if err != nil {
		t.Fatal(err)
	}
	if d := csrDiff(m.MapColumns(col, v.Len()), fm); d != "" {
		t.Fatalf("mapped Count and FitTransform differ in %s", d)
	}
}

// FuzzUnmarshal checks that reading a vocabulary or term counts never
// panics, and that what is accepted writes back to bytes that read back
// the same.
func FuzzUnmarshal(f *testing.F) {
	v, _ := VectorizerConfig{NGrams: NGrams{1, 2}, MinDF: DocFreq{Fraction: 0.5}}.Fit([]string{"a b c", "b c d"})
	c, _ := NewCounter(VectorizerConfig{StopWords: "english"})
	c.Add([]string{"the cat sat", "a mat"})
	for _, x := range []json.Marshaler{v, c} {
		b, _ := x.MarshalJSON()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if v, err := UnmarshalVocabulary(b); err == nil {
			out, _ := v.MarshalJSON()
			w, err := UnmarshalVocabulary(out)
			if err != nil || w.Config() != v.Config() || !slices.Equal(w.Terms(), v.Terms()) {
				t.Fatalf("vocabulary %s does not read back: %v", out, err)
			}
		}
		if c, err := UnmarshalCounter(b); err == nil {
			out, _ := c.MarshalJSON()
			d, err := UnmarshalCounter(out)
			if err != nil {
				t.Fatalf("term counts %s do not read back: %v", out, err)
			}
			again, _ := d.MarshalJSON()
			if string(again) != string(out) {
				t.Fatalf("term counts change on reading back: %s, %s", out, again)
			}
		}
	})
}

// TestUnmarshalCounterHashedMemory checks that reading the term counts of
// hashed columns, which a model file may claim to be 2³¹−1, allocates
// nothing in proportion to them: NewCounter reserved 8 bytes a column
// (17 GB) before the model's statistics were checked against them.
func TestUnmarshalCounterHashedMemory(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := UnmarshalCounter([]byte(`{"config":{"hash_features":2147483647},"docs":3,"terms":[],"tf":[],"df":[]}`))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 2147483647 {
		t.Errorf("Len() = %d, want 2147483647", c.Len())
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("UnmarshalCounter allocated %d bytes", grew)
	}
}
