package cli

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/gendisc/gendisc/modelflags"
)

// Every invalid flag value is a misuse (exit status 2), found before any
// data is read: a value of one flag is checked by its flag.Value's Set
// (the types of package modelflags, and positiveDuration below), and a
// value that is valid only with the others (a fixed class prior with
// --prior-alpha, a text configuration as a whole) by modelflags.Check,
// which runCommand calls once the command line is parsed (checkFlags).

// checkFlags runs modelflags.Check on fs: it returns the first error of
// a flag whose validity depends on the others as a usage error naming the
// flag.
func checkFlags(fs *flag.FlagSet) error {
	if err := modelflags.Check(fs); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// positiveDuration is a duration flag that refuses durations ≤ 0.
type positiveDuration time.Duration

func (f *positiveDuration) String() string { return time.Duration(*f).String() }

func (f *positiveDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a duration > 0, such as 30s or 2m")
	}
	*f = positiveDuration(d)
	return nil
}

// stdinFlags are the flags whose value - reads standard input: at most
// one of them can have it.
var stdinFlags = []string{"model", "data"}

// checkStdin returns a usage error when two flags of fs read standard
// input.
func checkStdin(fs *flag.FlagSet) error {
	var both []string
	for _, name := range stdinFlags {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "-" {
			both = append(both, dashed(name))
		}
	}
	if len(both) > 1 {
		return usagef("%s: only one of them can read standard input (-)", strings.Join(both, " and "))
	}
	return nil
}
