// Command gendisc-beam fits gendisc's models with Apache Beam pipelines,
// on data sets stored as many files (shards), on any Beam runner: prism,
// Beam's local runner, by default; Flink, Spark and Dataflow with Beam's
// usual flags (--runner, --endpoint, --project, ...).
//
//	gendisc-beam fit --data 'DIR/part-*' --model KIND [model flags] --out M.json [--runner prism]
//	gendisc-beam predict --model M.json --data 'DIR/part-*' --out PREFIX [--runner prism]
//	gendisc-beam score --model M.json --data 'DIR/part-*' --out PREFIX [--runner prism]
//
// fit takes the kinds fitted in one pass (their models keep their
// statistics): every naive Bayes kind, lda, qda and linear; the
// iterative kinds, logistic and gmm, fitted by a pipeline per pass; and
// the one-pass kinds of sentences, hmm. Each shard is a CSV or TSV file
// with its header, a Parquet file or JSON lines, gzip-, zstd-, bzip2- or
// xz-compressed or not (told by content, not by name); for a kind of
// sentences, a file of CoNLL-U, columns or JSON lines, as gendisc fit
// reads them. The model file is the one gendisc fit writes for the rows
// (sentences) of all the shards. predict and score write, for the i-th shard of n in
// the order of their paths, PREFIX-0000i-of-0000n.csv: the columns of
// gendisc predict (or score) for its rows, with the header.
//
// gendisc-beam --help lists its commands and summarises Beam's runner
// flags; --help-beam lists every Beam flag; COMMAND --help gives a
// command's flags; --version the versions. Mistakes are found before any
// pipeline is built (a glob that matches nothing, a column that does not
// exist) and reported on one line, with gendisc's exit statuses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/dataio/dataflags"
	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/modelflags"
	"github.com/gendisc/gendisc/registry"
	"github.com/gendisc/gendisc/seqio"
	"github.com/gendisc/gendisc/seqio/seqflags"
)

// Exit statuses, as gendisc's.
const (
	exitOK      = 0
	exitFailure = 1 // data or computation failed
	exitUsage   = 2 // the command line was wrong
)

// beamFlagsHelp summarises the Beam flags that matter most, for the help.
const beamFlagsHelp = `Beam's flags go with any command, before or after gendisc-beam's own:
--runner prism (the default: Beam's local runner, in this process),
flink, spark or dataflow; --endpoint HOST:PORT, the job server of a
portable runner (Flink, Spark); --environment_type LOOPBACK (the workers
run in this process, the default for prism), DOCKER or PROCESS, with
--environment_config (an SDK container image such as
apache/beam_go_sdk:2.77.0); Dataflow's --project, --region and
--temp_location. gendisc-beam --help-beam lists every Beam flag.
`

// A command is one verb of gendisc-beam.
type command struct {
	name, usageLine, short, long string
}

var commands = []command{
	{"fit", "fit --data GLOB --model KIND [model flags] --out M.json [Beam flags]",
		"fit a model to the rows of every file of a glob and save it", `
Fit fits a model of KIND to the rows of every file that GLOB matches (each
with its header; CSV, TSV, Parquet or JSON lines, compressed with gzip,
zstd, bzip2 or xz or not, told by content), with Apache Beam pipelines,
and writes the model file that gendisc fit writes for all those rows, on
any Beam filesystem (local paths, gs://, s3://). The kinds fitted in one
pass keep their sufficient statistics: every naive Bayes kind, lda, qda
and linear; the iterative kinds, logistic and gmm, run a pipeline per
pass over the data. The model flags are gendisc fit's for the kind:
gendisc-beam fit --model KIND --help lists them.

A kind of sentences (hmm) reads, in every file that GLOB matches,
sentences of tagged tokens as gendisc fit does (CoNLL-U, the columns of
CoNLL-2000/2003 or JSON lines, compressed or not; --tags, --tag-column
and --seq-format say how), each file a shard whose sentences a worker
adds to the model's counts a batch at a time; the counts of the shards
are merged, and the model file is gendisc fit's on all the sentences,
byte for byte.

Before any pipeline is built, the glob must match a file and the first
of them must have the columns that --target, --ignore, --weight and the
other data flags name (for sentences: a first sentence that --tags and
--tag-column can read).

Example:

	gendisc-beam fit --data '/data/part-*' --model lda --out lda.json
	gendisc-beam fit --data '/treebank/*.conllu' --model hmm --out hmm.json
	gendisc-beam fit --data 'gs://B/data/part-*' --model logistic --l2 1 --out gs://B/lr.json --runner dataflow --project P --region R --temp_location gs://B/tmp`},
	{"predict", "predict --model M.json --data GLOB --out PREFIX [Beam flags]",
		"write the predictions of a model for the rows of every file of a glob", `
Predict applies a model file (from gendisc fit or gendisc-beam fit) to the
rows of every file that GLOB matches and writes, for the i-th file of n in
the order of their paths, PREFIX-0000i-of-0000n.csv: the columns of
gendisc predict for its rows, with the header. The glob must match a file
before any pipeline is built.

Example:

	gendisc-beam predict --model lda.json --data '/data/part-*' --out /tmp/pred/lda`},
	{"score", "score --model M.json --data GLOB --out PREFIX [Beam flags]",
		"write the log-densities of a model for the rows of every file of a glob", `
Score applies a generative model file to the rows of every file that GLOB
matches and writes, for the i-th file of n in the order of their paths,
PREFIX-0000i-of-0000n.csv: the columns of gendisc score for its rows,
log p(x) in nats and bits, with the header. The glob must match a file
before any pipeline is built.

Example:

	gendisc-beam score --model lda.json --data '/data/part-*' --out /tmp/scores/lda`},
	{"version", "version", "print the version of gendisc-beam, its model files and Apache Beam", `
Version prints the version of gendisc-beam (with the commit that go build
and go install record in a clone), the version of the model files it
writes, the Apache Beam Go SDK and the Go release it was built with.

Example:

	gendisc-beam version`},
}

// lookup returns the command called name, or nil.
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// printUsage writes gendisc-beam's usage: its commands, then Beam's
// flags in a paragraph.
func printUsage(w io.Writer) {
	fmt.Fprint(w, `gendisc-beam fits gendisc's models with Apache Beam pipelines, on data
sets stored as many files (shards), on any Beam runner, and applies them.

Usage:

	gendisc-beam COMMAND [flags] [Beam flags]

The commands are:

`)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, `
Every command takes --help; gendisc-beam --version is gendisc-beam
version. Exit status: 0 success, 1 failure of data or computation, 2
misuse (an unknown command or flag, an invalid flag value).

`+beamFlagsHelp+`
Run "gendisc-beam COMMAND --help" for the details of a command.
`)
}

// printHelp writes the help of c: usage line, description, its flags (a
// fit's with those of the kind that --model names in args), Beam's.
func printHelp(w io.Writer, c *command, args []string) {
	fmt.Fprintf(w, "usage: gendisc-beam %s\n\n%s\n", c.usageLine, strings.TrimSpace(c.long))
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	switch c.name {
	case "fit":
		fitFlags(fs, args)
	case "predict":
		applyFlags(fs, fit.Predictions)
	case "score":
		applyFlags(fs, fit.Scores)
	}
	fmt.Fprintf(w, "\nFlags:\n")
	modelflags.PrintFlags(w, fs)
	if c.name == "fit" && flagValue(args, "model") == "" {
		fmt.Fprintf(w, "\nModel flags: those of gendisc fit for the kind; gendisc-beam fit --model KIND --help lists them.\n")
	}
	fmt.Fprintf(w, "\n%s", beamFlagsHelp)
}

// isWorker reports whether args are those a Beam runner starts a worker
// with (--worker), not a command line.
func isWorker(args []string) bool {
	for _, a := range args {
		if a == "--worker" || a == "-worker" || strings.HasPrefix(a, "--worker=") || strings.HasPrefix(a, "-worker=") {
			return true
		}
	}
	return false
}

func main() {
	if isWorker(os.Args[1:]) {
		// A Beam worker runs this binary with Beam's worker flags, no
		// command: beam.Init runs the worker harness and exits.
		flag.Parse()
		beam.Init()
		os.Exit(exitFailure)
	}
	os.Exit(Main(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// Main runs the command line args (without the program name) and returns
// the exit status: help and versions on stdout, errors on stderr, one
// line each (with the usage line for a misuse).
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 && rest[0] == "help" {
			fmt.Fprintf(stdout, "usage: gendisc-beam help [COMMAND]\n\nHelp lists the commands, or prints the help of COMMAND, as gendisc-beam\nCOMMAND --help does.\n")
			return exitOK
		}
		if len(rest) > 0 {
			if c := lookup(rest[0]); c != nil {
				printHelp(stdout, c, rest[1:])
				return exitOK
			}
			fmt.Fprintf(stderr, "gendisc-beam: unknown help topic %q (commands: %s)\n", rest[0], commandNames())
			return exitUsage
		}
		printUsage(stdout)
		return exitOK
	case "--help-beam", "-help-beam":
		fmt.Fprintf(stdout, "Apache Beam's flags, which every gendisc-beam command takes:\n\n")
		modelflags.PrintFlags(stdout, flag.CommandLine)
		return exitOK
	case "--version", "-version":
		verb = "version"
	}
	c := lookup(verb)
	if c == nil {
		if strings.HasPrefix(verb, "-") {
			fmt.Fprintf(stderr, "gendisc-beam: %s\n", flagsFirst(args))
		} else {
			fmt.Fprintf(stderr, "gendisc-beam: unknown command %q (commands: %s)\nRun 'gendisc-beam --help' for usage.\n", verb, commandNames())
		}
		return exitUsage
	}
	if wantsHelp(rest) {
		printHelp(stdout, c, rest)
		return exitOK
	}
	var err error
	if verb == "version" {
		err = printVersion(stdout, rest)
	} else {
		err = run(ctx, verb, rest, stderr)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "gendisc-beam %s: %s\nusage: gendisc-beam %s\nRun 'gendisc-beam %[1]s --help' for details.\n",
			verb, strings.TrimPrefix(err.Error(), errUsage.Error()+": "), c.usageLine)
		return exitUsage
	}
	fmt.Fprintf(stderr, "gendisc-beam: %s\n", oneLine(err.Error()))
	return exitFailure
}

// flagsFirst is the message for a command line that starts with a flag:
// flags go after the command, shown in that order when one of args is a
// command.
func flagsFirst(args []string) string {
	for i, a := range args {
		if lookup(a) != nil {
			moved := append([]string{"gendisc-beam", a}, args[:i]...)
			return "flags go after the command: " + strings.Join(append(moved, args[i+1:]...), " ")
		}
	}
	return fmt.Sprintf("%s is a flag: the command comes first (gendisc-beam COMMAND [flags]; commands: %s)", args[0], commandNames())
}

// bundledHint adds to err, the error of CheckInput for the glob of
// --data, how to write the bundled data set of that name to a file, which
// gendisc-beam reads (gendisc's --data takes the names).
func bundledHint(err error, glob string) error {
	_, isData := datasets.Info(glob)
	_, isCorpus := datasets.CorpusInfo(glob)
	if isData || isCorpus {
		return fmt.Errorf("%w (gendisc-beam reads files: gendisc datasets export %s --out %[2]s.csv writes the bundled one)", err, glob)
	}
	return err
}

// commandNames lists the commands for a message.
func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// wantsHelp reports whether args ask for help (-h, -help, --help) before
// any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// oneLine folds a message onto one line: Beam's errors of a failed
// pipeline run over many.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var errUsage = errors.New("usage")

// parse parses args into flag.CommandLine, where Beam's flags are, after
// define has defined the command's flags there. flag.CommandLine exits
// on an error, after a dump of every flag; so args are parsed first into
// a trial flag set, of Beam's flags with fresh values of their types and
// the command's (define), whose errors are returned as one-line misuses.
// Beam reads its flags, and those set on the command line, from
// flag.CommandLine.
func parse(args []string, define func(*flag.FlagSet)) error {
	trial := flag.NewFlagSet(flag.CommandLine.Name(), flag.ContinueOnError)
	flag.CommandLine.VisitAll(func(f *flag.Flag) { trial.Var(trialValue{fresh(f.Value)}, f.Name, f.Usage) })
	define(trial)
	if err := parseSilently(trial, args); err != nil {
		return err
	}
	define(flag.CommandLine)
	return flag.CommandLine.Parse(args)
}

// parseSilently parses args with fs, its errors returned as misuses
// rather than printed.
func parseSilently(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %s", errUsage, strings.NewReplacer(": -", ": --", "flag -", "flag --").Replace(err.Error()))
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q (all inputs are given by flags; quote a glob, --data 'DIR/part-*', so that the shell leaves it whole)", errUsage, fs.Arg(0))
	}
	return nil
}

// fresh returns a new zero value of the type of v, a pointer as the
// values of package flag are, or nil when v is not one.
func fresh(v flag.Value) flag.Value {
	if t := reflect.TypeOf(v); t.Kind() == reflect.Pointer {
		if f, ok := reflect.New(t.Elem()).Interface().(flag.Value); ok {
			return f
		}
	}
	return nil
}

// trialValue checks a value of one of Beam's flags with a fresh value of
// its type (nil: any value), for parse's trial: a value whose Set panics
// on a zero value is taken as valid, flag.CommandLine having the word.
type trialValue struct{ v flag.Value }

func (t trialValue) String() string { return "" }

func (t trialValue) Set(s string) (err error) {
	if t.v == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			err = nil
		}
	}()
	return t.v.Set(s)
}

func (t trialValue) IsBoolFlag() bool {
	b, ok := t.v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// run runs the verb with its arguments, on flag.CommandLine, where Beam's
// flags are.
func run(ctx context.Context, verb string, args []string, stderr io.Writer) error {
	switch verb {
	case "predict", "score":
		return runApply(ctx, verb, args)
	}
	var o *fitOptions
	if err := parse(args, func(fs *flag.FlagSet) { o = fitFlags(fs, args) }); err != nil {
		return err
	}
	o.stderr = stderr
	fs := flag.CommandLine
	if o.kindErr != nil {
		return o.kindErr
	}
	if err := modelflags.Check(fs); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return o.run(ctx)
}

// printVersion runs the version command with its arguments (none).
func printVersion(w io.Writer, args []string) error {
	if err := parseSilently(flag.NewFlagSet("version", flag.ContinueOnError), args); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	_, err := fmt.Fprintf(w, "gendisc-beam %s, model files version %d, Apache Beam Go SDK %s, %s\n", version(bi), modelfile.Version, beamVersion(bi), runtime.Version())
	return err
}

// version is the version of gendisc-beam in bi, as gendisc version
// shows its own.
func version(bi *debug.BuildInfo) string {
	v := modelflags.BuildVersion(bi)
	if v == "(devel)" {
		v += modelflags.NoStamp
	}
	return v
}

// beamVersion is the version of the Apache Beam Go SDK in bi.
func beamVersion(bi *debug.BuildInfo) string {
	if bi != nil {
		for _, d := range bi.Deps {
			if d.Path == "github.com/apache/beam/sdks/v2" {
				return d.Version
			}
		}
	}
	return "(unknown)"
}

// fitOptions are fit's flags.
type fitOptions struct {
	data, model, out, schema string
	kind                     *registry.Kind        // the kind of --model, nil for an iterative or unknown one
	read                     func() dataio.Options // how the shards are read, as gendisc fit's
	seq                      func() seqio.Options  // for a kind of sentences, how they are read (read nil)
	acc                      func() (gendisc.Accumulator, error)
	iter                     iterFunc // an iterative kind's, acc nil
	kindErr                  error    // an unknown or missing --model
	stderr                   io.Writer
}

func (o *fitOptions) run(ctx context.Context) error {
	switch {
	case o.data == "":
		return fmt.Errorf("%w: missing --data", errUsage)
	case o.out == "" || o.out == "-":
		return fmt.Errorf("%w: missing --out, a file", errUsage)
	case o.seq != nil:
		return o.runSequences(ctx)
	}
	read := o.read()
	read.NumericTarget = o.kind != nil && o.kind.Target == registry.Number
	check := &read
	if o.schema != "" {
		check = nil // the columns are the model's
	}
	if _, err := fit.CheckInput(ctx, o.data, check); err != nil {
		return bundledHint(err, o.data)
	}
	beam.Init()
	opt := fit.Options{Read: read, Temp: o.out + ".schema.json"}
	if o.schema != "" {
		m, err := registry.Load(o.schema)
		if err != nil {
			return err
		}
		opt.Schema = m.Schema()
	}
	if o.iter != nil {
		return o.iter(ctx, o.data, o.out, opt, o.stderr)
	}
	acc, err := o.acc()
	if err != nil {
		return err
	}
	m, err := fit.Fit(ctx, beamx.Run, o.data, acc, o.out, opt)
	if err != nil {
		return err
	}
	if w, ok := m.(gendisc.Warner); ok {
		warn(o.stderr, w)
	}
	return nil
}

// runSequences fits a kind of sentences (fit.FitSequences).
func (o *fitOptions) runSequences(ctx context.Context) error {
	if o.schema != "" {
		return fmt.Errorf("%w: --schema gives the columns of tables: --model %s reads sentences", errUsage, o.kind.Name)
	}
	acc, err := o.acc()
	if err != nil {
		return err
	}
	opt := o.seq()
	if _, err := fit.CheckSentences(ctx, o.data, opt); err != nil {
		return err
	}
	beam.Init()
	m, err := fit.FitSequences(ctx, beamx.Run, o.data, acc, o.out, opt)
	if err != nil {
		return err
	}
	if w, ok := m.(gendisc.Warner); ok {
		warn(o.stderr, w)
	}
	return nil
}

// fitFlags defines fit's flags on fs, with those of the kind that args
// name with --model, and those of reading its data: sentences
// (seqflags) for a kind of sentences, tables (dataflags) for the others;
// an unknown kind is o.kindErr, a misuse reported once the flags are
// parsed.
func fitFlags(fs *flag.FlagSet, args []string) *fitOptions {
	o := &fitOptions{}
	fs.StringVar(&o.data, "data", "", "training data: a `glob` of CSV, TSV, Parquet or JSON lines files, each with its header (for a kind of sentences: CoNLL-U, columns or JSON lines), compressed or not, on any Beam filesystem")
	fs.StringVar(&o.model, "model", "", "the model `kind`: "+strings.Join(allKinds(), ", "))
	fs.StringVar(&o.out, "out", "", "write the model to this `file`, on any Beam filesystem")
	fs.StringVar(&o.schema, "schema", "", "read the data with the schema of this model `file` rather than inferring it in a first pass")
	o.model = flagValue(args, "model")
	if slices.Contains(fit.SequenceKinds(), o.model) {
		o.kind, _ = registry.Lookup(o.model)
		o.seq = seqflags.Define(fs)
		o.acc = accumulatorFlags(o.kind, fs)
		return o
	}
	o.read = dataflags.Define(fs)
	if it, ok := iterKinds[o.model]; ok {
		o.iter = it(fs)
		return o
	}
	switch {
	case slices.Contains(fit.Kinds(), o.model):
		o.kind, _ = registry.Lookup(o.model)
		o.acc = accumulatorFlags(o.kind, fs)
	case o.model == "":
		o.kindErr = fmt.Errorf("%w: missing --model KIND (%s)", errUsage, strings.Join(allKinds(), ", "))
	default:
		o.kindErr = fmt.Errorf("%w: --model %q: want one of %s", errUsage, o.model, strings.Join(allKinds(), ", "))
	}
	return o
}

// accumulatorFlags defines the model flags of the one-pass kind k, those
// of gendisc fit (registry.Kind.Flags), and returns the function that
// gives its empty accumulator once they are parsed.
func accumulatorFlags(k *registry.Kind, fs *flag.FlagSet) func() (gendisc.Accumulator, error) {
	cfg := k.Flags(fs)
	return func() (gendisc.Accumulator, error) {
		c, err := cfg()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		op, ok := c.(registry.OnePassConfig)
		if !ok { // a one-pass kind whose flags ask for another fit (hmm's --em)
			return nil, fmt.Errorf("%w: this configuration of --model %s is not fitted in one pass", errUsage, k.Name)
		}
		return op.NewAccumulator()
	}
}

// allKinds returns the kinds fit takes, sorted.
func allKinds() []string {
	k := append(append(fit.Kinds(), fit.IterativeKinds()...), fit.SequenceKinds()...)
	slices.Sort(k)
	return k
}

// flagValue returns the value of --name in args (--name V, --name=V, and
// with one dash), the last when repeated.
func flagValue(args []string, name string) string {
	v := ""
	for i, a := range args {
		if a == "--" {
			break
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if k, val, ok := strings.Cut(a, "="); ok && k == name {
			v = val
		} else if a == name && i+1 < len(args) {
			v = args[i+1]
		}
	}
	return v
}
