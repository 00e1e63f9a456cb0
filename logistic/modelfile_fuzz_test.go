package logistic

import (
	"math"
	"strings"
	"testing"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// FuzzLogisticFile is the fuzz test of logistic model files (package
// modelfuzz): the file of a model of numbers, categories and text,
// changed by the fuzzer, is either refused with one line or gives a model
// that predicts finite probabilities. Under go test it runs over its
// seeds; longer:
//
//	go test -run '^$' -fuzz FuzzLogisticFile -fuzztime 60s ./logistic
func FuzzLogisticFile(f *testing.F) {
	d, err := dataio.Read(strings.NewReader(fuzzRows), "rows.csv", dataio.Options{Text: []string{"note"}})
	if err != nil {
		f.Fatal(err)
	}
	m, err := Config{L2: 1}.Fit(d)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(d, 4, true), Calls: func(t *testing.T, m gendisc.Model, _ *data.Dataset) {
		w, b := m.(*Model).OriginalCoefficients()
		for _, row := range append(w, b) {
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("original coefficient %v", v)
				}
			}
		}
	}})
}

// fuzzRows are training rows of three classes with numbers, categories
// and text.
const fuzzRows = `x,colour,note,class
1.5,red,cheap pills now,spam
2.5,blue,see you at lunch,ham
0.5,red,win cheap prizes now,spam
3.1,green,lunch at noon,ham
1.1,red,prizes and pills,spam
2.9,blue,see the report,ham
0.7,green,cheap cheap now,spam
3.3,blue,report at noon,ham
5.1,green,call me,other
4.7,red,call at noon,other
`
