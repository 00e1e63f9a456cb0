package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/modelflags"
)

// version is listed last: files initialise in name order, and this one
// comes after the other commands' files.

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

// buildVersion is modelflags.BuildVersion, and noStamp
// modelflags.NoStamp.
var buildVersion, noStamp = modelflags.BuildVersion, modelflags.NoStamp

// gendiscVersion is buildVersion of this binary.
func gendiscVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return buildVersion(bi)
}
