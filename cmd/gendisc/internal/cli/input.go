package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"

	"github.com/gendisc/gendisc/cmd/gendisc/modelflags"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/datasets"
)

// openData opens what --data names: standard input for "-", the file of
// that name when there is one, otherwise the bundled data set of that name.
// source names the input in error messages.
func (env *Env) openData(name string) (r io.ReadCloser, source string, err error) {
	if name == "-" {
		return io.NopCloser(env.Stdin), "<stdin>", nil
	}
	f, err := os.Open(name)
	if err == nil {
		return f, name, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	if c, ok := datasets.CorpusInfo(name); ok && c.PlainText() {
		return nil, "", fmt.Errorf("%s: a bundled corpus of plain text, not a table: --model ngram reads it (gendisc fit --data %[1]s --model ngram)", name)
	}
	r, _, err = openBundled(name)
	if err != nil {
		return nil, "", fmt.Errorf("%s: no such file, nor a bundled data set or corpus (%s)", name, strings.Join(bundledNames(), ", "))
	}
	return r, name, nil
}

// readData reads the training data named by --data.
func (env *Env) readData(name string, opt dataio.Options) (*data.Dataset, error) {
	r, source, err := env.openData(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	opt.Limits = env.limits
	d, err := dataio.Read(r, source, opt)
	if err == nil {
		env.readWarnings(d)
	}
	return d, err
}

// readWarnings prints the warnings of reading d: for a column read as
// categorical though mostly numbers, how to force its type.
func (env *Env) readWarnings(d *data.Dataset) {
	for _, w := range d.Source.Warnings {
		var pe *data.ParseError
		if errors.As(w, &pe) && errors.Is(w, data.ErrMostlyNumeric) {
			env.warnf("%v; --numeric %s reads it as numbers (and reports each cell that is not), --categorical %[2]s keeps it categorical", w, pe.ColumnName)
			continue
		}
		env.warnf("%v", w)
	}
}

// readWithSchema reads the data named by --data with the layout of a
// model's schema, as --unseen says: a category the model has not seen is
// a warning (noteUnseen) and a missing value, only a missing value, or an
// error.
func (env *Env) readWithSchema(name string, s *data.Schema, opt dataio.SchemaOptions) (*data.Dataset, error) {
	r, source, err := env.openData(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	opt.Limits = env.limits
	opt.UnseenError = env.unseen == "error"
	d, err := dataio.ReadWithSchema(r, source, s, opt)
	if err != nil {
		return nil, err
	}
	env.noteUnseen(d, s)
	return d, nil
}

// noteUnseen says, once per column, which categories of d the model's
// schema s had not seen (read as missing), with their count and the first
// of them: a warning, or with --unseen missing a note under --verbose;
// and which true and false values were read as the levels of a boolean
// pair (data.Column.BooleanLevel).
func (env *Env) noteUnseen(d *data.Dataset, s *data.Schema) {
	say := env.warnf
	if env.unseen == "missing" {
		say = env.verbosef
	}
	for j, n := range d.Source.Unseen {
		if n == 0 {
			continue
		}
		c := &s.Features[j]
		var ex []string
		if d.Source.UnseenValues != nil {
			ex = d.Source.UnseenValues[j]
		}
		more := ""
		if len(ex) >= data.MaxUnseenValues && n > len(ex) {
			more = ", ..." // maybe others
		}
		say("%s: column %q: %s of the model (%s%s; the model has %s): treated as missing (--unseen error refuses them)",
			d.Source, c.Name, count(n, "value is not a level", "values are not levels"), strings.Join(ex, ", "), more, levelNames(c))
	}
	for j, n := range d.Source.Booleans {
		if n == 0 {
			continue
		}
		c := &s.Features[j]
		say("%s: column %q: %s true and false read as the model's levels %s and %s", d.Source, c.Name,
			count(n, "value", "values"), c.Levels[c.BooleanLevel("true")], c.Levels[c.BooleanLevel("false")])
	}
}

// levelNames lists the first levels of c for a message.
func levelNames(c *data.Column) string {
	const most = 8
	if len(c.Levels) > most {
		return strings.Join(c.Levels[:most], ", ") + fmt.Sprintf(", ... (%d levels)", len(c.Levels))
	}
	return strings.Join(c.Levels, ", ")
}

// unseenFlag defines --unseen: what a command does with a categorical
// value that the model has not seen.
func unseenFlag(fs *flag.FlagSet, policy *string) {
	fs.Func("unseen", "a category the model has not seen: `warn` (read as missing, with a warning; the default), missing (read as missing) or error", func(s string) error {
		switch s {
		case "warn", "missing", "error":
			*policy = s
			return nil
		}
		return errors.New("want warn, missing or error")
	})
}

// closeLevels makes the cells of d, read with SchemaOptions.Extend, of a
// category that s, the model's schema, lacks missing and counts them in
// d.Source.Unseen, as a reading without Extend does: only the classes stay
// extended (eval). It reads true and false as a boolean pair's levels,
// refuses the others with --unseen error, and notes them as
// readWithSchema does.
func (env *Env) closeLevels(d *data.Dataset, s *data.Schema) error {
	D := d.D()
	for j, c := range s.Features {
		if c.Kind != data.Categorical {
			continue
		}
		for i := range d.N {
			v := d.X[i*D+j]
			if !(v >= float64(len(c.Levels))) {
				continue
			}
			str := d.Schema.Features[j].Levels[int(v)]
			switch k := c.BooleanLevel(str); {
			case k >= 0:
				d.X[i*D+j] = float64(k)
				d.CountBoolean(j)
			case env.unseen == "error":
				return d.CellError(i, j, fmt.Errorf("%w: %q (the model's levels: %s)", data.ErrUnseenLevel, str, levelNames(&s.Features[j])))
			default:
				d.X[i*D+j] = math.NaN()
				d.CountUnseen(j, str)
			}
		}
	}
	env.noteUnseen(d, s)
	return nil
}

// dataFlags are the flags that say how to read training data
// (modelflags.Data): register defines them, and options gives the
// dataio.Options they hold once they are parsed.
type dataFlags struct {
	options func() dataio.Options
}

func (f *dataFlags) register(fs *flag.FlagSet) { f.options = modelflags.Data(fs) }

// limitFlags defines --max-record and --max-memory, the limits of reading
// data (dataio.Limits), on fs, setting lim.
func limitFlags(fs *flag.FlagSet, lim *dataio.Limits) {
	fs.Var((*sizeFlag)(&lim.MaxMemory), "max-memory",
		"stop reading the data once it would take more than `SIZE` of memory, such as 8GiB, or none "+
			"(default: half the machine's memory, or of the control group's limit when lower)")
	fs.Func("max-record", "refuse data with a line or value longer than `SIZE`, such as 1GiB (default 64MiB)", func(s string) error {
		n, err := dataio.ParseSize(s)
		switch {
		case err != nil:
			return err
		case n < 1 || n > 4<<30:
			return fmt.Errorf("want a size from 1B to 4GiB")
		}
		lim.MaxRecord = int(n)
		return nil
	})
}

// sizeFlag is --max-memory: a size (dataio.ParseSize), or none (-1).
type sizeFlag int64

func (f *sizeFlag) String() string {
	switch {
	case *f < 0:
		return "none"
	case *f == 0:
		return ""
	}
	return dataio.FormatSize(int64(*f))
}

func (f *sizeFlag) Set(s string) error {
	if s == "none" {
		*f = -1
		return nil
	}
	n, err := dataio.ParseSize(s)
	if err == nil && n == 0 {
		err = fmt.Errorf("want a size > 0, or none")
	}
	*f = sizeFlag(n)
	return err
}

// streamable is an error of fit of a kind that can stream whose data
// passed the memory budget (dataio.ErrMemory): run without --stream,
// --stream is the remedy that hints adds.
type streamable struct {
	error
	streaming bool // run with --stream
}

func (e *streamable) Unwrap() error { return e.error }
