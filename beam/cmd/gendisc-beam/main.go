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
// statistics): every naive Bayes kind, lda, qda and linear; and the
// iterative kinds, logistic and gmm, fitted by a pipeline per pass. Each
// shard is a CSV or TSV file with its header, a Parquet file or JSON
// lines, gzip-, zstd-, bzip2- or xz-compressed or not (told by content,
// not by name). The model file is the one gendisc fit writes for the rows
// of all the shards. predict and score write, for the i-th shard of n in
// the order of their paths, PREFIX-0000i-of-0000n.csv: the columns of
// gendisc predict (or score) for its rows, with the header.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/beam/fit"
	"github.com/gendisc/gendisc/cmd/gendisc/modelflags"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/registry"
)

const usage = `usage: gendisc-beam fit --data 'DIR/part-*' --model KIND [model flags] --out M.json [--runner prism] [Beam flags]
       gendisc-beam predict --model M.json --data 'DIR/part-*' --out PREFIX [Beam flags]
       gendisc-beam score --model M.json --data 'DIR/part-*' --out PREFIX [Beam flags]

fit fits a model of KIND on the files that the glob matches (each with
its header; CSV, TSV, Parquet or JSON lines, compressed with gzip, zstd,
bzip2 or xz or not), with Apache Beam pipelines: prism, Beam's local
runner, by default; Flink, Spark or Dataflow with Beam's flags
(--runner, --endpoint, --project, --region, --temp_location, ...).

predict and score apply a model to the rows of the files and write, for
the i-th file of n (in the order of the paths), PREFIX-0000i-of-0000n.csv:
the columns of gendisc predict (or score) for its rows, with the header.
`

func main() {
	// A Beam worker runs this binary with Beam's worker flags, no verb.
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		flag.Parse()
		beam.Init()
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1], os.Args[2:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gendisc-beam:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run runs the verb with its arguments, on flag.CommandLine, where Beam's
// flags are.
func run(ctx context.Context, verb string, args []string, stderr io.Writer) error {
	flag.CommandLine.SetOutput(stderr)
	switch verb {
	case "fit":
	case "predict", "score":
		return runApply(ctx, verb, args)
	case "help", "-h", "--help":
		fmt.Fprint(stderr, usage)
		return nil
	default:
		return fmt.Errorf("%w: unknown command %q (commands: fit, predict, score)", errUsage, verb)
	}
	fs := flag.CommandLine
	o, err := fitFlags(fs, args)
	if err != nil {
		return err
	}
	o.stderr = stderr
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := modelflags.Check(fs); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	beam.Init()
	return o.run(ctx)
}

// fitOptions are fit's flags.
type fitOptions struct {
	data, model, out, schema string
	read                     func() data.Options // how the shards are read, as gendisc fit's
	acc                      func() (gendisc.Accumulator, error)
	iter                     iterFunc // an iterative kind's, acc nil
	stderr                   io.Writer
}

func (o *fitOptions) run(ctx context.Context) error {
	switch {
	case o.data == "":
		return fmt.Errorf("%w: fit needs --data", errUsage)
	case o.out == "" || o.out == "-":
		return fmt.Errorf("%w: fit needs --out, a file", errUsage)
	}
	opt := fit.Options{Read: o.read(), Temp: o.out + ".schema.json"}
	opt.Read.NumericTarget = o.model == "linear"
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
	m, err := fit.Fit(ctx, beamx.Run, o.data, o.model, acc, o.out, opt)
	if err != nil {
		return err
	}
	if w, ok := m.(interface{ Warnings() []string }); ok {
		warn(o.stderr, w)
	}
	return nil
}

// fitFlags defines fit's flags on fs, with those of the kind that args
// name with --model.
func fitFlags(fs *flag.FlagSet, args []string) (*fitOptions, error) {
	o := &fitOptions{}
	fs.StringVar(&o.data, "data", "", "training data: a `glob` of CSV, TSV, Parquet or JSON lines files, each with its header, compressed or not, on any Beam filesystem")
	fs.StringVar(&o.model, "model", "", "the model `kind`: "+strings.Join(allKinds(), ", "))
	fs.StringVar(&o.out, "out", "", "write the model to this `file`, on any Beam filesystem")
	fs.StringVar(&o.schema, "schema", "", "read the data with the schema of this model `file` rather than inferring it in a first pass")
	o.read = modelflags.Data(fs)
	o.model = flagValue(args, "model")
	if it, ok := iterKinds[o.model]; ok {
		o.iter = it(fs)
		return o, nil
	}
	k, ok := kinds[o.model]
	if !ok {
		return nil, fmt.Errorf("%w: --model %q: want one of %s", errUsage, o.model, strings.Join(allKinds(), ", "))
	}
	o.acc = k(fs)
	return o, nil
}

// allKinds returns the kinds fit takes, sorted.
func allKinds() []string {
	k := append(fit.Kinds(), fit.IterativeKinds()...)
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
