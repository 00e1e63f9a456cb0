package modelflags

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// The help and version text that gendisc and gendisc-beam share.

// Dashed spells a flag name as the usage lines and help do: -n for a
// one-letter name, --name otherwise.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// PrintFlags writes the flags of fs in GNU style, as flag.PrintDefaults
// does with one dash:
//
//	--name VALUE (-n VALUE for a one-letter name)
//	      usage (default "x")
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		line := "  " + Dashed(f.Name)
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n        %s", line, strings.ReplaceAll(usage, "\n", "\n        "))
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			fmt.Fprintf(w, " (default %s)", d)
		}
		fmt.Fprintln(w)
	})
}

// BuildVersion returns the version of the build bi (nil when the binary
// has no build information): the module version, then the VCS stamp Go
// records for a go build or go install in a clone, "(commit REV, DATE)"
// with the first 12 digits of the revision, its commit time and
// ", modified" for a tree with uncommitted changes. A build without the
// stamp (go run, -buildvcs=false, a tree without .git) is "(devel)", to
// which a version command adds NoStamp.
func BuildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "(unknown)"
	}
	v := bi.Main.Version
	var rev, date, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.time":
			date = ", " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		v += " (commit " + rev + date + modified + ")"
	}
	return v
}

// NoStamp is what a version command adds to "(devel)", the version of a
// build without the VCS stamp.
const NoStamp = " (no VCS stamp: go build or go install in a clone records the commit; go run and -buildvcs=false do not)"
