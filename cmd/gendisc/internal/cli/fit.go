package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/registry"
)

// defaultKind is the model fit uses without --model.
const defaultKind = naivebayes.KindMixed

var cmdFit = &Command{
	Name:      "fit",
	UsageLine: "fit --data F [--model KIND] [--target NAME] [data flags] [model flags] [--out M.json] [--test-data F]",
	Short:     "fit a model to a data set and save it",
	Long: `
Fit reads a training data set, fits a model of the kind given by --model,
and writes it as a model file (JSON: format version, kind, the schema of
the data, the fitted parameters) to --out, standard output by default.

The target is the last column unless --target names another; it holds
class labels, or numbers for a regression (--model linear). Column types
are inferred (numeric, categorical, text) and can be forced with
--categorical and --text; --ignore skips columns; --weight names a column
of row weights. Each model kind has its own flags, listed below; they are
accepted only with that --model.

Rows without a label (an empty target cell; a regression's target value
too) are left out of the fit by every kind, with a note that counts them; gmm, which leaves the target
out, keeps them. A fit that ends in a way to know about (logistic
regression stopped at --max-iter, or on separable data with --l2 0; a
column without any observed value, which naive Bayes leaves out) prints a
warning on standard error.
Missing feature cells are marginalised by naive Bayes, LDA/QDA and the
mixtures; logistic and linear regression refuse them unless --impute
mean, at fit as at predict.

With --stream, the data is read and fitted in chunks of a few megabytes,
so that memory does not grow with the file: the kinds whose fits keep
sufficient statistics (listed under --stream below) add up those of
each chunk. The column types are then
inferred from the first chunk: later chunks may add classes and
categories, but a value that does not fit a column's type (a word in a
numeric column) is an error. On a terminal, unless --quiet, a progress
line on standard error shows the bytes read of the file's size, the rate
and the time left.

A kind of sentences (hmm) reads --data as sequence data instead: a
CoNLL-U file (--tags upos|xpos|deprel|misc:KEY), a column file of
CoNLL-2000/2003 (--tag-column N) or JSON lines, plain or compressed, or a
bundled treebank (ud_english_ewt, ud_english_ewt_dev); --seq-format
overrides the format told by the extension or the first bytes. --model
crf also trains on sentences given as attributes in CRFsuite's data
format (--seq-format crfsuite, or a .crfsuite file; gendisc features
writes them), instead of those its feature templates make of words. With --em
and --verbose, the log-likelihood of every Baum–Welch iteration is printed.
With --stream, the sentences are read one at a time and added to the
counts in batches, a sentence taking at most --max-record bytes (--em,
which reads them many times, is not fitted so).

With --test-data, fit then evaluates the model on that held-out data, as
eval does, and prints eval's report on standard output (--json, --spans
as for eval; a weight column of --weight weighs the test rows too): the
model goes to the file of --out, written while the test data is read and
kept only when the evaluation succeeds, and without --out no model file
is written. Training and evaluating in one command reads no model file
back.

The output file is written atomically: when fit fails, no file is left.

Example:

	gendisc fit --data iris --model gaussian-nb --variance feature --out iris.json`,
	Required:    []string{"data"},
	Flags:       fitFlags,
	WritesModel: true,
	MoreHelp:    func(w io.Writer) { printKindFlags(w, kindNames()) },
}

// trainingOptions are what the commands that fit a kind to a data set
// (fit, cv) share: the training data (--data and the data flags) and the
// model kind (--model) with its flags.
type trainingOptions struct {
	data, model   string
	kind          *registry.Kind // nil for an unknown --model
	numericTarget bool           // the kind is a regression
	read          dataFlags
}

// register defines --data, --model and the data flags on fs.
func (o *trainingOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.data, "data", "", "training data: a CSV or TSV `file`, - for standard input, or a bundled data set's name")
	fs.StringVar(&o.model, "model", defaultKind, "the model `kind`: "+strings.Join(kindNames(), ", "))
	o.read.register(fs)
}

// defineKind defines on fs the flags of the kind that --model names in
// the raw arguments args, and returns the function that gives the
// configuration they hold once fs is parsed (kindConfig), or the error of
// an unknown kind, to be reported once the flags are parsed. The kind's
// flags must be defined before parsing, so the value of --model is picked
// out of the raw arguments. Then refuseOtherKinds defines the flags of
// the other kinds, after those of the command.
func (o *trainingOptions) defineKind(fs *flag.FlagSet, args []string) (func() (registry.Config, error), error) {
	k, err := lookupKind(flagValue(args, "model", defaultKind))
	if err != nil {
		return nil, err
	}
	o.kind, o.numericTarget = k, k.Target == registry.Number
	return kindConfig(k, fs), nil
}

// refuseOtherKinds defines on fs the flags of the kinds other than the one
// that defineKind defined, which are refused (defineOtherKindsFlags).
func (o *trainingOptions) refuseOtherKinds(fs *flag.FlagSet) {
	name := ""
	if o.kind != nil {
		name = o.kind.Name
	}
	defineOtherKindsFlags(fs, name)
}

type fitOptions struct {
	trainingOptions
	out       string
	stream    bool
	test      evalOptions                         // --test-data: its data, json and spans
	seq       seqFlags                            // a kind of sentences (seqinput.go)
	seqConfig func() (registry.Config, error)     // a kind of sentences, without --stream
	fit       fitFunc                             // a kind of tables, without --stream
	newAcc    func() (gendisc.Accumulator, error) // with --stream
}

func fitFlags(fs *flag.FlagSet, args []string) Runner {
	o := &fitOptions{}
	o.trainingOptions.register(fs)
	fs.StringVar(&o.out, "out", "", "write the model to this `file`, - for standard output (the default; with --test-data, no model file unless given)")
	o.seq.register(fs)
	fs.StringVar(&o.test.data, "test-data", "", "evaluate the model on this held-out `file` (or bundled data set) and print eval's report")
	fs.BoolVar(&o.test.json, "json", false, "with --test-data, print the report as JSON")
	fs.BoolVar(&o.test.spans, "spans", false, "with --test-data, a tagger of BIO/IOB tags: add span-level precision, recall and F1")
	fs.BoolVar(&o.stream, "stream", false, "read and fit the data in chunks, in memory that does not grow with the file (kinds: "+strings.Join(streamableKinds(), ", ")+")")
	if args == nil { // help: MoreHelp lists the flags of every kind
		return nil
	}
	cfg, err := o.defineKind(fs, args)
	if err == nil {
		if boolFlagValue(args, "stream") && o.kind.OnePass() {
			o.newAcc = configAccumulator(o.kind, cfg) // fit --stream adds the chunks to it (stream.go)
		} else if sequenceInput(o.kind) {
			o.seqConfig = cfg
		} else {
			o.fit = configFit(o.kind, cfg)
		}
	}
	o.refuseOtherKinds(fs)
	return func(ctx context.Context, env *Env) error {
		if err != nil {
			return usagef("%v", err)
		}
		if err := checkKindReadFlags(fs, o.kind); err != nil {
			return err
		}
		if o.stream != (o.newAcc != nil) {
			if !o.kind.OnePass() {
				return usagef("--model %s cannot be fitted with --stream (kinds that can: %s)",
					o.kind.Name, strings.Join(streamableKinds(), ", "))
			}
			return usagef("--stream is ambiguous here: give it apart from other flags' values")
		}
		if o.test.data == "" && (o.test.json || o.test.spans) {
			return usagef("--json and --spans are for the report of --test-data")
		}
		switch {
		case o.test.data != "" && o.out == "-":
			return usagef("--test-data prints its report on standard output: give --out a file for the model, or no --out for none")
		case o.out == "" && o.test.data == "":
			o.out = "-"
			if err := env.checkModelOut(o.out); err != nil {
				return err
			}
		}
		return o.run(env)
	}
}

func (o *fitOptions) run(env *Env) error {
	fit := o.fitAll
	switch {
	case sequenceInput(o.kind) && o.newAcc != nil:
		fit = o.fitSequenceStream // seqinput.go
	case sequenceInput(o.kind):
		fit = o.fitSequences
	case o.newAcc != nil:
		fit = o.fitChunks // stream.go
	}
	m, err := fit(env)
	if errors.Is(err, dataio.ErrMemory) && o.streamable() {
		return &streamable{err, o.newAcc != nil}
	}
	if err != nil {
		return err
	}
	warnModel(env, m)
	if o.test.data != "" {
		return o.writeAndTest(env, m)
	}
	return env.writeModel(o.out, persistent(m))
}

// writeAndTest evaluates m on --test-data (as eval, the report on
// standard output) while it writes the model file of m to --out and to
// disk, and keeps the file only when both succeed; without --out it only
// evaluates m.
func (o *fitOptions) writeAndTest(env *Env, m gendisc.Model) error {
	if p, ok := m.(gendisc.Preparer); ok {
		p.Prepare()
	}
	test := o.test
	test.model, test.weight, test.seq = o.out, o.readOptions().Weight, o.seq
	if o.out == "" {
		test.model = "the fitted model"
		return test.evaluate(env, m, o.kind.Name)
	}
	out, err := env.create(o.out)
	if err != nil {
		return err
	}
	defer out.Abort()
	written := make(chan error, 1)
	go func() {
		err := modelfile.Write(out, persistent(m))
		if err == nil {
			err = out.Sync()
		}
		written <- err
	}()
	err = test.evaluate(env, m, o.kind.Name)
	if werr := <-written; werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	return out.Commit()
}

// fitAll reads the whole training data and fits the model to it.
func (o *fitOptions) fitAll(env *Env) (gendisc.Model, error) {
	d, err := o.readTrainingData(env, o.readOptions())
	if err != nil {
		return nil, err
	}
	m, err := o.fit(d)
	if err != nil {
		return nil, kindHint(err, d)
	}
	return m, nil
}

// readTrainingData reads the whole training data with opt (readOptions,
// or a command's changes to them) as the kind reads it (readTraining) and
// leaves out the rows without a label, with a note (dropUnlabelled,
// noteUnlabelled).
func (o *trainingOptions) readTrainingData(env *Env, opt dataio.Options) (*data.Dataset, error) {
	d, err := readTraining(env, o.kind, o.data, opt)
	if err != nil {
		return nil, o.targetHint(err, opt)
	}
	d, dropped := o.dropUnlabelled(d)
	o.noteUnlabelled(env, d, dropped)
	if o.numericTarget {
		env.verbosef("%s: %d rows, %d features, numeric target", d.Source, d.N, d.D())
	} else {
		env.verbosef("%s: %d rows, %d features, %d classes", d.Source, d.N, d.D(), len(d.Schema.Classes()))
	}
	return d, nil
}

// dropUnlabelled returns d without its rows whose target is missing, and
// their number: every kind that learns from the target leaves them out,
// the one rule of fit (a kind without a target, registry.None, such as
// gmm, keeps them).
func (o *trainingOptions) dropUnlabelled(d *data.Dataset) (*data.Dataset, int) {
	if o.kind.Target == registry.None || d.Y == nil {
		return d, 0
	}
	return gendisc.Labelled(d)
}

// noteUnlabelled says on standard error, unless --quiet, how many rows
// without a label (a target value for a regression) dropUnlabelled left
// out of the fit of d.
func (o *trainingOptions) noteUnlabelled(env *Env, d *data.Dataset, n int) {
	what := "a label"
	if o.numericTarget {
		what = "a target value"
	}
	if n > 0 && !env.Quiet {
		fmt.Fprintf(env.Stderr, "gendisc: %s: %s without %s (column %q) left out of the fit\n", d.Source, count(n, "row", "rows"), what, d.Schema.Target.Name)
	}
}

// readOptions returns how to read the training data: as the data flags
// say, the target a number for a regression.
func (o *trainingOptions) readOptions() dataio.Options {
	opt := o.read.options()
	opt.NumericTarget = o.numericTarget
	return opt
}

// targetHint adds to err, an error of reading the training data with opt,
// that the kind regresses a numeric target when the error is a cell of
// the target that is not a number.
func (o *trainingOptions) targetHint(err error, opt dataio.Options) error {
	var pe *data.ParseError
	if o.numericTarget && errors.As(err, &pe) && errors.Is(err, data.ErrNotNumber) && pe.ColumnName != opt.Weight {
		return fmt.Errorf("%w (--model %s regresses a numeric target; --target names it)", err, o.model)
	}
	return err
}

// flagValue returns the value of --name in the raw arguments args (the
// forms --name V, --name=V, -name V, -name=V), the last one when repeated,
// or def. Scanning stops at "--", as flag parsing does.
func flagValue(args []string, name, def string) string {
	v := def
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		a, ok := strings.CutPrefix(a, "-")
		if !ok {
			continue
		}
		a = strings.TrimPrefix(a, "-")
		if a == name && i+1 < len(args) {
			v = args[i+1]
			i++
		} else if val, ok := strings.CutPrefix(a, name+"="); ok {
			v = val
		}
	}
	return v
}

// boolFlagValue reports whether the boolean flag --name is true in the
// raw arguments args (the forms --name, --name=V, -name, -name=V), the
// last one when repeated. Scanning stops at "--", as flag parsing does.
func boolFlagValue(args []string, name string) bool {
	v := false
	for _, a := range args {
		if a == "--" {
			break
		}
		a, ok := strings.CutPrefix(a, "-")
		if !ok {
			continue
		}
		a = strings.TrimPrefix(a, "-")
		if a == name {
			v = true
		} else if val, ok := strings.CutPrefix(a, name+"="); ok {
			v, _ = strconv.ParseBool(val)
		}
	}
	return v
}

// defineOtherKindsFlags defines on fs the flags of the kinds other than
// the one named, that fs lacks, so that using one is refused with a
// message naming the kinds it belongs to. With name "" (an unknown
// --model) they accept any value, so that the unknown kind is the error
// reported.
func defineOtherKindsFlags(fs *flag.FlagSet, name string) {
	owners := map[string][]string{}
	isBool := map[string]bool{}
	for _, other := range kindNames() {
		if other == name {
			continue
		}
		tmp := flag.NewFlagSet(other, flag.ContinueOnError)
		k, _ := registry.Lookup(other)
		k.Flags(tmp)
		tmp.VisitAll(func(f *flag.Flag) {
			if fs.Lookup(f.Name) == nil {
				owners[f.Name] = append(owners[f.Name], other)
				b, ok := f.Value.(interface{ IsBoolFlag() bool })
				isBool[f.Name] = ok && b.IsBoolFlag()
			}
		})
	}
	for flagName, ks := range owners {
		fs.Var(otherKindFlag{model: name, owners: ks, isBool: isBool[flagName]}, flagName, "")
	}
}

// otherKindFlag is a flag of other model kinds than the one fitted: Set
// refuses every value.
type otherKindFlag struct {
	model  string
	owners []string
	isBool bool
}

func (f otherKindFlag) String() string   { return "" }
func (f otherKindFlag) IsBoolFlag() bool { return f.isBool }
func (f otherKindFlag) Set(string) error {
	if f.model == "" {
		return nil
	}
	return fmt.Errorf("it is a flag of --model %s, not of --model %s", strings.Join(f.owners, " or "), f.model)
}
