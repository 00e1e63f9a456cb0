package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gendisc/gendisc/modelflags"
)

// help runs "gendisc help [COMMAND]".
func help(env *Env, args []string) error {
	switch len(args) {
	case 0:
		printUsage(env.Stdout)
		return nil
	case 1:
		if args[0] == "help" {
			_, err := fmt.Fprint(env.Stdout, `usage: gendisc help [COMMAND]

Help lists the commands, or prints the help of COMMAND: its usage line,
what it does, an example and its flags. gendisc COMMAND --help prints the
same.
`)
			return err
		}
		cmd := lookup(args[0])
		if cmd == nil {
			return &usageError{msg: fmt.Sprintf("unknown help topic %q%s", args[0], didYouMean(args[0], commandNames()[1:], same))}
		}
		printHelp(env.Stdout, cmd)
		return nil
	}
	return &usageError{msg: "usage: gendisc help [COMMAND]"}
}

// printUsage writes the list of commands.
func printUsage(w io.Writer) {
	fmt.Fprint(w, `gendisc fits generative classifiers (naive Bayes, discriminant analysis,
mixtures), which learn p(x, y) = p(y) p(x|y) and classify by Bayes' rule,
and discriminative ones (logistic regression), which learn p(y|x), and
applies them to CSV data.

Usage:

	gendisc COMMAND [flags]

The commands are:

`)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-11s %s\n", c.Name, c.Short)
	}
	fmt.Fprint(w, `
Every command takes --help, --quiet and --verbose; gendisc --version is
gendisc version. --data NAME reads the
file NAME, or the bundled data set NAME when there is no such file, or
standard input for -. Exit status: 0 success, 1 failure of data or
computation, 2 misuse (an unknown command or flag, an invalid flag value or
combination of flags). fit, cluster, merge and update write the model
file to standard output without --out, but not to a terminal: give --out
M.json or redirect standard output (> M.json).

Run "gendisc help COMMAND" or "gendisc COMMAND --help" for the details of a
command.
`)
}

// printHelp writes the help of cmd: usage line, description, flags.
func printHelp(w io.Writer, cmd *Command) {
	fmt.Fprintf(w, "usage: gendisc %s\n\n%s\n", cmd.UsageLine, strings.TrimSpace(cmd.Long))
	fs, _ := commandFlags(cmd, &Env{}, nil)
	fmt.Fprintf(w, "\nFlags:\n")
	printFlags(w, fs)
	if cmd.MoreHelp != nil {
		cmd.MoreHelp(w)
	}
}

// printFlags writes the flags of fs as both commands do.
var printFlags = modelflags.PrintFlags
