package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/gda"
	"github.com/gendisc/gendisc/naivebayes"
)

// TestHintsOfCommands checks that the errors of the library that advise
// an API reach the user with the flags that apply the remedy, and without
// the library's words.
func TestHintsOfCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	notes := write("notes.csv", "x,note,y\n1,hello there,2\n2,good bye,3\n3,so long,5\n")
	train := write("train.csv", "c,e,class\nu,w,a\nv,x,b\n")
	test := write("test.csv", "c,e,class\nu,w,a\nu,x,b\n")
	oneRow := write("one.csv", "x,y,c\n1,2,a\n2,3,a\n3,1,a\n4,5,a\n1,1,b\n5,5,c\n6,1,c\n2,2,c\n7,3,c\n")
	model := filepath.Join(dir, "cnb.json")
	mustRun(t, "fit", "--data", train, "--model", "categorical-nb", "--alpha", "0", "--out", model)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "--data", "breast_cancer_wisconsin", "--model", "logistic", "--out", "-"},
			`column "Bare.nuclei": missing value: fill missing cells with ` + "`gendisc impute`" + ` or fit with --impute mean`},
		{[]string{"fit", "--data", notes, "--model", "linear", "--target", "y", "--text", "note", "--out", "-"},
			`column "note": unsuitable feature kind: the column is text; this model takes numeric and categorical features only (leave it out with --ignore note)`},
		{[]string{"fit", "--data", "iris", "--model", "categorical-nb", "--out", "-"},
			`categorical-nb takes categorical columns only (force integer codes with --categorical sepallength)`},
		{[]string{"fit", "--data", "house_votes84", "--model", "gaussian-nb", "--out", "-"},
			`gaussian-nb takes numeric features only (use --model nb, mixed naive Bayes) (or leave the column out with --ignore handicapped-infants)`},
		// A column of words: --numeric would fail on them, so the hint
		// offers only --ignore and the kinds that take the column.
		{[]string{"fit", "--data", "adult", "--model", "lda", "--out", "-"},
			`adult: column "workclass": unsuitable feature kind: the column is categorical, discriminant analysis takes numeric features only ` +
				`(leave the column out with --ignore workclass, or use a kind that takes categorical columns: --model nb or --model logistic)`},
		{[]string{"fit", "--data", "adult", "--model", "multinomial-nb", "--out", "-"},
			`multinomial-nb takes numeric counts and text columns (use categorical-nb or nb for categorical columns) (or leave the column out with --ignore workclass)`},
		{[]string{"fit", "--data", "ionosphere", "--model", "lda", "--out", "-"},
			`ionosphere: column "V2": singular covariance matrix: the feature has zero variance within the classes; drop it or use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto)`},
		{[]string{"compare", "--data", "ionosphere", "--models", "nb,lda", "--sizes", "20,50"},
			`--models: lda not applicable to ionosphere: ionosphere: column "V2": singular covariance matrix: ` +
				`the feature has zero variance within the classes; drop it or use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto); ` +
				`lda left out: it applies to none of the data sets: compare needs two models that apply to the data`},
		{[]string{"fit", "--data", oneRow, "--model", "qda", "--target", "c", "--shrinkage", "auto", "--out", "-"},
			`class "b" has 1; use --model lda (one covariance matrix shared by the classes) or --model nb, or leave the class's rows out of the data`},
		{[]string{"fit", "--data", oneRow, "--model", "qda", "--target", "c", "--out", "-"},
			`class "b" has 1; use --model lda (one covariance matrix shared by the classes) or --model nb, or leave the class's rows out of the data`},
		{[]string{"predict", "--model", model, "--data", test},
			`test.csv:3: no class can produce this row: every class has probability 0 (alpha 0 gives unseen values probability 0; use --alpha > 0)`},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "Config") || strings.Contains(r.stderr, "dataio.Options") ||
			strings.Contains(r.stderr, "--numeric") {
			t.Errorf("%s: exit %d, stderr %q, want %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

// TestHinted checks that hinted replaces the library's remedy in place,
// wherever the error sits in a chain, and appends it in parentheses when
// the message does not hold the library's words.
func TestHinted(t *testing.T) {
	singular := &data.ParseError{File: "f.csv", Err: &gda.SingularError{Kind: gda.KindQDA, Class: "a"}}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{singular, `f.csv: singular covariance matrix: the covariance matrix of class "a" is singular or not positive definite ` +
			`(collinear features, or too few rows); use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto)`},
		{fmt.Errorf("fold 2: %w", &data.ParseError{File: "f.csv", Err: &gda.TooFewRowsError{Kind: gda.KindQDA, Class: "b", Features: 3, Need: 4, Have: 2}}),
			`fold 2: f.csv: too few rows for a covariance matrix: qda needs at least 4 rows in every class, class "b" has 2; use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto)`},
		{&data.ParseError{File: "f.csv", Err: &gda.TooFewRowsError{Kind: gda.KindQDA, Class: "b", Features: 3, Need: 4, Have: 1}},
			`f.csv: too few rows for a covariance matrix: qda needs at least 2 rows in every class, whatever the shrinkage, and class "b" has 1; ` +
				`use --model lda (one covariance matrix shared by the classes) or --model nb, or leave the class's rows out of the data`},
		{&data.ParseError{File: "f.csv", Line: 7, ColumnName: "x", Err: &data.MissingError{Column: "x", Row: 5}},
			"f.csv:7: column \"x\": missing value: fill missing cells with `gendisc impute` or fit with --impute mean"},
		{&data.ParseError{File: "f.csv", Line: 3, Err: &naivebayes.ImpossibleError{Row: 1}},
			"f.csv:3: no class can produce this row: every class has probability 0 (alpha 0 gives unseen values probability 0; use --alpha > 0)"},
		{fmt.Errorf("%w", &wordedError{gda.ErrSingular}), "singular covariance matrix (use shrinkage (--shrinkage r in (0, 1], or --shrinkage auto))"},
		{fmt.Errorf("no hint\n  here"), "no hint here"},
	} {
		if got := hinted(tc.err); got != tc.want {
			t.Errorf("hinted(%q)\n = %q\nwant %q", tc.err, got, tc.want)
		}
	}
}

// wordedError is a gda.SingularError whose message does not hold the
// library's remedy.
type wordedError struct{ err error }

func (e *wordedError) Error() string { return e.err.Error() }

func (e *wordedError) As(target any) bool {
	if p, ok := target.(**gda.SingularError); ok {
		*p = &gda.SingularError{}
		return true
	}
	return false
}
