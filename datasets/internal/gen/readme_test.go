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
- licence / citation: Repo has no LICENSE file. Kohavi (1996).
- notes: Trailing '.' removed.
- sha256: ` + "`" + sha + "`" + `

### iris.csv

- from: weka
- licence / citation: Package: GPL-2+ (debian/copyright). Fisher (1936).
- sha256: ` + "`" + sha + "`" + `

### corpus.txt (text, not in the table)

- licence / citation: public domain

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
		Classes: []classCount{{"<=50K", 3}, {">50K", 2}},
		Source:  "GitHub `x/y` @ abc, `adult.csv`",
		License: "Repo has no LICENSE file.", Citation: "Kohavi (1996).", Notes: "Trailing '.' removed.", SHA256: sha,
	}, {
		File: "iris.csv", Name: "iris", Rows: 3, Features: 4,
		FeatureTypes: "4 continuous",
		Classes:      []classCount{{"Iris-setosa", 1}, {"Iris-versicolor", 1}, {"Iris-virginica", 1}},
		Source:       "weka", License: "Package: GPL-2+ (debian/copyright).", Citation: "Fisher (1936).", SHA256: sha,
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
		{"no licence nor citation", "- licence / citation: Package: GPL-2+ (debian/copyright). Fisher (1936).\n", "", "iris.csv: no licence"},
		{"no licence", "Package: GPL-2+ (debian/copyright). Fisher", "Fisher", "iris.csv: no licence in"},
		{"no citation", "(debian/copyright). Fisher (1936).", "(debian/copyright).", "iris.csv: no citation in"},
		{"section of no row", "### iris.csv\n", "### iris2.csv\n", `section "iris2.csv" has no row`},
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

func TestSplitLicence(t *testing.T) {
	for _, tc := range []struct{ in, licence, citation string }{
		{"Package: GPL-2 (debian/copyright; R pkg by F. Leisch & E. Dimitriadou). Data from UCI; cites: Newman, D.J., Merz, C.J. (1998) UCI Repository. Sigillito et al. (1989) Digest 10:262-266.",
			"Package: GPL-2 (debian/copyright; R pkg by F. Leisch & E. Dimitriadou).",
			"Data from UCI; cites: Newman, D.J., Merz, C.J. (1998) UCI Repository. Sigillito et al. (1989) Digest 10:262-266."},
		{"Package: BSD-3-Clause (debian/copyright). sklearn `x.rst` cites: Lichman, M. (2013). UCI Repository. Creators W.H. Wolberg (1995).",
			"Package: BSD-3-Clause (debian/copyright).", "sklearn `x.rst` cites: Lichman, M. (2013). UCI Repository. Creators W.H. Wolberg (1995)."},
		{"Repo has no LICENSE file (README: 'ARFF of LIAC'). UCI dataset; Alpaydin (1998). UCI's pages mark UCI datasets CC BY 4.0 (not stated; verify).",
			"Repo has no LICENSE file (README: 'ARFF of LIAC'). UCI's pages mark UCI datasets CC BY 4.0 (not stated; verify).", "UCI dataset; Alpaydin (1998)."},
		{"Package: GPL-2+ (debian/copyright). Fisher (1936); donor M. Marshall.", "Package: GPL-2+ (debian/copyright).", "Fisher (1936); donor M. Marshall."},
		{"Shakespeare's text is in the public domain. Cite the collection as: Karpathy, A. (2015), char-rnn, https://github.com/karpathy/char-rnn.",
			"Shakespeare's text is in the public domain.", "Cite the collection as: Karpathy, A. (2015), char-rnn, https://github.com/karpathy/char-rnn."},
		{"no full stop", "", "no full stop"},
	} {
		licence, citation := splitLicence(tc.in)
		if licence != tc.licence || citation != tc.citation {
			t.Errorf("splitLicence(%q)\n = %q, %q\nwant %q, %q", tc.in, licence, citation, tc.licence, tc.citation)
		}
	}
}
