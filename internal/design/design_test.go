package design

import (
	"errors"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/text"
)

func testData() *data.Dataset {
	nan := math.NaN()
	s := &data.Schema{Features: []data.Column{
		{Name: "x", Kind: data.Numeric},
		{Name: "color", Kind: data.Categorical, Levels: []string{"blue", "green", "red"}},
		{Name: "k", Kind: data.Numeric},
	}}
	return &data.Dataset{Schema: s, N: 4, Source: data.Provenance{Name: "t.csv", Lines: []int{2, 3, 4, 5}}, X: []float64{
		1, 0, 5,
		2, 2, 5,
		4, nan, 5,
		nan, 2, 5,
	}, Weight: []float64{1, 1, 2, 0.5}}
}

func TestFit(t *testing.T) {
	d := testData()
	_, err := Fit(d, Options{})
	var pe *data.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrMissing) || pe.Line != 4 || pe.ColumnName != "color" {
		t.Fatalf("error %v, want missing color at t.csv:4", err)
	}
	e, err := Fit(d, Options{Impute: true})
	if err != nil {
		t.Fatal(err)
	}
	// x: observed 1, 2, 4 with weights 1, 1, 2.
	mx := (1 + 2 + 8) / 4.0
	sx := math.Sqrt((1*(1-mx)*(1-mx) + 1*(2-mx)*(2-mx) + 2*(4-mx)*(4-mx)) / 4)
	// color: blue (w 1), red (w 1 + 0.5) over observed weight 2.5.
	want := []Term{
		{Feature: 0, Level: -1, Center: mx, Scale: sx},
		{Feature: 1, Level: 0, Scale: 1, Fill: 1 / 2.5},
		{Feature: 1, Level: 1, Scale: 1, Fill: 0},
		{Feature: 1, Level: 2, Scale: 1, Fill: 1.5 / 2.5},
		{Feature: 2, Level: -1, Center: 5, Scale: 1}, // constant: scale 1
	}
	got := e.Terms()
	if len(got) != len(want) {
		t.Fatalf("terms %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Feature != w.Feature || g.Level != w.Level || math.Abs(g.Center-w.Center) > 1e-15 ||
			math.Abs(g.Scale-w.Scale) > 1e-15 || math.Abs(g.Fill-w.Fill) > 1e-15 {
			t.Errorf("term %d = %+v, want %+v", i, g, w)
		}
	}
	if e.Name(3) != "color=red" || e.Name(0) != "x" {
		t.Errorf("names %q %q", e.Name(0), e.Name(3))
	}
	m := e.Encode(d)
	row := m.Row(2) // x = 4, color missing
	wantRow := []float64{(4 - mx) / sx, 0.4, 0, 0.6, 0}
	for j := range wantRow {
		if math.Abs(row[j]-wantRow[j]) > 1e-15 {
			t.Errorf("row 2 = %v, want %v", row, wantRow)
			break
		}
	}
	if r := m.Row(3); r[0] != 0 || r[3] != 1 {
		t.Errorf("row 3 = %v", r)
	}
	drop, err := Fit(d, Options{Impute: true, DropFirst: true})
	if err != nil || drop.P() != 4 || drop.Name(1) != "color=green" {
		t.Errorf("DropFirst: %v, %v", drop.Terms(), err)
	}
}

func TestJSON(t *testing.T) {
	d := testData()
	e, err := Fit(d, Options{Impute: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Unmarshal(d.Schema, b)
	if err != nil {
		t.Fatal(err)
	}
	a, c := e.Encode(d), e2.Encode(d)
	for i := range a.Dense {
		if a.Dense[i] != c.Dense[i] {
			t.Fatalf("cell %d: %v after the round trip, %v before", i, c.Dense[i], a.Dense[i])
		}
	}
	for _, bad := range []string{
		`[{"feature":"nope","center":0,"scale":1,"fill":0}]`,
		`[{"feature":"x","level":"blue","center":0,"scale":1,"fill":0}]`,
		`[{"feature":"color","level":"pink","center":0,"scale":1,"fill":0}]`,
		`[{"feature":"x","center":0,"scale":0,"fill":0}]`,
		`{`,
	} {
		if _, err := Unmarshal(d.Schema, []byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestErrors(t *testing.T) {
	d := testData()
	d.Schema.Features[2].Kind = data.Text
	if _, err := Fit(d, Options{Impute: true}); err == nil {
		t.Error("text column accepted")
	}
	d = testData()
	d.Weight[1] = -1
	if _, err := Fit(d, Options{Impute: true}); err == nil {
		t.Error("negative weight accepted")
	}
}

// TestDense: an all-numeric data set takes the vector kernels, which must
// give the cell loop's results bit for bit, missing cells included.
func TestDense(t *testing.T) {
	nan := math.NaN()
	s := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Numeric}, {Name: "b", Kind: data.Numeric}}}
	n := 10000
	x := make([]float64, 2*n)
	for i := range x {
		x[i] = math.Sin(float64(i)) * float64(i%17)
	}
	x[2*9000+1] = nan
	d := &data.Dataset{Schema: s, N: n, X: x, Source: data.Named("dense")}
	e, err := Fit(d, Options{Impute: true})
	if err != nil {
		t.Fatal(err)
	}
	if !e.dense {
		t.Fatal("fast path not taken")
	}
	m := e.Encode(d)
	row := make([]float64, 2)
	for i := range n {
		e.EncodeRow(row, d.Row(i))
		if got := m.Row(i); got[0] != row[0] || got[1] != row[1] {
			t.Fatalf("row %d: Encode %v, EncodeRow %v", i, got, row)
		}
	}
	if m.Row(9000)[1] != 0 {
		t.Errorf("missing cell encoded as %v", m.Row(9000)[1])
	}
	if _, err := Fit(d, Options{}); !errors.Is(err, ErrMissing) {
		t.Errorf("missing cell in dense data: %v", err)
	}
	if _, _, _, ok := e.Raw(d); ok {
		t.Error("Raw offered rows with a missing cell")
	}

	// Without the missing cell: Raw offers the rows, centred at the means
	// or, with NoStandardize (which skips the second pass), kept in their
	// units with the means as the fill of a missing cell.
	x[2*9000+1] = 0.5
	for _, opt := range []Options{{}, {NoStandardize: true}} {
		e, err := Fit(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		raw, center, scale, ok := e.Raw(d)
		if !ok || &raw[0] != &x[0] {
			t.Fatalf("%+v: no raw view of complete dense data", opt)
		}
		for j, term := range e.Terms() {
			mean := 0.0
			for i := range n {
				mean += x[2*i+j] / float64(n)
			}
			fill, shift := 0.0, mean // the design value of a missing cell, the center
			if opt.NoStandardize {
				fill, shift = mean, 0
			}
			if math.Abs(term.Fill-fill) > 1e-12 || math.Abs(center[j]-shift) > 1e-12 || opt.NoStandardize && scale[j] != 1 {
				t.Errorf("%+v: column %d: fill %v (mean %v), center %v, scale %v", opt, j, term.Fill, mean, center[j], scale[j])
			}
		}
	}
}

// rowCounts returns row i of m as a map from column to count.
func rowCounts(m *text.CSR, i int) map[int32]float64 {
	idx, val := m.Row(i)
	out := map[int32]float64{}
	for k, j := range idx {
		out[j] = val[k]
	}
	return out
}

// TestText: term counts as sparse columns after the dense ones, one
// vocabulary per text column (package text, the settings applied), unseen
// terms left out, and the vocabularies in the JSON form.
func TestText(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "n", Kind: data.Numeric}, {Name: "msg", Kind: data.Text}, {Name: "subj", Kind: data.Text}}}
	nan := math.NaN()
	d := &data.Dataset{Schema: s, N: 3, X: []float64{1, nan, nan, 2, nan, nan, 3, nan, nan}, Source: data.Named("t"),
		Text: [][]string{nil, {"win win cash", "", "Cash now"}, {"a b", "", "b"}}}
	if _, err := Fit(d, Options{}); err == nil {
		t.Error("text column accepted without Options.Text")
	}
	e, err := Fit(d, Options{Text: &text.VectorizerConfig{}})
	if err != nil {
		t.Fatal(err)
	}
	if e.P() != 1 || e.V() != 5 || e.Name(1) != "msg:cash" || e.Name(3) != "msg:win" || e.Name(5) != "subj:b" {
		t.Fatalf("P %d V %d names %q %q %q", e.P(), e.V(), e.Name(1), e.Name(3), e.Name(5))
	}
	m := e.Encode(d)
	want := []map[int32]float64{{0: 1, 2: 2, 3: 1, 4: 1}, {}, {0: 1, 1: 1, 4: 1}}
	for i, w := range want {
		if got := rowCounts(m.Sparse, i); !maps.Equal(got, w) {
			t.Errorf("row %d: %v, want %v", i, got, w)
		}
	}
	if m.Sparse.Rows != 3 || m.Sparse.Cols != 5 {
		t.Errorf("sparse part %d × %d", m.Sparse.Rows, m.Sparse.Cols)
	}
	if dm := m.Densify(); dm.P != 6 || dm.Sparse != nil || !slices.Equal(dm.Dense, []float64{
		-1.224744871391589, 1, 0, 2, 1, 1,
		0, 0, 0, 0, 0, 0,
		1.224744871391589, 1, 1, 0, 0, 1,
	}) {
		t.Errorf("Densify: P %d, %v", dm.P, dm.Dense)
	}
	unseen := &data.Dataset{Schema: s, N: 1, X: []float64{0, nan, nan}, Text: [][]string{nil, {"now what cash"}, nil}}
	if got := rowCounts(e.EncodeText(unseen), 0); !maps.Equal(got, map[int32]float64{0: 1, 1: 1}) {
		t.Errorf("unseen words: %v", got)
	}
	// Settings: bigrams only, terms of one letter dropped.
	bi, err := Fit(d, Options{Text: &text.VectorizerConfig{NGrams: text.NGrams{Min: 2, Max: 2}, MinLen: 2}})
	if err == nil {
		t.Errorf("subj has no bigram of two-letter tokens: %d terms", bi.V())
	}
	d.Text[2] = []string{"aa bb", "", "bb cc"}
	if bi, err = Fit(d, Options{Text: &text.VectorizerConfig{NGrams: text.NGrams{Min: 2, Max: 2}, MinLen: 2}}); err != nil || bi.V() != 5 || bi.Name(1) != "msg:cash now" {
		t.Fatalf("bigrams: %v %v", bi.Vocabularies(), err)
	}

	b, err := e.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Unmarshal(s, b)
	if err != nil {
		t.Fatal(err)
	}
	if e2.V() != 5 || e2.P() != 1 || e2.Name(2) != "msg:now" || e2.Name(4) != "subj:a" {
		t.Errorf("round trip: P %d V %d", e2.P(), e2.V())
	}
	if b2, _ := e2.MarshalJSON(); string(b2) != string(b) {
		t.Errorf("written again:\n%s\nfirst:\n%s", b2, b)
	}
	voc := `{"config":{"ngrams":{"min":0,"max":0},"min_df":{},"max_df":{}},"terms":["a"]}`
	for _, bad := range []string{
		`[{"feature":"msg","center":0,"scale":1,"fill":0}]`,
		`[{"feature":"n","center":0,"scale":1,"fill":0,"vocabulary":` + voc + `}]`,
		`[{"feature":"msg","vocabulary":{"config":{},"terms":["b","a"]}}]`,
		`[{"feature":"msg","vocabulary":{"config":{},"terms":["a b"]}}]`,
		`[{"feature":"msg","vocabulary":{"config":{},"terms":[]}}]`,
		`[{"feature":"msg","vocabulary":` + voc + `},{"feature":"msg","vocabulary":` + voc + `}]`,
		`[{"feature":"msg","vocabulary":` + voc + `},{"feature":"n","center":0,"scale":1,"fill":0}]`,
	} {
		if _, err := Unmarshal(s, []byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := Unmarshal(s, []byte(`[{"feature":"msg","vocabulary":`+voc+`}]`)); err != nil {
		t.Errorf("one-term vocabulary: %v", err)
	}
}

// TestMissingFound checks that a missing cell is found wherever it is: in
// a row of weight 0 or of a weight too small to change the sums, as in
// any other row, and that it keeps Raw from handing out the rows.
func TestMissingFound(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "a", Kind: data.Numeric}, {Name: "b", Kind: data.Numeric}}}
	n := 20000
	for _, c := range []struct {
		name string
		w    float64 // the weight of the row with the missing cell; 0 for none
	}{{"weight 0", 0}, {"weight 1e-300", 1e-300}, {"weight 1", 1}, {"no weights", -1}} {
		x := make([]float64, 2*n)
		var w []float64
		if c.w >= 0 {
			w = make([]float64, n)
			for i := range w {
				w[i] = 1 + float64(i%3)
			}
			w[777] = c.w
		}
		for i := range x {
			x[i] = float64(i % 17)
		}
		x[2*777+1] = math.NaN()
		d := &data.Dataset{Schema: s, N: n, X: x, Weight: w, Source: data.Named("m.csv")}
		_, err := Fit(d, Options{})
		var pe *data.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrMissing) || pe.Line != d.Line(777) || pe.ColumnName != "b" {
			t.Errorf("%s: error %v, want missing b at row 777", c.name, err)
		}
		e, err := Fit(d, Options{Impute: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, ok := e.Raw(d); ok {
			t.Errorf("%s: Raw hands out rows with a missing cell", c.name)
		}
	}
}

// TestMoments compares the centers, scales and fills of Fit on a data set
// of 50,000 weighted rows with the textbook two-pass formulas (1e-12
// relative).
func TestMoments(t *testing.T) {
	s := &data.Schema{Features: []data.Column{
		{Name: "a", Kind: data.Numeric},
		{Name: "c", Kind: data.Categorical, Levels: []string{"p", "q", "r"}},
		{Name: "b", Kind: data.Numeric},
	}}
	n := 50000
	x, w := make([]float64, 3*n), make([]float64, n)
	for i := range n {
		w[i] = float64(i%5) / 2
		x[3*i] = 1e4 + float64(i%101)*0.37
		x[3*i+1] = float64(i % 3)
		x[3*i+2] = -5 + math.Sin(float64(i))
		if i%97 == 0 {
			x[3*i+2] = math.NaN()
		}
		if i%89 == 0 {
			x[3*i+1] = math.NaN()
		}
	}
	d := &data.Dataset{Schema: s, N: n, X: x, Weight: w}
	e, err := Fit(d, Options{Impute: true})
	if err != nil {
		t.Fatal(err)
	}
	var wsum, mean [3]float64
	var ss [3]float64
	var level [3]float64
	for i := range n {
		for j := range 3 {
			if v := x[3*i+j]; v == v {
				wsum[j] += w[i]
				mean[j] += w[i] * v
				if j == 1 {
					level[int(v)] += w[i]
				}
			}
		}
	}
	for j := range 3 {
		mean[j] /= wsum[j]
	}
	for i := range n {
		for j := range 3 {
			if v := x[3*i+j]; v == v {
				ss[j] += w[i] * (v - mean[j]) * (v - mean[j])
			}
		}
	}
	rel := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
	for _, term := range e.Terms() {
		j := term.Feature
		switch {
		case term.Level >= 0:
			if !rel(term.Fill, level[term.Level]/wsum[1]) {
				t.Errorf("level %d: fill %v, want %v", term.Level, term.Fill, level[term.Level]/wsum[1])
			}
		case !rel(term.Center, mean[j]) || !rel(term.Scale, math.Sqrt(ss[j]/wsum[j])) || term.Fill != 0:
			t.Errorf("feature %d: %+v, want center %v scale %v", j, term, mean[j], math.Sqrt(ss[j]/wsum[j]))
		}
	}
}
