package dataio

import (
	"bytes"
	"maps"
	"testing"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/datasets"
)

// TestReadDatasets reads every bundled data set and checks the shapes,
// missing cells and class counts that package datasets lists (from the
// data sets' README), and the inferred column types.
func TestReadDatasets(t *testing.T) {
	kinds := map[string]map[data.Kind]int{
		"pima_indians_diabetes":   {data.Numeric: 8},
		"ionosphere":              {data.Numeric: 34},
		"sonar":                   {data.Numeric: 60},
		"breast_cancer_wdbc":      {data.Numeric: 30},
		"wine":                    {data.Numeric: 13},
		"iris":                    {data.Numeric: 4},
		"optdigits":               {data.Numeric: 64},
		"house_votes84":           {data.Categorical: 16},
		"breast_cancer_wisconsin": {data.Numeric: 9},
		"mushroom":                {data.Categorical: 22},
		"adult":                   {data.Numeric: 6, data.Categorical: 8},
		"sms_spam":                {data.Text: 1},
	}
	for _, name := range datasets.Names() {
		t.Run(name, func(t *testing.T) {
			info, _ := datasets.Info(name)
			d, err := Read(bytes.NewReader(datasetBytes(t, name)), name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[data.Kind]int{}
			for _, c := range d.Schema.Features {
				got[c.Kind]++
			}
			if d.N != info.Rows || d.D() != info.Features || !maps.Equal(got, kinds[name]) {
				t.Errorf("%d × %d, kinds %v; want %d × %d, %v", d.N, d.D(), got, info.Rows, info.Features, kinds[name])
			}
			missing := 0
			for i := range d.N {
				for j, v := range d.Row(i) {
					if v != v && d.Schema.Features[j].Kind != data.Text {
						missing++
					}
				}
			}
			if missing != info.Missing {
				t.Errorf("%d missing cells, want %d", missing, info.Missing)
			}
			counts, want := map[string]int{}, map[string]int{}
			for _, y := range d.Y {
				counts[d.Schema.Classes()[int(y)]]++
			}
			for _, c := range info.Classes {
				want[c.Name] = c.Count
			}
			if !maps.Equal(counts, want) {
				t.Errorf("classes %v, want %v", counts, want)
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
