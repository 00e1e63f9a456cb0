package design

import (
	"errors"
	"math"
	"testing"

	"github.com/gendisc/gendisc/data"
)

func testData() *data.Dataset {
	nan := math.NaN()
	s := &data.Schema{Features: []data.Column{
		{Name: "x", Kind: data.Numeric},
		{Name: "color", Kind: data.Categorical, Levels: []string{"blue", "green", "red"}},
		{Name: "k", Kind: data.Numeric},
	}}
	return &data.Dataset{Schema: s, N: 4, Source: "t.csv", Lines: []int{2, 3, 4, 5}, X: []float64{
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
	d := &data.Dataset{Schema: s, N: n, X: x, Source: "dense"}
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
}

func TestTokens(t *testing.T) {
	got := Tokens("Free entry!! Win a £1000 prize_now, ÉTÉ déjà-vu x2 a1")
	want := []string{"free", "entry", "win", "1000", "prize_now", "été", "déjà", "vu", "x2", "a1"}
	if len(got) != len(want) {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Tokens = %q, want %q", got, want)
		}
	}
}

// TestText: word counts as sparse columns after the dense ones, unseen
// words left out, and the vocabulary in the JSON form.
func TestText(t *testing.T) {
	s := &data.Schema{Features: []data.Column{{Name: "n", Kind: data.Numeric}, {Name: "msg", Kind: data.Text}}}
	d := &data.Dataset{Schema: s, N: 3, X: []float64{1, math.NaN(), 2, math.NaN(), 3, math.NaN()}, Source: "t",
		Text: [][]string{nil, {"win win cash", "", "cash now"}}}
	if _, err := Fit(d, Options{}); err == nil {
		t.Error("text column accepted without Options.Text")
	}
	e, err := Fit(d, Options{Text: true})
	if err != nil {
		t.Fatal(err)
	}
	if e.P() != 1 || e.V() != 3 || e.Name(1) != "msg:cash" || e.Name(3) != "msg:win" {
		t.Fatalf("P %d V %d names %q %q", e.P(), e.V(), e.Name(1), e.Name(3))
	}
	m := e.Encode(d)
	idx, val := m.Sparse.Row(0)
	if len(idx) != 2 || idx[0] != 0 || val[0] != 1 || idx[1] != 2 || val[1] != 2 {
		t.Errorf("row 0: %v %v", idx, val)
	}
	if idx, _ := m.Sparse.Row(1); len(idx) != 0 {
		t.Errorf("empty cell: %v", idx)
	}
	unseen := &data.Dataset{Schema: s, N: 1, X: []float64{0, math.NaN()}, Text: [][]string{nil, {"now what cash"}}}
	if idx, val := e.EncodeText(nil, nil, unseen, 0); len(idx) != 2 || idx[0] != 0 || idx[1] != 1 || val[1] != 1 {
		t.Errorf("unseen words: %v %v", idx, val)
	}
	b, err := e.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	e2, err := Unmarshal(s, b)
	if err != nil {
		t.Fatal(err)
	}
	if e2.V() != 3 || e2.P() != 1 || e2.Name(2) != "msg:now" {
		t.Errorf("round trip: P %d V %d", e2.P(), e2.V())
	}
	for _, bad := range []string{
		`[{"feature":"msg","center":0,"scale":1,"fill":0}]`,
		`[{"feature":"n","center":0,"scale":1,"fill":0,"vocabulary":["a"]}]`,
		`[{"feature":"msg","center":0,"scale":1,"fill":0,"vocabulary":["b","a"]}]`,
		`[{"feature":"msg","center":0,"scale":1,"fill":0,"vocabulary":["a"]},{"feature":"n","center":0,"scale":1,"fill":0}]`,
	} {
		if _, err := Unmarshal(s, []byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
