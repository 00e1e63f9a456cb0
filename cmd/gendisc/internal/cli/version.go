package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/gendisc/gendisc/modelfile"
)

// version is listed last: files initialise in name order, and this one
// comes after the other commands' files.
func init() { commands = append(commands, cmdVersion) }

var cmdVersion = &Command{
	Name:      "version",
	UsageLine: "version",
	Short:     "print the version of gendisc and of its model files",
	Long: `
Version prints the version of the gendisc module with the commit and its
date that go build and go install record in a clone (a build from a work
tree without them says "(devel)" and why), the version
of the model files it writes (it reads every version up to that one), and
the Go release it was built with.

Example:

	gendisc version`,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		return func(ctx context.Context, env *Env) error {
			v := gendiscVersion()
			if v == "(devel)" {
				v += noStamp
			}
			_, err := fmt.Fprintf(env.Stdout, "gendisc %s, model files version %d, %s\n", v, modelfile.Version, runtime.Version())
			return err
		}
	},
}

// buildVersion returns the version of the build bi (nil when the binary
// has no build information): the module version, then the VCS stamp Go
// records for a go build or go install in a clone, "(commit REV, DATE)"
// with the first 12 digits of the revision, its commit time and
// ", modified" for a tree with uncommitted changes. A build without the
// stamp (go run, -buildvcs=false, a tree without .git) is "(devel)", to
// which the version command adds noStamp.
func buildVersion(bi *debug.BuildInfo) string {
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

// gendiscVersion is buildVersion of this binary.
func gendiscVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return buildVersion(bi)
}

// noStamp is what version adds to "(devel)", a build without the VCS
// stamp.
const noStamp = " (no VCS stamp: go build or go install in a clone records the commit; go run and -buildvcs=false do not)"
