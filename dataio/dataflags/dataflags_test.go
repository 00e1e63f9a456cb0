package dataflags

import (
	"flag"
	"io"
	"reflect"
	"testing"

	"github.com/gendisc/gendisc/dataio"
)

// TestDefine checks the options of the flags' defaults and of every flag
// given, lists split at commas and accumulated over repeats.
func TestDefine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want dataio.Options
	}{
		{nil, dataio.Options{}},
		{[]string{"--target", "y", "--numeric", "a, b", "--numeric", "c", "--categorical", "d", "--text", "e,f", "--ignore", "g", "--weight", "w"},
			dataio.Options{Target: "y", Numeric: []string{"a", "b", "c"}, Categorical: []string{"d"}, Text: []string{"e", "f"}, Ignore: []string{"g"}, Weight: "w"}},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		opt := Define(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := opt(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.args, got, c.want)
		}
	}
}
