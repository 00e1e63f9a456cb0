package fit

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

func TestMain(m *testing.M) { ptest.Main(m) }

// runPrism runs a pipeline on prism, Beam's local runner, in this process.
func runPrism(ctx context.Context, p *beam.Pipeline) error {
	_, err := prism.Execute(ctx, p)
	return err
}

// shards writes rows, a header line and lines of cells, as n files
// part-00000.csv ... in a new directory, in the formats of storeShard, the
// rows dealt round-robin, and returns the directory and the concatenation
// of the files.
func shards(t *testing.T, header string, rows []string, n int) (dir, all string) {
	t.Helper()
	dir = t.TempDir()
	parts := make([]strings.Builder, n)
	for i := range parts {
		parts[i].WriteString(header + "\n")
	}
	for i, r := range rows {
		parts[i%n].WriteString(r + "\n")
	}
	for i := range parts {
		storeShard(t, filepath.Join(dir, fmt.Sprintf("part-%05d", i)), i, []byte(parts[i].String()))
	}
	return dir, header + "\n" + strings.Join(rows, "\n") + "\n"
}

// storeShard writes the CSV file b, the i-th shard of a data set, to the
// file base.csv, compressed or converted as i says, so that every reader
// of the shards meets each format the reader tells by content: the 4th
// (i = 3) gzip-compressed, base.csv.gz; the 5th a Parquet file,
// base.parquet, of its columns as dataio.Read infers them with every column
// a feature; the 7th zstd-compressed and the 8th xz-compressed, both named
// base.csv (the content, not the name, says how to read a shard).
func storeShard(t testing.TB, base string, i int, b []byte) {
	t.Helper()
	name := base + ".csv"
	var z bytes.Buffer
	var err error
	switch i {
	case 3:
		w := gzip.NewWriter(&z)
		w.Write(b)
		err = w.Close()
		name += ".gz"
	case 4:
		var d *data.Dataset
		if d, err = dataio.Read(bytes.NewReader(b), name, dataio.Options{NoTarget: true}); err == nil {
			err = dataio.WriteParquet(&z, d, "")
		}
		name = base + ".parquet"
	case 6:
		var w *zstd.Encoder
		if w, err = zstd.NewWriter(&z); err == nil {
			w.Write(b)
			err = w.Close()
		}
	case 7:
		var w *xz.Writer
		if w, err = xz.NewWriter(&z); err == nil {
			w.Write(b)
			err = w.Close()
		}
	default:
		z.Write(b)
	}
	if err == nil {
		err = os.WriteFile(name, z.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// numericRows are rows of two real features and a class of three.
func numericRows(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([]string, n)
	for i := range rows {
		k := r.IntN(3)
		rows[i] = fmt.Sprintf("%.6g,%.6g,%s", r.NormFloat64()+float64(k), 2*r.NormFloat64()-float64(k), []string{"a", "b", "c"}[k])
	}
	return rows
}

// countRows are rows of three counts and a class of two.
func countRows(n int) []string {
	r := rand.New(rand.NewPCG(3, 4))
	rows := make([]string, n)
	for i := range rows {
		k := r.IntN(2)
		rows[i] = fmt.Sprintf("%d,%d,%d,%s", r.IntN(5+3*k), r.IntN(8-3*k), r.IntN(4), []string{"ham", "spam"}[k])
	}
	return rows
}

// mixedRows are rows of a real feature, a categorical one whose levels
// are numbers in some rows and words in others (so numeric in some shards
// and categorical in others), a text and a class.
func mixedRows(n int) []string {
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"apple", "pear", "plum", "fig", "kiwi", "lime", "date"}
	rows := make([]string, n)
	for i := range rows {
		k := r.IntN(2)
		c := fmt.Sprint(r.IntN(4) + k)
		if i%8 == 5 { // the sixth shard's levels are words
			c = []string{"x", "y"}[k]
		}
		var doc []string
		for range 3 + r.IntN(4) {
			doc = append(doc, words[r.IntN(4+3*k)])
		}
		if i < 8 {
			// The first row of each shard has every word, in one order:
			// the vocabulary, in the order words are first seen, is then
			// the same in every shard and in the concatenation (merged
			// accumulators append the words they lack in merge order).
			doc = words
		}
		rows[i] = fmt.Sprintf("%.6g,%s,%q,%s", r.NormFloat64()+float64(k), c, strings.Join(doc, " "), []string{"no", "yes"}[k])
	}
	return rows
}

// regressionRows are rows of two real features, a categorical one and a
// numeric target.
func regressionRows(n int) []string {
	r := rand.New(rand.NewPCG(7, 8))
	rows := make([]string, n)
	for i := range rows {
		x1, x2, c := r.NormFloat64(), r.NormFloat64(), r.IntN(3)
		rows[i] = fmt.Sprintf("%.6g,%.6g,%s,%.6g", x1, x2, []string{"u", "v", "w"}[c], 1+2*x1-x2+0.5*float64(c)+0.1*r.NormFloat64())
	}
	return rows
}

type kindCase struct {
	kind   string
	header string
	rows   []string
	opt    dataio.Options
	acc    func() (gendisc.Accumulator, error)
	fit    func(*data.Dataset) (gendisc.Model, error)
}

func accOf[A gendisc.Accumulator](a A, err error) (gendisc.Accumulator, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

func modelOf[M gendisc.Model](m M, err error) (gendisc.Model, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

func kindCases() []kindCase {
	nb := func(f naivebayes.Family, header string, rows []string) kindCase {
		cfg := naivebayes.Config{Family: f, Alpha: 1}
		return kindCase{kind: f.String(), header: header, rows: rows,
			acc: func() (gendisc.Accumulator, error) { return accOf(cfg.NewAccumulator()) },
			fit: func(d *data.Dataset) (gendisc.Model, error) { return modelOf(cfg.Fit(d)) }}
	}
	const num, counts, mixed = "x1,x2,y", "n1,n2,n3,y", "x,c,doc,y"
	gnb := naivebayes.GaussianConfig{VarSmoothing: naivebayes.DefaultVarSmoothing}
	gdaCfg := gda.Config{MaxIter: gda.DefaultMaxIter, Tol: gda.DefaultTol}
	lin := linear.Config{L2: 0.5}
	return []kindCase{
		{kind: gaussianNB, header: num, rows: numericRows(400),
			acc: func() (gendisc.Accumulator, error) { return accOf(gnb.NewAccumulator()) },
			fit: func(d *data.Dataset) (gendisc.Model, error) { return modelOf(gnb.Fit(d)) }},
		{kind: gda.KindLDA, header: num, rows: numericRows(400),
			acc: func() (gendisc.Accumulator, error) { return accOf(gda.LDAConfig(gdaCfg).Accumulator()) },
			fit: func(d *data.Dataset) (gendisc.Model, error) { return modelOf(gda.LDAConfig(gdaCfg).Fit(d)) }},
		{kind: gda.KindQDA, header: num, rows: numericRows(400),
			acc: func() (gendisc.Accumulator, error) { return accOf(gda.QDAConfig(gdaCfg).Accumulator()) },
			fit: func(d *data.Dataset) (gendisc.Model, error) { return modelOf(gda.QDAConfig(gdaCfg).Fit(d)) }},
		{kind: linear.Kind, header: "x1,x2,c,t", rows: regressionRows(300), opt: dataio.Options{NumericTarget: true},
			acc: func() (gendisc.Accumulator, error) { return accOf(lin.NewAccumulator()) },
			fit: func(d *data.Dataset) (gendisc.Model, error) { return modelOf(lin.Fit(d)) }},
		nb(naivebayes.Mixed, mixed, mixedRows(400)),
		nb(naivebayes.Bernoulli, num, numericRows(400)),
		nb(naivebayes.Multinomial, counts, countRows(400)),
		nb(naivebayes.Complement, counts, countRows(400)),
		nb(naivebayes.Categorical, "c,y", categoricalRows(mixedRows(400))),
	}
}

// categoricalRows keeps the categorical column and the class of mixed rows.
func categoricalRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		f := strings.Split(r, ",")
		out[i] = f[1] + "," + f[len(f)-1]
	}
	return out
}

// TestFitShards fits every one-pass kind by the pipelines on prism over 8
// shards (one gzip-, one zstd-, one xz-compressed, one Parquet) and checks the model against the kind's
// Fit on the concatenated rows: every number of the model files within
// 1e-12 relative, everything else equal, and the same predictions.
func TestFitShards(t *testing.T) {
	for _, c := range kindCases() {
		t.Run(c.kind, func(t *testing.T) {
			dir, all := shards(t, c.header, c.rows, 8)
			acc, err := c.acc()
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "m.json")
			m, err := Fit(context.Background(), runPrism, filepath.Join(dir, "part-*"), c.kind, acc, out,
				Options{Read: c.opt, Temp: out + ".schema"})
			if err != nil {
				t.Fatal(err)
			}
			d, err := dataio.Read(strings.NewReader(all), "all.csv", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := c.fit(d)
			if err != nil {
				t.Fatal(err)
			}
			compareModels(t, m, want)
			compareModelFiles(t, out, want)
			comparePredictions(t, m, want, d)
			if _, err := os.Stat(out + ".schema"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the schema pass's file is left: %v", err)
			}
		})
	}
}

// compareModels checks that the parameters of the model files of m and
// want are equal, numbers within 1e-12 relative.
func compareModels(t *testing.T, m, want gendisc.Model) {
	t.Helper()
	var a, b bytes.Buffer
	if err := modelfile.Write(&a, m.(modelfile.Persistent)); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Write(&b, want.(modelfile.Persistent)); err != nil {
		t.Fatal(err)
	}
	var x, y map[string]any
	for _, p := range []struct {
		b []byte
		v *map[string]any
	}{{a.Bytes(), &x}, {b.Bytes(), &y}} {
		dec := json.NewDecoder(bytes.NewReader(p.b))
		dec.UseNumber()
		if err := dec.Decode(p.v); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"checksum", "source", "created"} { // of the file, not the fit
		delete(x, k)
		delete(y, k)
	}
	if n := compareJSON(t, "", x, y, 0); n > 0 {
		t.Errorf("%d differences", n)
	}
}

// compareJSON reports where x and y differ, numbers beyond 1e-12
// relative, and returns the number of differences.
func compareJSON(t *testing.T, path string, x, y any, n int) int {
	switch y := y.(type) {
	case map[string]any:
		xm, ok := x.(map[string]any)
		if !ok || len(xm) != len(y) {
			t.Errorf("%s: %v, want %v", path, x, y)
			return n + 1
		}
		for k := range y {
			n = compareJSON(t, path+"."+k, xm[k], y[k], n)
		}
	case []any:
		xs, ok := x.([]any)
		if !ok || len(xs) != len(y) {
			t.Errorf("%s: %v, want %v", path, x, y)
			return n + 1
		}
		// Numbers of an array are compared relative to its largest.
		arrayScale := 0.0
		for _, v := range y {
			if v, ok := v.(json.Number); ok {
				f, _ := v.Float64()
				arrayScale = math.Max(arrayScale, math.Abs(f))
			}
		}
		for i := range y {
			n = compareJSONScaled(t, fmt.Sprintf("%s[%d]", path, i), xs[i], y[i], n, arrayScale)
		}
	case json.Number:
		return compareJSONScaled(t, path, x, y, n, 0)
	default:
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Errorf("%s: %v, want %v", path, x, y)
			return n + 1
		}
	}
	return n
}

// compareJSONScaled is compareJSON with numbers within 1e-12 of the
// larger of their magnitudes and scale.
func compareJSONScaled(t *testing.T, path string, x, y any, n int, scale float64) int {
	switch y := y.(type) {
	case json.Number:
		xn, ok := x.(json.Number)
		if !ok {
			t.Errorf("%s: %v, want %v", path, x, y)
			return n + 1
		}
		a, _ := xn.Float64()
		b, _ := y.Float64()
		if !(a == b || math.Abs(a-b) <= 1e-12*max(math.Abs(a), math.Abs(b), scale)) {
			if n < 10 {
				t.Errorf("%s: %v, want %v (relative %.2g)", path, a, b, math.Abs(a-b)/math.Abs(b))
			}
			return n + 1
		}
	default:
		return compareJSON(t, path, x, y, n)
	}
	return n
}

// compareModelFiles checks that the model file the pipeline wrote holds
// the model, as the model file of want, the fit on one machine, says.
func compareModelFiles(t *testing.T, path string, want gendisc.Model) {
	t.Helper()
	e, err := modelfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Expect(want.Kind()); err != nil {
		t.Error(err)
	}
}

// comparePredictions checks that m and want predict the same on d: the
// same classes, log-probabilities within 1e-12 relative, or the same
// regression predictions within 1e-12 relative.
func comparePredictions(t *testing.T, m, want gendisc.Model, d *data.Dataset) {
	t.Helper()
	switch w := want.(type) {
	case gendisc.Classifier:
		c := m.(gendisc.Classifier)
		if !slicesEqual(gendisc.Predict(c, d), gendisc.Predict(w, d)) {
			t.Errorf("predicted classes differ")
		}
		closeSlices(t, "log-probabilities", c.LogProba(nil, d), w.LogProba(nil, d))
	case *linear.Model:
		closeSlices(t, "predictions", m.(*linear.Model).Predict(nil, d), w.Predict(nil, d))
	default:
		t.Fatalf("%T: no predictions to compare", want)
	}
}

// closeSlices checks that a and b are equal within 1e-12 relative to
// the largest magnitude of b (a norm-wise relative error).
func closeSlices(t *testing.T, what string, a, b []float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d values, want %d", what, len(a), len(b))
	}
	scale := 0.0
	for _, v := range b {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range b {
		if a[i] != b[i] && math.Abs(a[i]-b[i]) > 1e-12*scale {
			t.Errorf("%s[%d] = %v, want %v", what, i, a[i], b[i])
			return
		}
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRaggedShard checks that a shard with a row of too few cells fails
// the pipeline with the file, the line and the column.
func TestRaggedShard(t *testing.T) {
	dir, _ := shards(t, "x1,x2,y", numericRows(80), 8)
	bad := filepath.Join(dir, "part-00005.csv")
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[4] = "1.5,b\n" // line 5: two cells of three
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	acc, err := naivebayes.GaussianConfig{}.NewAccumulator()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "m.json")
	for _, opt := range []Options{{Temp: out + ".schema"}, {Schema: &data.Schema{
		Features: []data.Column{{Name: "x1"}, {Name: "x2"}},
		Target:   &data.Column{Name: "y", Kind: data.Categorical, Levels: []string{"a", "b", "c"}}}}} {
		_, err = Fit(context.Background(), runPrism, filepath.Join(dir, "part-*"), gaussianNB, acc, out, opt)
		if err == nil {
			t.Fatal("Fit of a ragged shard: no error")
		}
		// Data's reader names the column of a cell it cannot read (x2,
		// "b" with the schema given), and the first missing column of a
		// row that has too few fields (y, inferred: x2 holds strings).
		if !regexp.MustCompile(regexp.QuoteMeta(bad) + `:5:(2: column "x2": .*not a number|3: column "y": wrong number of fields: line 5 has 2 fields)`).MatchString(err.Error()) {
			t.Errorf("error %q does not name %s, line 5 and the column or the fields", err, bad)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a model file was written: %v", err)
		}
	}
}
