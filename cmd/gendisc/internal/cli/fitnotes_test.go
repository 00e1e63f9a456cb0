package cli

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeTestFile writes content to name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// predictions parses predict's CSV output: the labels and the
// probabilities, row-major.
func predictions(t *testing.T, out string) (labels []string, p []float64) {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		labels = append(labels, r[0])
		for _, s := range r[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			p = append(p, v)
		}
	}
	return labels, p
}

// TestFitWarnsLogistic checks that a logistic fit that stops before
// converging says so on standard error at the time, without --verbose:
// at --max-iter, and on separable data with --l2 0.
func TestFitWarnsLogistic(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "", "fit", "--data", "iris", "--model", "logistic", "--max-iter", "3", "--out", filepath.Join(dir, "m.json"))
	want := "gendisc: warning: logistic regression: stopped after 3 iterations without converging (gradient norm 0.0175, tolerance 1e-06)\n"
	if r.code != 0 || r.stderr != want {
		t.Errorf("--max-iter 3: exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	}
	sep := writeTestFile(t, dir, "sep.csv", "x,y\n1,a\n2,a\n3,b\n4,b\n")
	r = runCLI(t, "", "fit", "--data", sep, "--model", "logistic", "--l2", "0", "--out", filepath.Join(dir, "s.json"))
	if r.code != 0 || !strings.HasPrefix(r.stderr, "gendisc: warning: logistic regression: the training data are linearly separable") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("separable, --l2 0: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if r = runCLI(t, "", "fit", "--data", sep, "--model", "logistic", "--out", filepath.Join(dir, "s1.json")); r.code != 0 || r.stderr != "" {
		t.Errorf("--l2 1: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if r = runCLI(t, "", "fit", "--data", "iris", "--model", "logistic", "--max-iter", "3", "--quiet", "--out", filepath.Join(dir, "q.json")); r.stderr != "" {
		t.Errorf("--quiet: stderr:\n%s", r.stderr)
	}
}

// TestFitUnlabelledRows checks the one rule for rows without a label:
// every kind that learns from the label leaves them out with a note that
// counts them, and fits the model of the labelled rows alone (the same
// model file); fit --stream too.
func TestFitUnlabelledRows(t *testing.T) {
	dir := t.TempDir()
	var all, labelled strings.Builder
	all.WriteString("x,z,y\n")
	labelled.WriteString("x,z,y\n")
	for i := range 24 {
		x, z := float64(i%7)+0.1*float64(i), float64((i*5)%11)
		label := []string{"a", "b"}[(i/3)%2]
		row := strconv.FormatFloat(x, 'g', -1, 64) + "," + strconv.FormatFloat(z, 'g', -1, 64) + ","
		if i%8 == 5 {
			all.WriteString(row + "\n")
			continue
		}
		all.WriteString(row + label + "\n")
		labelled.WriteString(row + label + "\n")
	}
	withBlank := writeTestFile(t, dir, "d.csv", all.String())
	clean := writeTestFile(t, dir, "d.csv.clean", labelled.String())
	note := "gendisc: " + withBlank + `: 3 rows without a label (column "y") left out of the fit` + "\n"
	for _, args := range [][]string{{"--model", "nb"}, {"--model", "lda"}, {"--model", "qda"}, {"--model", "logistic"}, {"--model", "mda", "--components-per-class", "1"}, {"--model", "nb", "--stream"}, {"--model", "lda", "--stream"}} {
		r := runCLI(t, "", append([]string{"fit", "--data", withBlank}, args...)...)
		if r.code != 0 || r.stderr != note {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant:\n%s", args, r.code, r.stderr, note)
			continue
		}
		ref := mustRun(t, append([]string{"fit", "--data", clean}, args...)...)
		if r.stdout != ref {
			t.Errorf("%v: the model differs from the fit of the labelled rows", args)
		}
	}
	// Linear regression: a row without a target value is left out too.
	reg := writeTestFile(t, dir, "r.csv", "x,y\n1,2\n2,NA\n3,4\n4,5.5\n")
	regClean := writeTestFile(t, dir, "r.csv.clean", "x,y\n1,2\n3,4\n4,5.5\n")
	r := runCLI(t, "", "fit", "--data", reg, "--model", "linear")
	if want := "gendisc: " + reg + `: 1 row without a target value (column "y") left out of the fit` + "\n"; r.code != 0 || r.stderr != want {
		t.Errorf("linear: exit %d, stderr:\n%s\nwant:\n%s", r.code, r.stderr, want)
	} else if r.stdout != mustRun(t, "fit", "--data", regClean, "--model", "linear") {
		t.Errorf("linear: the model differs from the fit of the labelled rows")
	}
	if r := runCLI(t, "", "fit", "--data", withBlank, "--model", "logistic", "--quiet", "--out", filepath.Join(dir, "q.json")); r.code != 0 || r.stderr != "" {
		t.Errorf("--quiet: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if help := mustRun(t, "fit", "--help"); !strings.Contains(help, "Rows without a label (an empty target cell; a regression's target value\ntoo) are left out of the fit by every kind") {
		t.Errorf("fit --help does not state the rule")
	}
}

// TestPredictMissingRule checks that a logistic regression fitted without
// --impute refuses a missing cell at predict and eval as fit does, with
// the same hint, and that one fitted with --impute mean takes it.
func TestPredictMissingRule(t *testing.T) {
	dir := t.TempDir()
	train := writeTestFile(t, dir, "train.csv", "x,z,y\n1,2,a\n2,1,a\n3,3,a\n4,6,b\n5,4,b\n6,7,b\n2.5,5,b\n4.5,2,a\n")
	holed := writeTestFile(t, dir, "new.csv", "x,z,y\n1.5,2,a\n,5,b\n")
	model := filepath.Join(dir, "m.json")
	mustRun(t, "fit", "--data", train, "--model", "logistic", "--out", model)
	fitErr := runCLI(t, "", "fit", "--data", holed, "--model", "logistic", "--out", filepath.Join(dir, "x.json"))
	want := "gendisc: " + holed + `:3: column "x": missing value: fill missing cells with ` + "`gendisc impute`" + ` or fit with --impute mean` + "\n"
	if fitErr.code != 1 || fitErr.stderr != want {
		t.Fatalf("fit: exit %d, stderr:\n%s\nwant:\n%s", fitErr.code, fitErr.stderr, want)
	}
	for _, cmd := range []string{"predict", "eval"} {
		r := runCLI(t, "", cmd, "--model", model, "--data", holed)
		if r.code != 1 || r.stderr != want {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant:\n%s", cmd, r.code, r.stderr, want)
		}
	}
	imputed := filepath.Join(dir, "i.json")
	mustRun(t, "fit", "--data", train, "--model", "logistic", "--impute", "mean", "--out", imputed)
	if labels, _ := predictions(t, mustRun(t, "predict", "--model", imputed, "--data", holed)); len(labels) != 2 {
		t.Errorf("predict with --impute mean: %d rows", len(labels))
	}
}

// TestFitUnobservedColumn checks that naive Bayes fits data with a
// numeric column that has no value at all (the sick data's TBG), warns
// naming it, and predicts as the model fitted without the column,
// whatever the new rows hold in it.
func TestFitUnobservedColumn(t *testing.T) {
	dir := t.TempDir()
	train := writeTestFile(t, dir, "train.csv", "x,TBG,c,y\n1,,u,a\n2,,v,a\n2.5,,u,a\n4,,v,b\n5,,v,b\n6.5,,u,b\n")
	test := writeTestFile(t, dir, "test.csv", "x,TBG,c,y\n1.5,,u,a\n3,100,v,b\n7,-4,u,b\n")
	for _, kind := range []string{"nb", "gaussian-nb"} {
		ignore, refIgnore := []string{}, []string{"--ignore", "TBG"}
		if kind == "gaussian-nb" {
			ignore, refIgnore = []string{"--ignore", "c"}, []string{"--ignore", "c,TBG"}
		}
		model, ref := filepath.Join(dir, kind+".json"), filepath.Join(dir, kind+"-ref.json")
		r := runCLI(t, "", append([]string{"fit", "--data", train, "--model", kind, "--out", model}, ignore...)...)
		want := `gendisc: warning: column "TBG" has no observed value in the labelled rows: left out of the model (it carries no information)` + "\n"
		if r.code != 0 || r.stderr != want {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant:\n%s", kind, r.code, r.stderr, want)
			continue
		}
		mustRun(t, append([]string{"fit", "--data", train, "--model", kind, "--out", ref}, refIgnore...)...)
		gotL, got := predictions(t, mustRun(t, "predict", "--model", model, "--data", test))
		wantL, wantP := predictions(t, mustRun(t, "predict", "--model", ref, "--data", test))
		for i := range got {
			if math.Abs(got[i]-wantP[i]) > 1e-14 {
				t.Errorf("%s: probability %d = %v, want %v (fitted without the column)", kind, i, got[i], wantP[i])
			}
		}
		if strings.Join(gotL, ",") != strings.Join(wantL, ",") {
			t.Errorf("%s: predictions %v, want %v", kind, gotL, wantL)
		}
	}
}

// TestClusterCutsRange checks that cluster --components 1-10 on 4 rows
// stops the range where the mixture would have more parameters than rows
// and says so, instead of choosing one row per component; a single K is
// fitted as asked.
func TestClusterCutsRange(t *testing.T) {
	dir := t.TempDir()
	four := writeTestFile(t, dir, "four.csv", "a,b\n1,2\n2,1\n5,7\n6,5\n")
	r := runCLI(t, "", "cluster", "--data", four, "--components", "1-10", "--out", filepath.Join(dir, "g.json"))
	want := "gendisc: cluster: warning: components 1-10 cut at K = 1: K = 2 has 11 parameters for 4 rows (fewer rows per component than parameters)\n"
	if r.code != 0 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "gendisc: cluster: 1 components") {
		t.Errorf("exit %d, stderr:\n%s\nwant a line:\n%s", r.code, r.stderr, want)
	}
	r = runCLI(t, "", "fit", "--data", four, "--model", "gmm", "--components", "1-10", "--target", "b", "--out", filepath.Join(dir, "f.json"))
	if r.code != 0 || !strings.Contains(r.stderr, "gendisc: warning: components 1-10 cut at K = 1: K = 2 has 5 parameters for 4 rows") {
		t.Errorf("fit --model gmm: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if r = runCLI(t, "", "cluster", "--data", four, "--components", "4", "--out", filepath.Join(dir, "g4.json")); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Errorf("--components 4: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// TestUpdateMissingExact checks that update of an LDA or QDA model fitted
// with missing cells is the fit on all the data (its accumulator keeps
// the incomplete rows and runs EM again over all of them): on a 50/50
// split of breast_cancer_wisconsin (16 missing cells), the probabilities
// agree within 1e-10 (they differed by up to 0.029 when EM did not revisit
// the first half's rows), and update --help says so.
func TestUpdateMissingExact(t *testing.T) {
	if testing.Short() {
		t.Skip("fits breast_cancer_wisconsin six times")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	mustRun(t, "split", "--data", "breast_cancer_wisconsin", "--test", "0.5", "--seed", "1", "--train", a, "--test-out", b)
	for _, kind := range []string{"lda", "qda"} {
		half, updated, all := filepath.Join(dir, kind+"-a.json"), filepath.Join(dir, kind+"-ab.json"), filepath.Join(dir, kind+"-all.json")
		mustRun(t, "fit", "--data", a, "--model", kind, "--out", half)
		mustRun(t, "update", "--model", half, "--data", b, "--out", updated)
		mustRun(t, "fit", "--data", "breast_cancer_wisconsin", "--model", kind, "--out", all)
		gotL, got := predictions(t, mustRun(t, "predict", "--model", updated, "--data", "breast_cancer_wisconsin"))
		wantL, want := predictions(t, mustRun(t, "predict", "--model", all, "--data", "breast_cancer_wisconsin"))
		worst := 0.0
		for i := range got {
			worst = math.Max(worst, math.Abs(got[i]-want[i]))
		}
		if worst > 1e-10 || strings.Join(gotL, ",") != strings.Join(wantL, ",") {
			t.Errorf("%s: update differs from the fit on all rows by %v", kind, worst)
		}
	}
	if help := mustRun(t, "update", "--help"); !strings.Contains(help, "incomplete rows") {
		t.Errorf("update --help does not say how missing cells are handled:\n%s", help)
	}
}
