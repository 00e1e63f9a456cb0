package dataio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gendisc/gendisc/data"
)

// configs are the reader configurations every test reads with: the
// default, one row block at a time through a tiny buffer, and several
// blocks per small chunk. All must give the same Dataset or error.
var configs = []readConfig{
	defaultConfig,
	{chunk: 5, blocks: 1},
	{chunk: 16, blocks: 3},
	{chunk: 64, blocks: 7},
}

// read reads src with every configuration, checks that they agree, and
// returns the result of the default one.
func read(t *testing.T, src string, opt Options) (*data.Dataset, error) {
	t.Helper()
	return agree(t, func(cfg readConfig) (*data.Dataset, error) {
		return readInferred(strings.NewReader(src), "t.csv", opt, cfg)
	})
}

// readSchemaAll is read for ReadWithSchema.
func readSchemaAll(t *testing.T, src string, s *data.Schema, opt SchemaOptions) (*data.Dataset, error) {
	t.Helper()
	return agree(t, func(cfg readConfig) (*data.Dataset, error) {
		return readSchema(strings.NewReader(src), "t.csv", s, opt, cfg)
	})
}

func agree(t *testing.T, readWith func(readConfig) (*data.Dataset, error)) (*data.Dataset, error) {
	t.Helper()
	d0, err0 := readWith(configs[0])
	for _, cfg := range configs[1:] {
		d, err := readWith(cfg)
		if fmt.Sprint(err) != fmt.Sprint(err0) {
			t.Fatalf("config %+v: error %v, default config: %v", cfg, err, err0)
		}
		if err == nil {
			if diff := datasetDiff(d0, d); diff != "" {
				t.Fatalf("config %+v differs from the default: %s", cfg, diff)
			}
		}
	}
	return d0, err0
}

// datasetDiff describes the first difference between a and b, NaN equal
// to NaN; "" when they are the same.
func datasetDiff(a, b *data.Dataset) string {
	switch {
	case !a.Schema.Equal(b.Schema):
		return fmt.Sprintf("schema %+v vs %+v", a.Schema, b.Schema)
	case a.N != b.N:
		return fmt.Sprintf("N %d vs %d", a.N, b.N)
	case !sameFloats(a.X, b.X):
		return fmt.Sprintf("X %v vs %v", a.X, b.X)
	case !sameFloats(a.Y, b.Y) || (a.Y == nil) != (b.Y == nil):
		return fmt.Sprintf("Y %v vs %v", a.Y, b.Y)
	case !sameFloats(a.Weight, b.Weight) || (a.Weight == nil) != (b.Weight == nil):
		return fmt.Sprintf("Weight %v vs %v", a.Weight, b.Weight)
	case fmt.Sprintf("%q", a.Text) != fmt.Sprintf("%q", b.Text):
		return fmt.Sprintf("Text %q vs %q", a.Text, b.Text)
	case !slices.Equal(a.Source.Unseen, b.Source.Unseen):
		return fmt.Sprintf("Unseen %v vs %v", a.Source.Unseen, b.Source.Unseen)
	}
	return ""
}

func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
	})
}

func mustRead(t *testing.T, src string, opt Options) *data.Dataset {
	t.Helper()
	d, err := read(t, src, opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var nan = math.NaN()

func checkFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !sameFloats(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestReadBasic(t *testing.T) {
	d := mustRead(t, "a,b,class\n1,x,yes\n2.5,y,no\n-3,x,yes\n", Options{})
	want := &data.Schema{
		Features: []data.Column{
			{Name: "a", Kind: data.Numeric, Range: &data.Range{Min: -3, Max: 2.5}},
			{Name: "b", Kind: data.Categorical, Levels: []string{"x", "y"}},
		},
		Target: &data.Column{Name: "class", Kind: data.Categorical, Levels: []string{"no", "yes"}},
	}
	if !d.Schema.Equal(want) {
		t.Errorf("schema %+v %+v, want %+v %+v", d.Schema.Features, d.Schema.Target, want.Features, want.Target)
	}
	if d.N != 3 || d.D() != 2 || d.Source.Name != "t.csv" {
		t.Errorf("N=%d D=%d Source=%q", d.N, d.D(), d.Source)
	}
	checkFloats(t, "X", d.X, []float64{1, 0, 2.5, 1, -3, 0})
	checkFloats(t, "Y", d.Y, []float64{1, 0, 1})
	if !slices.Equal(d.Source.Lines, []int{2, 3, 4}) {
		t.Errorf("Lines = %v", d.Source.Lines)
	}
	if d.Weight != nil || d.Text != nil || d.Source.Unseen != nil {
		t.Errorf("Weight %v Text %v Unseen %v, want nil", d.Weight, d.Text, d.Source.Unseen)
	}
}

func TestReadFormats(t *testing.T) {
	want := mustRead(t, "a,b,c\n1,x y,p\n2,\"q\",r\n", Options{})
	for _, tc := range []struct{ name, src string }{
		{"tsv", "a\tb\tc\n1\tx y\tp\n2\tq\tr\n"},
		{"semicolon", "a;b;c\n1;x y;p\n2;q;r\n"},
		{"bom", "\xef\xbb\xbfa,b,c\n1,x y,p\n2,q,r\n"},
		{"crlf", "a,b,c\r\n1,x y,p\r\n2,q,r\r\n"},
		{"crlf no final newline", "a,b,c\r\n1,x y,p\r\n2,q,r"},
		{"no final newline", "a,b,c\n1,x y,p\n2,q,r"},
		{"blank lines", "\na,b,c\n\n1,x y,p\r\n\n2,q,r\n\n\r\n\n"},
		{"quoted everything", "\"a\",\"b\",\"c\"\n\"1\",\"x y\",\"p\"\n\"2\",\"q\",\"r\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustRead(t, tc.src, Options{})
			if diff := datasetDiff(want, d); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestReadQuoting(t *testing.T) {
	src := "id,text,class\n" +
		"1,\"a, b\",x\n" +
		"2,\"say \"\"hi\"\"\",x\n" +
		"3,\"two\nlines\",y\n" +
		"4,\"crlf\r\ninside\",y\r\n" +
		"5,\"\",x\n" +
		"6,plain,y\n"
	d := mustRead(t, src, Options{Text: []string{"text"}})
	want := []string{"a, b", `say "hi"`, "two\nlines", "crlf\r\ninside", "", "plain"}
	if !slices.Equal(d.Text[1], want) {
		t.Errorf("Text = %q, want %q", d.Text[1], want)
	}
	if !slices.Equal(d.Source.Lines, []int{2, 3, 4, 6, 8, 9}) {
		t.Errorf("Lines = %v", d.Source.Lines)
	}
	checkFloats(t, "X", d.X, []float64{1, nan, 2, nan, 3, nan, 4, nan, 5, nan, 6, nan})
}

func TestReadDelimiter(t *testing.T) {
	// Quoted delimiters do not count: this header has one tab outside
	// quotes and two commas inside.
	d := mustRead(t, "\"a,b,c\"\td\n1\tx\n", Options{})
	if d.Schema.Features[0].Name != "a,b,c" {
		t.Errorf("features %+v", d.Schema.Features)
	}
	// A single column is read whole; with NoTarget it is a feature.
	d = mustRead(t, "x\n1\n2\n", Options{NoTarget: true})
	checkFloats(t, "X", d.X, []float64{1, 2})
	// Options.Comma overrides detection.
	d = mustRead(t, "a;b,c\n1;2,3\n", Options{Comma: ',', NoTarget: true})
	if d.Schema.Features[0].Name != "a;b" || d.Schema.Features[0].Kind != data.Categorical {
		t.Errorf("features %+v", d.Schema.Features)
	}
	if _, err := read(t, "a\n1\n", Options{Comma: '"'}); err == nil {
		t.Error("quote as delimiter: no error")
	}
}

func TestReadMissing(t *testing.T) {
	tokens := []string{"", "NA", "N/A", "NaN", "nan", "?", "null", "NULL", " NA ", "\"\"", "\"NA\""}
	var src strings.Builder
	src.WriteString("num,cat,class\n")
	for _, tok := range tokens {
		fmt.Fprintf(&src, "%s,%s,%s\n", tok, tok, tok)
	}
	src.WriteString("1.5,x,c\n 2 ,\" y\",c\n")
	d := mustRead(t, src.String(), Options{})
	n := len(tokens)
	if d.Schema.Features[0].Kind != data.Numeric {
		t.Fatalf("num is %v", d.Schema.Features[0].Kind)
	}
	if got := d.Schema.Features[1].Levels; !slices.Equal(got, []string{" y", "x"}) {
		t.Errorf("cat levels %q", got)
	}
	for i := range n {
		if r := d.Row(i); r[0] == r[0] || r[1] == r[1] || d.Y[i] == d.Y[i] {
			t.Errorf("row %d (%q) = %v, y %v, want missing", i, tokens[i], r, d.Y[i])
		}
	}
	checkFloats(t, "last rows", d.X[2*n:], []float64{1.5, 1, 2, 0})
	// Other texts are values.
	d = mustRead(t, "a,class\nNone,x\nna,y\n-,z\n", Options{})
	if got := d.Schema.Features[0].Levels; !slices.Equal(got, []string{"-", "None", "na"}) {
		t.Errorf("levels %q", got)
	}
}

func TestReadInference(t *testing.T) {
	src := "n,i,c,digits,t,y\n" +
		"1.5,1,red,1,the quick brown fox,0\n" +
		"2,-2,green,10,jumps over the dog,1\n" +
		"1e3,3,red,2,a b c d,1\n"
	d := mustRead(t, src, Options{Categorical: []string{"digits"}})
	want := []data.Column{
		{Name: "n", Kind: data.Numeric, Range: &data.Range{Min: 1.5, Max: 1000}},
		{Name: "i", Kind: data.Numeric, Integral: true, Range: &data.Range{Min: -2, Max: 3}},
		{Name: "c", Kind: data.Categorical, Levels: []string{"green", "red"}},
		{Name: "digits", Kind: data.Categorical, Levels: []string{"1", "2", "10"}},
		{Name: "t", Kind: data.Text},
	}
	if !d.Schema.Equal(&data.Schema{Features: want, Target: &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"0", "1"}}}) {
		t.Errorf("features %+v target %+v", d.Schema.Features, d.Schema.Target)
	}
	checkFloats(t, "row 0", d.Row(0), []float64{1.5, 1, 1, 0, nan})
	checkFloats(t, "row 2", d.Row(2), []float64{1000, 3, 1, 1, nan})
	if d.Text[4][1] != "jumps over the dog" || d.Text[0] != nil {
		t.Errorf("Text = %q", d.Text)
	}

	// Numeric target, named in the middle; a weight column; ignored
	// columns; forced text.
	d = mustRead(t, "a,y,w,id,s\n1,0.5,2,7,x\n2,1.5,0,8,y\n", Options{
		Target: "y", NumericTarget: true, Weight: "w", Ignore: []string{"id"}, Text: []string{"s"}})
	if !d.Schema.Equal(&data.Schema{
		Features: []data.Column{{Name: "a", Kind: data.Numeric, Integral: true, Range: &data.Range{Min: 1, Max: 2}}, {Name: "s", Kind: data.Text}},
		Target:   &data.Column{Name: "y", Kind: data.Numeric},
	}) {
		t.Errorf("features %+v target %+v", d.Schema.Features, d.Schema.Target)
	}
	checkFloats(t, "Y", d.Y, []float64{0.5, 1.5})
	checkFloats(t, "Weight", d.Weight, []float64{2, 0})
	checkFloats(t, "X", d.X, []float64{1, nan, 2, nan})

	// An integer numeric target is Integral.
	d = mustRead(t, "a,y\n1,2\n2,-3\n", Options{NumericTarget: true})
	if want := (data.Column{Name: "y", Kind: data.Numeric, Integral: true}); !d.Schema.Equal(&data.Schema{Features: d.Schema.Features, Target: &want}) {
		t.Errorf("target %+v", d.Schema.Target)
	}

	// No target: every column is a feature; Y nil.
	d = mustRead(t, "a,b\n1,2\n", Options{NoTarget: true})
	if d.D() != 2 || d.Y != nil || d.Schema.Target != nil {
		t.Errorf("D=%d Y=%v target %v", d.D(), d.Y, d.Schema.Target)
	}

	// Categorical names the target: still the class column.
	d = mustRead(t, "a,y\n1,2\n", Options{Categorical: []string{"y"}})
	if d.Schema.Target == nil || d.D() != 1 {
		t.Errorf("target %v D=%d", d.Schema.Target, d.D())
	}

	// A column of infinities among strings is categorical; missing
	// target values stay as rows.
	d = mustRead(t, "a,y\ninf,p\nx,\n", Options{})
	if got := d.Schema.Features[0].Levels; !slices.Equal(got, []string{"inf", "x"}) {
		t.Errorf("levels %q", got)
	}
	checkFloats(t, "Y", d.Y, []float64{0, nan})
}

// TestReadTextRule checks the text heuristic on its edges.
func TestReadTextRule(t *testing.T) {
	kind := func(cells []string) data.Kind {
		t.Helper()
		src := "c,y\n" + strings.Join(cells, ",0\n") + ",0\n"
		return mustRead(t, src, Options{}).Schema.Features[0].Kind
	}
	var twoWords, cities []string
	for i := range 40 {
		twoWords = append(twoWords, fmt.Sprintf("w%d x%d", i, i))
		cities = append(cities, []string{"New York", "Los Angeles", "Paris"}[i%3])
	}
	for _, tc := range []struct {
		name  string
		cells []string
		want  data.Kind
	}{
		{"three words", []string{"a b c", "d e f"}, data.Text},
		{"two words", []string{"a b", "c d"}, data.Categorical},
		{"many distinct two-word values", twoWords, data.Text},
		{"few distinct two-word values", cities, data.Categorical},
	} {
		if got := kind(tc.cells); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// nonSeeker hides the Seek method of a reader.
type nonSeeker struct{ io.Reader }

func TestReadColumnTurnsText(t *testing.T) {
	src := "a,b,y\n1,1.50,p\n2,1e3,p\n10,007,q\nx,z,q\n"
	check := func(d *data.Dataset, bLevels []string) {
		t.Helper()
		a, b := d.Schema.Features[0], d.Schema.Features[1]
		if a.Kind != data.Categorical || !slices.Equal(a.Levels, []string{"1", "10", "2", "x"}) {
			t.Errorf("a = %+v", a)
		}
		if b.Kind != data.Categorical || !slices.Equal(b.Levels, bLevels) {
			t.Errorf("b = %+v, want levels %q", b, bLevels)
		}
		checkFloats(t, "a", []float64{d.X[0], d.X[2], d.X[4], d.X[6]}, []float64{0, 2, 1, 3})
	}
	// The canonical numbers of a are rebuilt; b is read again from the
	// start, since 1.50, 1e3 and 007 are not canonical.
	check(mustRead(t, src, Options{}), []string{"007", "1.50", "1e3", "z"})
	// Without Seek the non-canonical numbers take their shortest form.
	for _, cfg := range configs {
		d, err := readInferred(nonSeeker{strings.NewReader(src)}, "t.csv", Options{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		check(d, []string{"1.5", "1000", "7", "z"})
	}
	// The same from a file.
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check(d, []string{"007", "1.50", "1e3", "z"})
	if d.Source.Name != path {
		t.Errorf("Source %q", d.Source)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope.csv"), Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		opt  Options
		is   error
		msg  string
	}{
		{"empty", "", Options{}, data.ErrEmpty, "t.csv: empty file"},
		{"bom only", "\xef\xbb\xbf", Options{}, data.ErrEmpty, "t.csv: empty file"},
		{"blank lines only", "\n\r\n\n", Options{}, data.ErrEmpty, "t.csv: empty file"},
		{"header only", "a,b\n", Options{}, data.ErrNoRows, "t.csv:1: no data rows after the header"},
		{"header and blank lines", "a,b\n\n\n", Options{}, data.ErrNoRows, "t.csv:1: no data rows after the header"},
		{"header after blank lines", "\n\na,b\n", Options{}, data.ErrNoRows, "t.csv:3: no data rows after the header"},
		{"short row", "a,b,c\n1,2,3\n4,5\n", Options{}, data.ErrFieldCount, "t.csv:3:3: column \"c\": wrong number of fields: line 3 has 2 fields, the header has 3"},
		{"long row", "a,b,c\n1,2,3,4,5\n", Options{}, data.ErrFieldCount, "t.csv:2:4: wrong number of fields: line 2 has 5 fields, the header has 3"},
		{"long row at end", "a,b\n1,2\n1,2,\"x\"", Options{}, data.ErrFieldCount, "t.csv:3:3: wrong number of fields: line 3 has 3 fields, the header has 2"},
		{"not a number", "a,y\n1,2\nx1,3\n", Options{Target: "a", NumericTarget: true}, data.ErrNotNumber, `t.csv:3:1: column "a": not a number: "x1"`},
		{"missing weight", "a,w,y\n1,,p\n", Options{Weight: "w"}, data.ErrWeight, `t.csv:2:2: column "w": weight must be a finite number >= 0: ""`},
		{"negative weight", "a,w,y\n1,2,p\n1,-1,p\n", Options{Weight: "w"}, data.ErrWeight, `t.csv:3:2: column "w": weight must be a finite number >= 0: "-1"`},
		{"weight not a number", "a,w,y\n1,a,p\n", Options{Weight: "w"}, data.ErrNotNumber, `t.csv:2:2: column "w": not a number: "a"`},
		{"infinite weight", "a,w,y\n1,inf,p\n", Options{Weight: "w"}, data.ErrInfinite, `t.csv:2:2: column "w": infinite or out-of-range number: "inf"`},
		{"inf", "a,b,y\n1,2,p\n3,inf,p\n", Options{}, data.ErrInfinite, `t.csv:3:2: column "b": infinite or out-of-range number: "inf"`},
		{"-Infinity", "a,b,y\n1,-Infinity,p\n", Options{}, data.ErrInfinite, `t.csv:2:2: column "b": infinite or out-of-range number: "-Infinity"`},
		{"overflow", "a,b,y\n1e999,2,p\n", Options{}, data.ErrInfinite, `t.csv:2:1: column "a": infinite or out-of-range number: "1e999"`},
		{"first of two infinities", "a,b,y\n1,-1e400,p\n-inf,2,p\n", Options{}, data.ErrInfinite, `t.csv:2:2: column "b": infinite or out-of-range number: "-1e400"`},
		{"numeric target inf", "a,y\n1,INF\n", Options{NumericTarget: true}, data.ErrInfinite, `t.csv:2:2: column "y": infinite or out-of-range number: "INF"`},
		{"no target", "a,b\n1,2\n", Options{Target: "zz"}, data.ErrNoColumn, `t.csv:1: column "zz": no such column; the columns are a, b`},
		{"no weight", "a,b\n1,2\n", Options{Weight: "w"}, data.ErrNoColumn, `t.csv:1: column "w": no such column; the columns are a, b`},
		{"no ignored", "a,b\n1,2\n", Options{Ignore: []string{"w"}}, data.ErrNoColumn, `t.csv:1: column "w": no such column; the columns are a, b`},
		{"no categorical", "a,b\n1,2\n", Options{Categorical: []string{"w"}}, data.ErrNoColumn, `t.csv:1: column "w": no such column; the columns are a, b`},
		{"no text", "a,b\n1,2\n", Options{Text: []string{"w"}}, data.ErrNoColumn, `t.csv:1: column "w": no such column; the columns are a, b`},
		{"many columns", "a,b,c,d,e,f,g,h,i,j,k,l\n1,2,3,4,5,6,7,8,9,10,11,12\n", Options{Target: "m"}, data.ErrNoColumn,
			`t.csv:1: column "m": no such column; the columns are a, b, c, d, e, f, g, h, i, j, ... (12 in all)`},
		{"bare quote", "a,b\n1,x\"y\n", Options{}, data.ErrQuote, `t.csv:2:2: column "b": bad quoting: " in an unquoted field`},
		{"text after quote", "a,b\n1,\"x\"y\n", Options{}, data.ErrQuote, `t.csv:2:2: column "b": bad quoting: text after the closing quote`},
		{"unclosed quote", "a,b\n1,2\n1,\"x\n\n", Options{}, data.ErrQuote, `t.csv:3:2: column "b": bad quoting: quoted field not closed`},
		{"unclosed quote in header", "a,\"b\n1,2\n", Options{}, data.ErrQuote, `t.csv:1:2: bad quoting: quoted field not closed`},
		{"invalid utf-8", "a,b\n1,x\n2,\xff\xfe\n", Options{}, data.ErrEncoding, `t.csv:3:2: column "b": not valid UTF-8: "\xff\xfe"`},
		{"invalid utf-8 header", "a,\xffb\n1,2\n", Options{}, data.ErrEncoding, `t.csv:1:2: not valid UTF-8: "\xffb"`},
		{"duplicate name", "a,b,a\n1,2,3\n", Options{}, data.ErrDuplicate, `t.csv:1:3: column "a": duplicate column name (also column 1)`},
		{"duplicate empty name", ",column_1\n1,2\n", Options{}, data.ErrDuplicate, `t.csv:1:2: column "column_1": duplicate column name (also column 1)`},
		{"target ignored", "a,b\n1,2\n", Options{Ignore: []string{"b"}}, nil, `t.csv:1:2: column "b": named as both ignored and target`},
		{"weight is target", "a,b\n1,2\n", Options{Weight: "b"}, nil, `t.csv:1:2: column "b": named as both weight and target`},
		{"text and categorical", "a,b\n1,2\n", Options{Text: []string{"a"}, Categorical: []string{"a"}}, nil, `t.csv:1:1: column "a": named as both text and categorical`},
		{"target and NoTarget", "a,b\n1,2\n", Options{Target: "a", NoTarget: true}, nil, `data: Options.Target "a" with NoTarget`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.src, tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.msg {
				t.Errorf("error\n %s\nwant\n %s", err, tc.msg)
			}
			if tc.is != nil {
				var pe *data.ParseError
				if !errors.Is(err, tc.is) || !errors.As(err, &pe) {
					t.Errorf("error %v is not a ParseError wrapping %v", err, tc.is)
				}
			}
		})
	}
}

// TestReadLines checks error lines after multi-line quoted fields and
// blank lines, through chunk boundaries.
func TestReadLines(t *testing.T) {
	src := "a,b\n\"x\n\ny\",1\n\n\nz,2\nw,3,4\n"
	_, err := read(t, src, Options{})
	want := "t.csv:8:3: wrong number of fields: line 8 has 3 fields, the header has 2"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	d := mustRead(t, strings.TrimSuffix(src, "w,3,4\n"), Options{})
	if !slices.Equal(d.Source.Lines, []int{2, 7}) {
		t.Errorf("Lines %v", d.Source.Lines)
	}
}

func TestReadEmptyHeaderName(t *testing.T) {
	d := mustRead(t, ",b,\n1,2,x\n", Options{})
	if d.Schema.Features[0].Name != "column_1" || d.Schema.Target.Name != "column_3" {
		t.Errorf("schema %+v %+v", d.Schema.Features, d.Schema.Target)
	}
}

// TestReadLarge reads many rows through small chunks and many blocks and
// checks every value.
func TestReadLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,y\n")
	const n = 5000
	for i := range n {
		fmt.Fprintf(&b, "%d,%g,\"s%d\",%d\n", i, float64(i)/8, i%7, i%3)
	}
	d := mustRead(t, b.String(), Options{})
	if d.N != n {
		t.Fatalf("N = %d", d.N)
	}
	for i := range n {
		if r := d.Row(i); r[0] != float64(i) || r[1] != float64(i)/8 || d.Schema.Features[2].Levels[int(r[2])] != fmt.Sprintf("s%d", i%7) ||
			d.Y[i] != float64(i%3) || d.Source.Lines[i] != i+2 {
			t.Fatalf("row %d = %v, y %v, line %d", i, r, d.Y[i], d.Source.Lines[i])
		}
	}
	if !d.Schema.Features[0].Integral || d.Schema.Features[1].Integral {
		t.Errorf("Integral %+v", d.Schema.Features)
	}
}

// TestReadParallelMatchesSequential parses a numeric file of the
// benchmark's shape on one block and on many, through large and small
// chunks: X must be bit for bit the same.
func TestReadParallelMatchesSequential(t *testing.T) {
	path := filepath.Join(t.TempDir(), "numeric.csv")
	if err := writeBenchFile(path, 3000); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var first *data.Dataset
	for _, cfg := range []readConfig{{chunk: 1 << 30, blocks: 1}, {chunk: 1 << 30, blocks: 13}, {chunk: 50 << 10, blocks: 4}, {chunk: 1000, blocks: 2}} {
		d, err := readInferred(strings.NewReader(string(raw)), "numeric.csv", Options{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if d.N != 3000 || d.D() != 50 {
			t.Fatalf("%+v: %d × %d", cfg, d.N, d.D())
		}
		if first == nil {
			first = d
		} else if diff := datasetDiff(first, d); diff != "" {
			t.Fatalf("%+v: %s", cfg, diff[:min(len(diff), 200)])
		}
	}
	// Spot-check values against strconv.
	lines := strings.Split(string(raw), "\n")
	for _, i := range []int{0, 1234, 2999} {
		for j, cell := range strings.Split(lines[i+1], ",")[:50] {
			want, _ := strconv.ParseFloat(cell, 64)
			if got := first.Row(i)[j]; got != want {
				t.Fatalf("row %d col %d = %v, want %v", i, j, got, want)
			}
		}
	}
}

// TestReadReaders reads through a reader that returns one byte at a time
// and one that fails part way.
func TestReadReaders(t *testing.T) {
	src := "a,b,y\n1,\"x\ny\",p\n2,z,q\n"
	want := mustRead(t, src, Options{})
	for _, cfg := range configs {
		d, err := readInferred(iotest.OneByteReader(strings.NewReader(src)), "t.csv", Options{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if diff := datasetDiff(want, d); diff != "" {
			t.Errorf("%+v: %s", cfg, diff)
		}
	}
	boom := errors.New("boom")
	for _, n := range []int{0, 3, 12} {
		in := io.MultiReader(strings.NewReader(src[:n]), iotest.ErrReader(boom))
		_, err := Read(in, "t.csv", Options{})
		if !errors.Is(err, boom) || err.Error() != "t.csv: boom" {
			t.Errorf("after %d bytes: error %v", n, err)
		}
	}
}
