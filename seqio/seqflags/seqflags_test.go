package seqflags

import (
	"flag"
	"io"
	"testing"

	"github.com/gendisc/gendisc/seqio"
)

// TestDefine checks the options of the flags' defaults and of every flag
// given, and the refusal of invalid values.
func TestDefine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want seqio.Options
	}{
		{nil, seqio.Options{Tags: "upos"}},
		{[]string{"--tags", "misc:NE", "--tag-column", "3", "--seq-format", "conll"}, seqio.Options{Tags: "misc:NE", TagColumn: 3, Format: seqio.Columns}},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		opt := Define(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if got := opt(); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.args, got, c.want)
		}
	}
	for _, args := range [][]string{{"--tag-column", "-1"}, {"--seq-format", "csv"}} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		Define(fs)
		if err := fs.Parse(args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
