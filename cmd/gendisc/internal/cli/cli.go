package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelflags"
	"golang.org/x/term"
)

// Exit statuses returned by Main.
const (
	exitOK      = 0
	exitFailure = 1 // data or computation failed
	exitUsage   = 2 // the command line was wrong
)

// Env is what a command sees of the outside world. Tests run commands
// in-process with buffers for the streams.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Quiet and Verbose are set by the --quiet and --verbose flags that
	// every command takes: Quiet silences progress and notes on Stderr,
	// Verbose adds details (counts, timings) there.
	Quiet, Verbose bool

	// outFormat is --format of the commands that write rows: "parquet",
	// "csv", or "" for the one --out's extension names (see create).
	outFormat string

	// terminal makes Stderr count as a terminal, whatever it is, for
	// the tests of the progress lines (showProgress).
	terminal bool

	// limits are --max-record and --max-memory of the commands that
	// read --data (limitFlags).
	limits dataio.Limits
	// unseen is --unseen of the commands that read data with a model's
	// schema: warn (""), missing or error.
	unseen string
	// stdoutTerminal makes Stdout count as a terminal, for the tests of
	// the commands that refuse to write a model file to one.
	stdoutTerminal bool
}

// stdoutIsTerminal reports whether Stdout is a terminal.
func (env *Env) stdoutIsTerminal() bool {
	if env.stdoutTerminal {
		return true
	}
	f, ok := env.Stdout.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// showProgress reports whether progress lines and bars go to Stderr: when
// it is a terminal and --quiet is not set.
func (env *Env) showProgress() bool {
	if env.Quiet {
		return false
	}
	if env.terminal {
		return true
	}
	f, ok := env.Stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// StdEnv returns an Env on the process's standard streams.
func StdEnv() *Env {
	return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
}

// verbosef writes a note to Stderr when --verbose is set.
func (env *Env) verbosef(format string, args ...any) {
	if env.Verbose && !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: "+format+"\n", args...)
	}
}

// warnf writes a warning to Stderr unless --quiet is set.
func (env *Env) warnf(format string, args ...any) {
	if !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: warning: "+format+"\n", args...)
	}
}

// A Command is one verb of the gendisc command line.
type Command struct {
	Name      string
	UsageLine string // after "gendisc ", e.g. "eval --model M.json --data F [--json]"
	Short     string // one line for the command list
	Long      string // the help text, ending with an example

	// Flags defines the command's flags on fs, bound to a fresh options
	// value, and returns the function that runs the command once fs has
	// parsed the arguments. args are the raw arguments, for a command
	// whose flags depend on the value of another flag (fit's --model);
	// they are nil when the flags are defined only for the help text.
	Flags func(fs *flag.FlagSet, args []string) Runner

	// Required names the flags that must be given a non-empty value.
	Required []string

	// Args marks a command that takes arguments besides its flags (the
	// model files of merge), before, between or after the flags; the
	// runner finds them in fs.Args(). Without it an argument is a misuse.
	Args bool

	// MoreHelp, when set, writes extra sections at the end of the help
	// text (fit lists every model kind's flags).
	MoreHelp func(w io.Writer)

	// WritesModel marks a command that writes a model file to its --out,
	// standard output by default: runCommand refuses to write it to a
	// terminal, as gzip refuses compressed data.
	WritesModel bool

	// ReadsWithModel marks a command that reads --data with a fitted
	// model's schema: it takes --unseen (unseenFlag).
	ReadsWithModel bool
}

// A Runner runs a command whose flags have been parsed.
type Runner func(ctx context.Context, env *Env) error

// commands lists the commands in the order "gendisc help" shows them:
// fitting, applying a model, drawing from one, comparing and data, the
// server, the tools. It is set by an init function rather than in its
// declaration because the help of the commands reads it (an
// initialisation cycle otherwise).
var commands []*Command

func init() {
	commands = []*Command{
		cmdFit, cmdUpdate, cmdMerge, cmdCluster,
		cmdPredict, cmdEval, cmdCV, cmdScore, cmdInspect, cmdTransform,
		cmdSample, cmdImpute, cmdBalance,
		cmdCompare, cmdTune, cmdSplit, cmdFeatures, cmdDatasets, cmdExport,
		cmdServe,
		cmdCompletion, cmdVersion,
	}
}

func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// usageError is a misuse of the command line: Main prints it with the
// command's usage line and exits with status 2.
type usageError struct {
	cmd *Command // nil before a command is known
	msg string
}

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError, which run attributes to the command that
// returned it.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// Main runs the command line args (without the program name) and returns
// the exit status.
func Main(ctx context.Context, env *Env, args []string) int {
	err := run(ctx, env, args)
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.cmd == nil {
			fmt.Fprintf(env.Stderr, "gendisc: %s\nRun 'gendisc help' for usage.\n", ue.msg)
		} else {
			fmt.Fprintf(env.Stderr, "gendisc %s: %s\nusage: gendisc %s\nRun 'gendisc help %s' for details.\n",
				ue.cmd.Name, ue.msg, ue.cmd.UsageLine, ue.cmd.Name)
		}
		return exitUsage
	}
	fmt.Fprintf(env.Stderr, "gendisc: %s\n", hinted(err))
	return exitFailure
}

// oneLine folds a message onto one line, so that every failure is a
// single line on stderr.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func run(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		printUsage(env.Stderr)
		return &usageError{msg: "no command given"}
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(env, rest)
	case "--version", "-version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil && strings.HasPrefix(name, "-") {
		return flagsFirst(args)
	}
	if cmd == nil {
		return &usageError{msg: fmt.Sprintf("unknown command %q%s", name, didYouMean(name, commandNames(), same))}
	}
	err := runCommand(ctx, env, cmd, rest)
	if ue, ok := err.(*usageError); ok {
		ue.cmd = cmd
	}
	return err
}

// flagsFirst is the error for a command line that starts with a flag:
// flags go after the command, and the message shows the command line in
// that order when one of args is a command.
func flagsFirst(args []string) error {
	for i, a := range args {
		if lookup(a) != nil {
			moved := append([]string{"gendisc", a}, args[:i]...)
			return &usageError{msg: "flags go after the command: " + strings.Join(append(moved, args[i+1:]...), " ")}
		}
	}
	return &usageError{msg: fmt.Sprintf("%s is a flag: the command comes first (gendisc COMMAND [flags])", args[0])}
}

// runCommand parses the arguments of cmd and runs it.
func runCommand(ctx context.Context, env *Env, cmd *Command, args []string) error {
	if args == nil {
		args = []string{}
	}
	fs, runner := commandFlags(cmd, env, args)
	var positional []string // the arguments of a command that takes them
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(env.Stdout, cmd)
				return nil
			}
			return usagef("%s%s", flagError(err), suggestFlag(fs, err))
		}
		if !cmd.Args || fs.NArg() == 0 {
			break
		}
		// Parse stops at the first argument that is not a flag, or
		// after "--", when all the rest are arguments.
		if n := len(rest) - fs.NArg(); n > 0 && rest[n-1] == "--" {
			positional = append(positional, fs.Args()...)
			break
		}
		positional = append(positional, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if err := checkRepeated(fs, args); err != nil {
		return err
	}
	if cmd.Args {
		fs.Parse(append([]string{"--"}, positional...)) // sets fs.Args() to them
	}
	if fs.NArg() > 0 && !cmd.Args {
		return usagef("unexpected argument %q (all inputs are given by flags)", fs.Arg(0))
	}
	for _, name := range cmd.Required {
		if fs.Lookup(name).Value.String() == "" {
			return usagef("missing %s", dashed(name))
		}
	}
	if err := checkFlags(fs); err != nil {
		return err
	}
	if err := checkStdin(fs); err != nil {
		return err
	}
	if cmd.WritesModel {
		if err := env.checkModelOut(fs.Lookup("out").Value.String()); err != nil {
			return err
		}
	}
	return runner(ctx, env)
}

// checkModelOut refuses to write a model file to standard output (out
// "-") when it is a terminal.
func (env *Env) checkModelOut(out string) error {
	if out == "-" && env.stdoutIsTerminal() {
		return usagef("a model file is not written to a terminal: give --out M.json, or redirect standard output (> M.json)")
	}
	return nil
}

// checkRepeated returns a usage error for a flag of fs given twice in
// args, the arguments that fs parsed: a flag holds one value, and taking
// the last one silently would hide a mistake. Boolean flags and the list
// flags (modelflags.List, and a repeatable flag such as tune's --grid,
// which gather their values) may be repeated.
func checkRepeated(fs *flag.FlagSet, args []string) error {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if !hasValue {
			i++ // the value, whatever it looks like
		}
		if _, ok := f.Value.(*modelflags.List); ok {
			continue
		}
		if r, ok := f.Value.(repeatable); ok && r.Repeatable() {
			continue
		}
		if seen[name] {
			return usagef("%s given twice: it takes one value", dashed(name))
		}
		seen[name] = true
	}
	return nil
}

// dashed spells the flag name as the usage lines and help do: -n for a
// one-letter name, --name otherwise.
var dashed = modelflags.Dashed

// flagNameRE finds the flag names in the errors of package flag, which
// spells them -name ("flag provided but not defined: -name", "invalid
// value "x" for flag -name: ...", "flag needs an argument: -name").
var flagNameRE = regexp.MustCompile(`((?:defined|argument): |flag |for )-([^\s:=]+)`)

// flagError is the message of an error of package flag with the flag
// names spelled by dashed.
func flagError(err error) string {
	return flagNameRE.ReplaceAllStringFunc(err.Error(), func(m string) string {
		sub := flagNameRE.FindStringSubmatch(m)
		return sub[1] + dashed(sub[2])
	})
}

// suggestFlag returns didYouMean's suggestion for the flag that err of
// package flag says is not defined, among the flags of fs, or "".
func suggestFlag(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return didYouMean(strings.TrimPrefix(name, "-"), names, dashed)
}

// commandFlags returns the flag set of cmd, holding its flags, those every
// command takes (newFlagSet), and the limits of reading data for a
// command that reads --data (limitFlags), with the runner that cmd.Flags
// returns; args are as for cmd.Flags.
func commandFlags(cmd *Command, env *Env, args []string) (*flag.FlagSet, Runner) {
	fs := newFlagSet(cmd, env)
	runner := cmd.Flags(fs, args)
	if fs.Lookup("data") != nil {
		limitFlags(fs, &env.limits)
	}
	if cmd.ReadsWithModel {
		unseenFlag(fs, &env.unseen)
	}
	return fs, runner
}

// newFlagSet returns a silent FlagSet for cmd holding the flags every
// command takes.
func newFlagSet(cmd *Command, env *Env) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&env.Quiet, "quiet", false, "print nothing on standard error but errors")
	fs.BoolVar(&env.Verbose, "verbose", false, "print details of the work on standard error")
	return fs
}
