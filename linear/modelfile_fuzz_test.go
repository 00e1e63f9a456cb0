package linear

import (
	"strings"
	"testing"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/internal/testsupport/modelfuzz"
)

// FuzzLinearFile is the fuzz test of linear model files (package
// modelfuzz): the file of a model of numbers and categories, changed by
// the fuzzer, is either refused with one line or gives a model that
// predicts finite values. Under go test it runs over its seeds; longer:
//
//	go test -run '^$' -fuzz FuzzLinearFile -fuzztime 60s ./linear
func FuzzLinearFile(f *testing.F) {
	d, err := dataio.Read(strings.NewReader(`x,z,colour,y
1.5,2,red,3.1
2.5,1,blue,5.2
0.5,4,red,1.3
3.1,3,green,6.0
1.1,5,red,2.4
2.9,2,blue,5.9
0.7,1,green,1.8
3.3,4,blue,6.5
`), "rows.csv", dataio.Options{NumericTarget: true})
	if err != nil {
		f.Fatal(err)
	}
	m, err := Config{L2: 0.1}.Fit(d)
	if err != nil {
		f.Fatal(err)
	}
	modelfuzz.Run(f, modelfuzz.Target{Model: m, Rows: modelfuzz.Rows(d, 4, false)})
}
