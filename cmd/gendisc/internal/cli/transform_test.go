package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/gda"
)

// readCSV parses CSV text.
func readCSV(t *testing.T, text string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestTransform checks the coordinates that transform writes against the
// model's own Transform, bit for bit, with and without the class column
// and with missing cells, and keeps the output for wine as a golden file.
func TestTransform(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "wine.json")
	mustRun(t, "fit", "--data", "wine", "--model", "lda", "--out", model)
	out := mustRun(t, "transform", "--model", model, "--data", "wine", "--components", "2")
	golden(t, "transform_wine.csv", out)

	_, m, err := (&Env{}).loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	lda := m.(*gda.LDA)
	header, rows := bundledRows(t, "wine")
	// Drop the class column, and make some cells missing.
	var noClass []string
	for i, r := range rows {
		cells := strings.Split(r, ",")
		cells = cells[:len(cells)-1]
		if i%5 == 0 {
			cells[i%len(cells)] = ""
		}
		noClass = append(noClass, strings.Join(cells, ","))
	}
	in := writeRows(t, dir, "in.csv", header[:strings.LastIndexByte(header, ',')], noClass)
	for _, tc := range []struct {
		file   string
		args   []string
		n      int
		header string
	}{
		{file: "wine", args: []string{"--components", "2"}, n: 2, header: "ld1,ld2,class"},
		{file: "wine", n: 2, header: "ld1,ld2,class"},
		{file: in, args: []string{"--components", "1"}, n: 1, header: "ld1"},
	} {
		text := mustRun(t, append([]string{"transform", "--model", model, "--data", tc.file}, tc.args...)...)
		got := readCSV(t, text)
		if h := strings.Join(got[0], ","); h != tc.header {
			t.Fatalf("%s %v: header %q, want %q", tc.file, tc.args, h, tc.header)
		}
		var d *data.Dataset
		if tc.file == in {
			d, err = dataio.ReadFile(in, dataio.Options{NoTarget: true})
		} else {
			d, err = readBundled(t, "wine", lda.Schema())
		}
		if err != nil {
			t.Fatal(err)
		}
		want := lda.Transform(nil, &data.Dataset{Schema: lda.Schema(), N: d.N, X: d.X}, tc.n)
		if len(got)-1 != d.N {
			t.Fatalf("%d rows, want %d", len(got)-1, d.N)
		}
		for i, row := range got[1:] {
			for a := range tc.n {
				if v, err := strconv.ParseFloat(row[a], 64); err != nil || v != want[i*tc.n+a] {
					t.Fatalf("%s, row %d, ld%d: %s, want %v", tc.file, i+1, a+1, row[a], want[i*tc.n+a])
				}
			}
			if tc.file != in && row[tc.n] != lda.Classes()[int(d.Y[i])] {
				t.Fatalf("row %d: class %s, want %s", i+1, row[tc.n], lda.Classes()[int(d.Y[i])])
			}
		}
	}
}

// readBundled reads a bundled data set with a schema.
func readBundled(t *testing.T, name string, s *data.Schema) (*data.Dataset, error) {
	t.Helper()
	r, _, err := (&Env{}).openData(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return dataio.ReadWithSchema(r, name, s, dataio.SchemaOptions{})
}

// TestTransformBadInput checks the failures of transform.
func TestTransformBadInput(t *testing.T) {
	dir := t.TempDir()
	lda, qda := filepath.Join(dir, "lda.json"), filepath.Join(dir, "qda.json")
	mustRun(t, "fit", "--data", "iris", "--model", "lda", "--out", lda)
	mustRun(t, "fit", "--data", "iris", "--model", "qda", "--out", qda)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not lda", []string{"--model", qda, "--data", "iris"}, 1, "a qda model has no discriminant coordinates: transform takes an lda model"},
		{"too many components", []string{"--model", lda, "--data", "iris", "--components", "3"}, 1,
			"--components 3: the model has 2 discriminant coordinates, min(K − 1, p) for 3 classes and 4 features"},
		{"negative components", []string{"--model", lda, "--data", "iris", "--components", "-1"}, 2, "--components -1"},
		{"missing column", []string{"--model", lda, "--data", "IN"}, 1, `"petalwidth"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.csv")
			os.WriteFile(in, []byte("sepallength,sepalwidth,petallength\n1,2,3\n"), 0o644)
			args := []string{"transform", "--out", filepath.Join(dir, "t.csv")}
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "IN", in))
			}
			r := runCLI(t, "", args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || tc.code == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			assertFiles(t, dir, "in.csv")
		})
	}
}
