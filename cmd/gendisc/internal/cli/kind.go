package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/registry"
)

// The model kinds are those of package registry: each family declares
// its kinds once, in its register.go (registry.Kind), and the commands
// derive everything from the declaration: the kinds --model takes (those
// with Flags), their flags and help (Flags, Short), how fit reads the
// training data (Input, Target), which kinds fit --stream takes (a
// registry.OnePassConfig), and what a model can do from the capabilities
// its type implements (gendisc.Regressor, gendisc.Density, ...). Only
// inspect knows the families, to describe their parameters (inspect_*.go),
// with a generic description for a kind it does not know.

// fitFunc fits a model to training data.
type fitFunc func(d *data.Dataset) (gendisc.Model, error)

// report is what inspect prints about a model: its JSON encoding, or the
// text that writeText writes.
type report interface {
	writeText(w io.Writer) error
}

// kindNames returns the names of the kinds that gendisc fits (those with
// flags), in sorted order.
func kindNames() []string {
	return kindsWith(func(*registry.Kind) bool { return true })
}

// kindsWith returns the names of the kinds that gendisc fits for which
// has is true, in sorted order.
func kindsWith(has func(*registry.Kind) bool) []string {
	var names []string
	for _, name := range registry.Kinds() {
		if k, err := registry.Lookup(name); err == nil && k.Fitted() && has(k) {
			names = append(names, name)
		}
	}
	return names
}

// isKind reports whether name is a kind that gendisc fits.
func isKind(name string) bool {
	k, err := registry.Lookup(name)
	return err == nil && k.Fitted()
}

// lookupKind returns the kind named by --model.
func lookupKind(name string) (*registry.Kind, error) {
	if k, err := registry.Lookup(name); err == nil && k.Fitted() {
		return k, nil
	}
	if hint := didYouMean(name, kindNames(), same); hint != "" {
		return nil, fmt.Errorf("unknown model kind %q%s", name, hint)
	}
	return nil, fmt.Errorf("unknown model kind %q (kinds: %s)", name, strings.Join(kindNames(), ", "))
}

// printKindFlags writes to w, for each of the kinds named, its name, its
// description and its flags, as the help of fit lists them.
func printKindFlags(w io.Writer, names []string) {
	for _, name := range names {
		k, _ := registry.Lookup(name)
		fmt.Fprintf(w, "\n--model %s: %s\n", name, k.Short)
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		k.Flags(fs)
		printFlags(w, fs)
	}
}

// kindConfig defines the flags of kind k on fs and returns the function
// that gives the configuration they hold once fs is parsed. An invalid
// configuration is a misuse of the flags.
func kindConfig(k *registry.Kind, fs *flag.FlagSet) func() (registry.Config, error) {
	cfg := k.Flags(fs)
	return func() (registry.Config, error) {
		c, err := cfg()
		if err != nil {
			return nil, usagef("%v", err)
		}
		return c, nil
	}
}

// kindFit defines the flags of kind k on fs and returns the function that
// fits a model of the configuration they hold once fs is parsed
// (configFit).
func kindFit(k *registry.Kind, fs *flag.FlagSet) fitFunc {
	return configFit(k, kindConfig(k, fs))
}

// configFit returns the function that fits a model of kind k with the
// configuration cfg gives (kindConfig). A kind of plain text refuses a
// .txt file read as a table (checkPlainText).
func configFit(k *registry.Kind, cfg func() (registry.Config, error)) fitFunc {
	return func(d *data.Dataset) (gendisc.Model, error) {
		c, err := configFor(k, cfg, d)
		if err != nil {
			return nil, err
		}
		return c.Fit(d)
	}
}

// configFor returns the configuration cfg gives for a fit of kind k to
// d, or the error of cfg or of d (a text kind's text that is not plain).
func configFor(k *registry.Kind, cfg func() (registry.Config, error), d *data.Dataset) (registry.Config, error) {
	c, err := cfg()
	if err != nil {
		return nil, err
	}
	if k.Input == registry.Text {
		if err := checkPlainText(d); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// configWarmFit returns the warm start of the configuration cfg gives,
// that of kind k, when it is a registry.WarmStartConfig (logistic
// regression), for cv's fold fits from the fit to all the rows
// (cv.Runner.WarmFit); nil otherwise, and for a configuration that
// cfg refuses (Fit reports it).
func configWarmFit(k *registry.Kind, cfg func() (registry.Config, error)) func(d *data.Dataset, from gendisc.Model) (gendisc.Model, error) {
	if c, err := cfg(); err != nil {
		return nil
	} else if _, ok := c.(registry.WarmStartConfig); !ok {
		return nil
	}
	return func(d *data.Dataset, from gendisc.Model) (gendisc.Model, error) {
		c, err := configFor(k, cfg, d)
		if err != nil {
			return nil, err
		}
		return c.(registry.WarmStartConfig).FitFrom(d, from)
	}
}

// configAccumulator returns the function that gives an empty accumulator
// of the configuration cfg gives, that of kind k, a one-pass kind
// (registry.Kind.OnePass); a configuration that is not one-pass is a
// misuse of --stream.
func configAccumulator(k *registry.Kind, cfg func() (registry.Config, error)) func() (gendisc.Accumulator, error) {
	return func() (gendisc.Accumulator, error) {
		c, err := cfg()
		if err != nil {
			return nil, err
		}
		op, ok := c.(registry.OnePassConfig)
		if !ok { // a one-pass kind whose flags ask for another fit (hmm's --em)
			return nil, usagef("--stream: this configuration of --model %s is not fitted in one pass", k.Name)
		}
		return op.NewAccumulator()
	}
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
	if errors.Is(err, fs.ErrNotExist) && isKind(path) {
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
