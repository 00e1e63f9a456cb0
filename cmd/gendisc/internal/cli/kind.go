package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
)

// A kind is a model family as the commands see it: what the command line
// adds to the kind of the same name in package registry, which decodes its
// model files (loadModel). Each family registers its kinds from an init
// function in its own file, kind_FAMILY.go. After adding a kind, "go test
// ./cmd/gendisc/internal/cli -update" rewrites the help text in
// testdata/help_fit.golden, and TestEveryKind runs fit, predict, eval and
// inspect with it (on iris, or the data set named in its kindData).
type kind struct {
	name  string // the --model value and the Kind of the saved models
	short string // one line for "gendisc fit --help"

	// flags defines the kind's hyperparameter flags on fs and returns the
	// function that fits a model with the values parsed into them. The
	// kinds that gendisc-beam fit takes too define them with package
	// modelflags, which both commands share.
	flags func(fs *flag.FlagSet) fitFunc

	// inspect describes a fitted model of this kind for "gendisc
	// inspect": a value that marshals to JSON for --json and writes
	// itself as text otherwise.
	inspect func(m gendisc.Model) report

	// regression marks a kind whose target is a number, not a class:
	// fit reads it with dataio.Options.NumericTarget, and the models
	// implement regressor (predict and eval).
	regression bool

	// accumulator is set for a kind whose models keep their sufficient
	// statistics (gendisc.Mergeable), and only for one: it defines the
	// same flags as flags and returns the function that gives an empty
	// accumulator of the configuration they hold, or the error of an
	// invalid one. fit --stream adds the chunks of rows to it (stream.go);
	// update and merge use the accumulators of the models instead.
	accumulator func(fs *flag.FlagSet) func() (gendisc.Accumulator, error)

	// read, when set, reads the training data named by --data in place
	// of the reading every kind shares (readTraining).
	read func(env *Env, name string, opt dataio.Options) (*data.Dataset, error)
}

// fitFunc fits a model to training data.
type fitFunc func(d *data.Dataset) (modelfile.Persistent, error)

// report is what inspect prints about a model: its JSON encoding, or the
// text that writeText writes.
type report interface {
	writeText(w io.Writer) error
}

// kinds maps a kind's name to the kind.
var kinds = map[string]*kind{}

// register adds k to the kinds. It panics when the name is taken: two
// files registering one name is a programming mistake.
func register(k *kind) {
	if kinds[k.name] != nil {
		panic("cli: model kind " + k.name + " registered twice")
	}
	kinds[k.name] = k
}

// kindNames returns the names of the kinds in sorted order.
func kindNames() []string {
	names := make([]string, 0, len(kinds))
	for name := range kinds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// lookupKind returns the kind named by --model.
func lookupKind(name string) (*kind, error) {
	if k := kinds[name]; k != nil {
		return k, nil
	}
	if hint := didYouMean(name, kindNames(), same); hint != "" {
		return nil, fmt.Errorf("unknown model kind %q%s", name, hint)
	}
	return nil, fmt.Errorf("unknown model kind %q (kinds: %s)", name, strings.Join(kindNames(), ", "))
}

// loadModel reads the model file at path ("-" for standard input), a
// gendisc model file or an ARPA language model (models.LoadFile), and
// rebuilds the fitted model it holds with the decoder that package
// registry has for its kind.
func (env *Env) loadModel(path string) (*modelfile.Envelope, gendisc.Model, error) {
	if path == "-" {
		return models.ReadFile(env.Stdin, "<stdin>")
	}
	e, m, err := models.LoadFile(path)
	if errors.Is(err, fs.ErrNotExist) && kinds[path] != nil {
		return nil, nil, usagef("%s: no such file; %[1]s is a model kind, and gendisc fit --model %[1]s --data F --out %[1]s.json makes a model file of it", path)
	}
	return e, m, err
}

// wrongKind is the error for a model file whose kind cannot do what the
// command asks, cannot completing "a KIND model ...". Like any other
// unsuitable input it is a failure (exit 1), not a misuse.
func wrongKind(path, kind, cannot string) error {
	return fmt.Errorf("%s: a %s model %s", path, kind, cannot)
}

// modelAs returns the model m of the model file at path as a T, or the
// wrongKind error when it is not one.
func modelAs[T any](path string, m gendisc.Model, cannot string) (T, error) {
	t, ok := m.(T)
	if !ok {
		return t, wrongKind(path, m.Kind(), cannot)
	}
	return t, nil
}

// writeModel writes m as a model file to path, "-" meaning standard
// output; a file appears whole or not at all (create).
func (env *Env) writeModel(path string, m modelfile.Persistent) error {
	out, err := env.create(path)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := modelfile.Write(out, m); err != nil {
		return err
	}
	return out.Commit()
}

// persistent returns m, a model that an accumulator finished, as a
// modelfile.Persistent. Every model of a kind that registers with package
// registry can be saved: one that cannot is a programming mistake.
func persistent(m gendisc.Model) modelfile.Persistent {
	p, ok := m.(modelfile.Persistent)
	if !ok {
		panic(fmt.Sprintf("cli: a model of kind %s cannot be saved: it has no MarshalJSON", m.Kind()))
	}
	return p
}
