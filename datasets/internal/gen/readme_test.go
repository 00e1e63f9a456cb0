package main

import (
	"reflect"
	"strings"
	"testing"
)

const readme = `# Classification datasets

| file | rows | features | feature types | missing cells | classes (count) |
|---|---|---|---|---|---|
| adult.csv | 5 | 2 | 1 categorical, 1 integer | 1 | <=50K (3), >50K (2) |
| iris.csv | 3 | 4 | 4 continuous | 0 | Iris-setosa (1), Iris-versicolor (1), Iris-virginica (1) |

## Details

### adult.csv

- rows 5, feature columns 2 (+ ` + "`class`" + `), missing cells 1
- from: GitHub ` + "`x/y`" + ` @ abc, ` + "`adult.csv`" + `
- licence / citation: Kohavi (1996).
- notes: Trailing '.' removed.
- sha256: ` + "`" + sha + "`" + `

### iris.csv

- from: weka
- licence / citation: Fisher (1936).
- sha256: ` + "`" + sha + "`" + `

## How these were made

- from: not a data file
`

const sha = "c8c90162da847cacc2491eae9d5601c48b85849a129ae3b81163da577a59c560"

func TestParseReadme(t *testing.T) {
	got, err := parseReadme(strings.NewReader(readme))
	if err != nil {
		t.Fatal(err)
	}
	want := []*entry{{
		File: "adult.csv", Name: "adult", Rows: 5, Features: 2,
		FeatureTypes: "1 categorical, 1 integer", Missing: 1,
		Classes:  []classCount{{"<=50K", 3}, {">50K", 2}},
		Source:   "GitHub `x/y` @ abc, `adult.csv`",
		Citation: "Kohavi (1996).", Notes: "Trailing '.' removed.", SHA256: sha,
	}, {
		File: "iris.csv", Name: "iris", Rows: 3, Features: 4,
		FeatureTypes: "4 continuous",
		Classes:      []classCount{{"Iris-setosa", 1}, {"Iris-versicolor", 1}, {"Iris-virginica", 1}},
		Source:       "weka", Citation: "Fisher (1936).", SHA256: sha,
	}}
	if !reflect.DeepEqual(got, want) {
		for i := range got {
			t.Errorf("got %+v", *got[i])
		}
	}
}

func TestParseReadmeRefusals(t *testing.T) {
	for _, tc := range []struct{ name, old, new, msg string }{
		{"no table", "| iris.csv", "iris.csv", "no row in the table"},
		{"bad count", "| 3 | 4 |", "| three | 4 |", `"three" is not a count`},
		{"bad class", "Iris-virginica (1) |", "Iris-virginica |", "is not \"name (count)\""},
		{"sum", "<=50K (3)", "<=50K (4)", "add up to 6, not the 5 rows"},
		{"no citation", "- licence / citation: Fisher (1936).\n", "", "iris.csv: no licence / citation"},
		{"no sha", "- notes: Trailing '.' removed.\n- sha256", "- notes: x\n- sha", "adult.csv: no sha256"},
		{"cells", "| 0 | Iris", "| Iris", "5 cells, want 6"},
		{"empty", readme, "# nothing", "no table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(readme, tc.old, tc.new, 1)
			if text == readme {
				t.Fatalf("fixture does not contain %q", tc.old)
			}
			_, err := parseReadme(strings.NewReader(text))
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want one containing %q", err, tc.msg)
			}
		})
	}
}
