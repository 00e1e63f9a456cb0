package fit

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/linear"
	"github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
)

// contiguousShards writes rows under a header as n files of consecutive
// rows, part-00000 ... in the formats of storeShard, in a new directory,
// and returns the directory and the concatenation of the files (one
// header).
func contiguousShards(t *testing.T, header string, rows []string, n int) (dir, all string) {
	t.Helper()
	dir = t.TempDir()
	per := (len(rows) + n - 1) / n
	for i := range n {
		part := rows[min(i*per, len(rows)):min((i+1)*per, len(rows))]
		storeShard(t, filepath.Join(dir, fmt.Sprintf("part-%05d", i)), i, []byte(header+"\n"+strings.Join(part, "\n")+"\n"))
	}
	return dir, header + "\n" + strings.Join(rows, "\n") + "\n"
}

// modelFile writes the model file of m in a new directory and returns
// its path.
func modelFile(t *testing.T, m gendisc.Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := modelfile.Write(&b, m.(modelfile.Persistent)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// libraryOutput is what gendisc predict (or score) writes for the rows of
// the CSV text all under the model in the model file at path: the rows
// read with the model's schema, a class it lacks missing, then
// models.Predict and Predictions.WriteCSV (or models.Density and
// models.WriteScores).
func libraryOutput(t *testing.T, path, all string, what Output) []byte {
	t.Helper()
	m, err := models.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataio.ReadWithSchema(strings.NewReader(all), "all.csv", m.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if what == Scores {
		density, ok := models.Density(m)
		if !ok {
			t.Fatalf("a model of kind %s has no density", m.Kind())
		}
		err = models.WriteScores(&b, density(d))
	} else {
		var p *models.Predictions
		if p, err = models.Predict(m, d); err == nil {
			err = p.WriteCSV(&b)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestApply runs the prediction and scoring pipeline on prism over 8
// shards (CSV, gzip, zstd, xz and Parquet) for a classifier with text,
// categorical and missing cells and a class it never saw, a regression
// and a mixture, and checks that the outputs, one per shard named
// PREFIX-0000i-of-00008.csv, each with its header, concatenated in order
// with the headers after the first left out, are byte for byte what the
// library writes for the concatenated file.
func TestApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	unseen := mixedRows(400)
	unseen[130] = unseen[130][:strings.LastIndexByte(unseen[130], ',')] + ",maybe"
	nb := func(d *data.Dataset) (gendisc.Model, error) {
		return modelOf(naivebayes.Config{Family: naivebayes.Mixed, Alpha: 1}.Fit(d))
	}
	gnb := func(d *data.Dataset) (gendisc.Model, error) {
		return modelOf(naivebayes.GaussianConfig{VarSmoothing: naivebayes.DefaultVarSmoothing}.Fit(d))
	}
	gmm := func(d *data.Dataset) (gendisc.Model, error) {
		return modelOf(mixture.Config{Components: 3}.Fit(d, rng))
	}
	lin := func(d *data.Dataset) (gendisc.Model, error) { return modelOf(linear.Config{L2: 0.5}.Fit(d)) }
	unsupervised := dataio.Options{NoTarget: true, Ignore: []string{"y"}}
	for _, c := range []struct {
		name, header string
		rows         []string
		opt          dataio.Options
		fit          func(*data.Dataset) (gendisc.Model, error)
		what         Output
	}{
		{"mixed-nb", "x,c,doc,y", unseen, dataio.Options{}, nb, Predictions},
		{"linear", "x1,x2,c,t", regressionRows(300), dataio.Options{NumericTarget: true}, lin, Predictions},
		{"gmm", "x1,x2,y", numericRows(400), unsupervised, gmm, Predictions},
		{"gaussian-nb scores", "x1,x2,y", numericRows(400), dataio.Options{}, gnb, Scores},
		{"mixed-nb scores", "x,c,doc,y", unseen, dataio.Options{}, nb, Scores},
		{"gmm scores", "x1,x2,y", numericRows(400), unsupervised, gmm, Scores},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, all := contiguousShards(t, c.header, c.rows, 8)
			d, err := dataio.Read(strings.NewReader(all), "all.csv", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			m, err := c.fit(d)
			if err != nil {
				t.Fatal(err)
			}
			model := modelFile(t, m)
			prefix := filepath.Join(t.TempDir(), "out", "p")
			if err := Apply(context.Background(), runPrism, filepath.Join(dir, "part-*"), model, prefix, c.what); err != nil {
				t.Fatal(err)
			}
			want := libraryOutput(t, model, all, c.what)
			names, _ := filepath.Glob(prefix + "*")
			if len(names) != 8 {
				t.Fatalf("outputs %v, want 8", names)
			}
			header := want[:bytes.IndexByte(want, '\n')+1]
			var got []byte
			for i, name := range names {
				if w := fmt.Sprintf("%s-%05d-of-00008.csv", prefix, i); name != w {
					t.Fatalf("output %d is %s, want %s", i, name, w)
				}
				b, err := os.ReadFile(name)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(b, header) {
					t.Fatalf("%s starts %.80q, want the header %q", name, b, header)
				}
				if i > 0 {
					b = b[len(header):]
				}
				got = append(got, b...)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the outputs concatenated differ from the library's output:\n%.400s\nwant\n%.400s", got, want)
			}
		})
	}
}

// TestApplyErrors checks that a ragged shard fails the pipeline with the
// file, line and column, and leaves no output file, and that a model
// without a density is refused for scores before any pipeline runs.
func TestApplyErrors(t *testing.T) {
	dir, all := contiguousShards(t, "x1,x2,y", numericRows(80), 8)
	bad := filepath.Join(dir, "part-00005.csv")
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = "1.5\n" // line 4: one cell of three
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := dataio.Read(strings.NewReader(all), "all.csv", dataio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := naivebayes.GaussianConfig{}.Fit(d)
	if err != nil {
		t.Fatal(err)
	}
	model := modelFile(t, m)
	out := t.TempDir()
	err = Apply(context.Background(), runPrism, filepath.Join(dir, "part-*"), model, filepath.Join(out, "p"), Predictions)
	if err == nil {
		t.Fatal("Apply to a ragged shard: no error")
	}
	if !regexp.MustCompile(regexp.QuoteMeta(bad) + `:4:2: column "x2": wrong number of fields: line 4 has 1 fields`).MatchString(err.Error()) {
		t.Errorf("error %q does not name %s, line 4 and column 2 (x2)", err, bad)
	}
	if names, _ := filepath.Glob(filepath.Join(out, "*")); len(names) > 0 {
		t.Errorf("a failed pipeline left %v", names)
	}

	lm, err := linear.Config{}.Fit(mustRead(t, "x1,x2,c,t\n"+strings.Join(regressionRows(50), "\n")+"\n", dataio.Options{NumericTarget: true}))
	if err != nil {
		t.Fatal(err)
	}
	err = Apply(context.Background(), runPrism, filepath.Join(dir, "part-*"), modelFile(t, lm), filepath.Join(out, "s"), Scores)
	if err == nil || !strings.Contains(err.Error(), "not generative") {
		t.Errorf("scores of a linear regression: error %v, want one saying it is not generative", err)
	}
}

func mustRead(t *testing.T, csv string, opt dataio.Options) *data.Dataset {
	t.Helper()
	d, err := dataio.Read(strings.NewReader(csv), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
