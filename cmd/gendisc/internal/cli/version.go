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
Version prints the version of the gendisc module (or "(devel)" for a build
from a work tree, with the commit when the build recorded it), the version
of the model files it writes (it reads every version up to that one), and
the Go release it was built with.

Example:

	gendisc version`,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		return func(ctx context.Context, env *Env) error {
			_, err := fmt.Fprintf(env.Stdout, "gendisc %s, model files version %d, %s\n", buildVersion(), modelfile.Version, runtime.Version())
			return err
		}
	},
}

// buildVersion returns the module version from the build information,
// with the VCS revision (and "+modified" for a dirty tree) when recorded.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		v += " " + rev + modified
	}
	return v
}
