package cli

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
)

// bundledRows returns the header line and the row lines of a bundled data
// set.
func bundledRows(t *testing.T, name string) (header string, rows []string) {
	t.Helper()
	r, err := datasets.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	text, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return lines[0], lines[1:]
}

// writeRows writes a CSV file of the header and rows into dir and returns
// its path.
func writeRows(t *testing.T, dir, name, header string, rows []string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(header+"\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadGenerative reads a model file written by the command line.
func loadGenerative(t *testing.T, path string) gendisc.Generative {
	t.Helper()
	_, m, err := (&Env{}).loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.(gendisc.Generative)
}

// sameJoint checks that models a and b have the same joint log-likelihood
// log p(x, y=c) for every row of the file at path and every class c,
// matching classes by name, within a relative tolerance tol, and returns
// the number of values that are equal bit for bit.
func sameJoint(t *testing.T, a, b gendisc.Generative, path string, tol float64) (equal, total int) {
	t.Helper()
	ca, cb := a.Classes(), b.Classes()
	if !slices.Equal(slices.Sorted(slices.Values(ca)), slices.Sorted(slices.Values(cb))) {
		t.Fatalf("classes %q and %q differ", ca, cb)
	}
	read := func(m gendisc.Model) *data.Dataset {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		d, err := dataio.ReadWithSchema(f, path, m.Schema(), dataio.SchemaOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	da, db := read(a), read(b)
	ja, jb := a.JointLogLikelihood(nil, da), b.JointLogLikelihood(nil, db)
	K := len(ca)
	for i := range da.N {
		for k, c := range ca {
			x, y := ja[i*K+k], jb[i*K+slices.Index(cb, c)]
			if x == y {
				equal++
			} else if math.Abs(x-y) > tol*math.Max(1, math.Abs(x)) {
				t.Fatalf("row %d, class %s: log p(x, y) %v and %v", i+1, c, x, y)
			}
			total++
		}
	}
	return equal, total
}

// TestUpdateEqualsFit checks that fit on one part of a data set followed
// by update with the other gives the model that fit gives on the whole,
// through the files, with a class that only the second part has (placed
// first, last or in the middle of the sorted classes).
func TestUpdateEqualsFit(t *testing.T) {
	for _, tc := range []struct {
		kind, data, newClass string
		flags                []string
	}{
		{kind: "gaussian-nb", data: "iris", newClass: "Iris-setosa"},
		{kind: "gaussian-nb", data: "iris", newClass: "Iris-virginica", flags: []string{"--variance", "feature", "--prior-alpha", "1"}},
		{kind: "lda", data: "wine", newClass: "class_1"},
		{kind: "qda", data: "wine", newClass: "class_0", flags: []string{"--covariance-estimator", "unbiased"}},
		{kind: "lda", data: "iris", newClass: "Iris-versicolor", flags: []string{"--shrinkage", "0.25"}},
	} {
		t.Run(tc.kind+"/"+tc.data+"/"+tc.newClass, func(t *testing.T) {
			updated, whole, all := updateAndFitAll(t, tc.kind, tc.data, tc.flags, func(i int, r string) bool {
				return strings.HasSuffix(r, ","+tc.newClass) || i%3 == 0
			})
			if got := updated.Classes(); got[len(got)-1] != tc.newClass {
				t.Errorf("classes of the updated model %q: want the new class %s last", got, tc.newClass)
			}
			equal, total := sameJoint(t, updated, whole, all, 1e-12)
			t.Logf("%d of %d joint log-likelihoods equal bit for bit", equal, total)
		})
	}
}

// updateAndFitAll splits the rows of the bundled data set name in two, a
// row going to the second part when second says so; it fits kind (with
// flags) on the first part and updates the model with the second, and
// fits kind on all the rows, the first part then the second. It returns
// the updated model, the model fitted on all the rows, and their file.
func updateAndFitAll(t *testing.T, kind, name string, flags []string, second func(i int, row string) bool) (updated, whole gendisc.Generative, all string) {
	t.Helper()
	dir := t.TempDir()
	header, rows := bundledRows(t, name)
	var p1, p2 []string
	for i, r := range rows {
		if second(i, r) {
			p2 = append(p2, r)
		} else {
			p1 = append(p1, r)
		}
	}
	a := writeRows(t, dir, "a.csv", header, p1)
	b := writeRows(t, dir, "b.csv", header, p2)
	all = writeRows(t, dir, "all.csv", header, append(slices.Clone(p1), p2...))
	m1, m2, mAll := filepath.Join(dir, "m1.json"), filepath.Join(dir, "m2.json"), filepath.Join(dir, "all.json")
	mustRun(t, append([]string{"fit", "--model", kind, "--data", a, "--out", m1}, flags...)...)
	mustRun(t, "update", "--model", m1, "--data", b, "--out", m2)
	mustRun(t, append([]string{"fit", "--model", kind, "--data", all, "--out", mAll}, flags...)...)
	return loadGenerative(t, m2), loadGenerative(t, mAll), all
}

// TestUpdateWeight checks that update --weight weighs the new rows: rows
// of weight 2 count as two copies.
func TestUpdateWeight(t *testing.T) {
	dir := t.TempDir()
	header, rows := bundledRows(t, "iris")
	first, second := rows[:100:100], rows[100:]
	var weighted, twice []string
	for _, r := range second {
		weighted = append(weighted, "2,"+r)
		twice = append(twice, r, r)
	}
	a := writeRows(t, dir, "a.csv", header, first)
	b := writeRows(t, dir, "b.csv", "w,"+header, weighted)
	all := writeRows(t, dir, "all.csv", header, append(first, twice...))
	m1, m2, mAll := filepath.Join(dir, "m1.json"), filepath.Join(dir, "m2.json"), filepath.Join(dir, "all.json")
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", a, "--out", m1)
	mustRun(t, "update", "--model", m1, "--data", b, "--weight", "w", "--out", m2)
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", all, "--out", mAll)
	sameJoint(t, loadGenerative(t, m2), loadGenerative(t, mAll), all, 1e-12)
}

// TestUpdateGolden keeps the model file that update writes for iris in
// two parts, and checks that updating in place replaces the file.
func TestUpdateGolden(t *testing.T) {
	dir := t.TempDir()
	header, rows := bundledRows(t, "iris")
	a := writeRows(t, dir, "a.csv", header, rows[:75])
	b := writeRows(t, dir, "b.csv", header, rows[75:])
	m := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--model", "gaussian-nb", "--data", a, "--out", m)
	if out := runCLI(t, "", "update", "--model", m, "--data", b, "--out", m, "--verbose"); out.code != 0 ||
		out.stderr != "gendisc: "+b+": 75 rows added to a gaussian-nb model\ngendisc: "+b+": classes the model had not seen: Iris-virginica\n" {
		t.Fatalf("update --verbose: exit %d, stderr %q", out.code, out.stderr)
	}
	got, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "update_iris.json", string(got))
	assertFiles(t, dir, "a.csv", "b.csv", "m.json")
}

// TestUpdateBadInput checks the failures of update: one line, exit
// status 1, no output file.
func TestUpdateBadInput(t *testing.T) {
	dir := t.TempDir()
	nb, logistic := filepath.Join(dir, "nb.json"), filepath.Join(dir, "logistic.json")
	mustRun(t, "fit", "--data", "iris", "--model", "gaussian-nb", "--out", nb)
	mustRun(t, "fit", "--data", "iris", "--model", "logistic", "--out", logistic)
	iris := "sepallength,sepalwidth,petallength,petalwidth,class\n"
	for _, tc := range []struct {
		name, model, file, want string
	}{
		{"kind without statistics", logistic, iris + "5.1,3.5,1.4,0.2,Iris-setosa\n", "a logistic model cannot be updated"},
		{"no target column", nb, "sepallength,sepalwidth,petallength,petalwidth\n5.1,3.5,1.4,0.2\n", `"class"`},
		{"not a number", nb, iris + "5.1,3.5,1.4,0.2,Iris-setosa\n5.1,x,1.4,0.2,Iris-setosa\n", "in.csv:3:2"},
		{"infinity", nb, iris + "5.1,3.5,1.4,0.2,Iris-setosa\n5.1,1e999,1.4,0.2,Iris-setosa\n", "in.csv:3:2"},
		{"missing feature column", nb, "sepallength,petallength,petalwidth,class\n5.1,1.4,0.2,Iris-setosa\n", `"sepalwidth"`},
		{"header only", nb, iris, "in.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.csv")
			os.WriteFile(in, []byte(tc.file), 0o644)
			r := runCLI(t, "", "update", "--model", tc.model, "--data", in, "--out", filepath.Join(dir, "out.json"))
			if r.code != 1 || !strings.HasPrefix(r.stderr, "gendisc: ") || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line containing %q", r.code, r.stderr, tc.want)
			}
			assertFiles(t, dir, "in.csv")
		})
	}
}
