package data

import (
	"bytes"
	"maps"
	"testing"
)

// TestReadDatasets reads every bundled data set and checks the shapes,
// column types, missing cells and class counts that their README lists.
func TestReadDatasets(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows       int
		kinds      map[Kind]int
		missing    int
		classCount map[string]int
	}{
		{"pima_indians_diabetes", 768, map[Kind]int{Numeric: 8}, 0, map[string]int{"neg": 500, "pos": 268}},
		{"ionosphere", 351, map[Kind]int{Numeric: 34}, 0, map[string]int{"good": 225, "bad": 126}},
		{"sonar", 208, map[Kind]int{Numeric: 60}, 0, map[string]int{"M": 111, "R": 97}},
		{"breast_cancer_wdbc", 569, map[Kind]int{Numeric: 30}, 0, map[string]int{"benign": 357, "malignant": 212}},
		{"wine", 178, map[Kind]int{Numeric: 13}, 0, map[string]int{"class_0": 59, "class_1": 71, "class_2": 48}},
		{"iris", 150, map[Kind]int{Numeric: 4}, 0, map[string]int{"Iris-setosa": 50, "Iris-versicolor": 50, "Iris-virginica": 50}},
		{"optdigits", 5620, map[Kind]int{Numeric: 64}, 0, map[string]int{
			"0": 554, "1": 571, "2": 557, "3": 572, "4": 568, "5": 558, "6": 558, "7": 566, "8": 554, "9": 562}},
		{"house_votes84", 435, map[Kind]int{Categorical: 16}, 392, map[string]int{"democrat": 267, "republican": 168}},
		{"breast_cancer_wisconsin", 699, map[Kind]int{Numeric: 9}, 16, map[string]int{"benign": 458, "malignant": 241}},
		{"mushroom", 8124, map[Kind]int{Categorical: 22}, 2480, map[string]int{"e": 4208, "p": 3916}},
		{"adult", 48842, map[Kind]int{Numeric: 6, Categorical: 8}, 6465, map[string]int{"<=50K": 37155, ">50K": 11687}},
		{"sms_spam", 5574, map[Kind]int{Text: 1}, 0, map[string]int{"ham": 4827, "spam": 747}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := datasetBytes(t, tc.name)
			d, err := Read(bytes.NewReader(raw), tc.name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			kinds := map[Kind]int{}
			for _, c := range d.Schema.Features {
				kinds[c.Kind]++
			}
			if d.N != tc.rows || !maps.Equal(kinds, tc.kinds) {
				t.Errorf("%d rows, kinds %v; want %d, %v", d.N, kinds, tc.rows, tc.kinds)
			}
			missing := 0
			for i := range d.N {
				for j, v := range d.Row(i) {
					if v != v && d.Schema.Features[j].Kind != Text {
						missing++
					}
				}
			}
			if missing != tc.missing {
				t.Errorf("%d missing cells, want %d", missing, tc.missing)
			}
			counts := map[string]int{}
			for _, y := range d.Y {
				counts[d.Schema.Classes()[int(y)]]++
			}
			if !maps.Equal(counts, tc.classCount) {
				t.Errorf("classes %v, want %v", counts, tc.classCount)
			}
		})
	}
}

// TestReadDatasetsIntegral checks Column.Integral on the README's integer
// columns.
func TestReadDatasetsIntegral(t *testing.T) {
	for name, want := range map[string]int{"pima_indians_diabetes": 6, "optdigits": 64, "wine": 2, "adult": 6, "breast_cancer_wisconsin": 9} {
		d, err := Read(bytes.NewReader(datasetBytes(t, name)), name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range d.Schema.Features {
			if c.Integral {
				n++
			}
		}
		if n != want {
			t.Errorf("%s: %d integral columns, want %d", name, n, want)
		}
	}
}
