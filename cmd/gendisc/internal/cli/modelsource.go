package cli

import (
	"errors"
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/registry"
)

// modelSource is the generative model of impute and balance: a fitted
// model file (--model M.json), as every command but fit takes it, or a
// kind to fit on the data first (--kind KIND, with that kind's flags, as
// fit's --model).
type modelSource struct {
	file, kind string
	fit        fitFunc           // the fit of --kind's flags; nil without --kind
	seed       func() *rand.Rand // the random source of --seed
	kindErr    error             // an unknown --kind
	fs         *flag.FlagSet

	// can is what the command needs of a model (gendisc.Imputer,
	// gendisc.ClassSampler); does says it, completing "a KIND model ...".
	can  reflect.Type
	does string
}

// register defines --model and --kind on fs, the flags of the kind that
// --kind names in the raw arguments args, and --seed (kindFlags).
func (s *modelSource) register(fs *flag.FlagSet, args []string) {
	s.fs = fs
	fs.StringVar(&s.file, "model", "", "the fitted model `file` (from gendisc fit); - for standard input")
	fs.StringVar(&s.kind, "kind", "", "or fit a model of this `kind` to the data first, with the kind's flags (gendisc help fit lists them): "+strings.Join(s.kinds(), ", "))
	s.fit, s.seed, s.kindErr = kindFlags(fs, args)
}

// kinds returns the names of the kinds whose models can do what the
// command needs.
func (s *modelSource) kinds() []string {
	return kindsWith(func(k *registry.Kind) bool { return k.Type.Implements(s.can) })
}

// kindDoes reports whether the models of the kind name implement the
// interface t.
func kindDoes(name string, t reflect.Type) bool {
	k, err := registry.Lookup(name)
	return err == nil && k.Type.Implements(t)
}

// check returns the usage error of --model and --kind, found before any
// data is read: neither or both given, an unknown kind or one whose
// models cannot do the work, a kind given to --model, a kind's flag with
// --model.
func (s *modelSource) check() error {
	switch {
	case (s.file == "") == (s.kind == ""):
		return usagef("give either --model M.json, a fitted model, or --kind KIND, to fit one on the data first")
	case s.kindErr != nil:
		return usagef("--kind: %v", s.kindErr)
	case s.kind != "" && !slices.Contains(s.kinds(), s.kind):
		return usagef("--kind %s: a %[1]s model %s (kinds that do: %s)", s.kind, s.does, strings.Join(s.kinds(), ", "))
	case s.file == "":
		return nil
	}
	if _, err := os.Stat(s.file); isKind(s.file) && errors.Is(err, fs.ErrNotExist) {
		return usagef("--model %s: no such file; --model takes a fitted model file, --kind %[1]s fits a %[1]s model on the data first", s.file)
	}
	var kindFlag string
	s.fs.Visit(func(f *flag.Flag) {
		if _, ok := f.Value.(otherKindFlag); ok {
			kindFlag = f.Name
		}
	})
	if kindFlag != "" {
		return usagef("--%s is a flag of a model kind: it goes with --kind KIND, not with --model M.json", kindFlag)
	}
	return nil
}

// loaded returns the model of the file --model, or the wrongKind error
// (exit 1, bad input) when it cannot do the command's work.
func (s *modelSource) loaded(env *Env) (gendisc.Model, error) {
	_, m, err := env.loadModel(s.file)
	if err != nil {
		return nil, err
	}
	if !reflect.TypeOf(m).Implements(s.can) {
		return nil, wrongKind(s.file, m.Kind(), s.does+" (kinds that do: "+strings.Join(s.kinds(), ", ")+")")
	}
	return m, nil
}

// kindFlags defines on fs the flags of the model kind that --kind names
// in the raw arguments args, and those of the other kinds, which are
// refused, as fit does; and --seed, unless the kind defines it (the
// mixtures seed their fit): one seed serves the fit and the draws. It
// returns the fit function (nil without --kind, or when args is nil for
// the help text), the function that gives the random source of --seed
// once the flags are parsed, and the error of an unknown kind.
func kindFlags(fs *flag.FlagSet, args []string) (fitFunc, func() *rand.Rand, error) {
	var (
		fit  fitFunc
		err  error
		name string
	)
	if args != nil {
		if name = flagValue(args, "kind", ""); name != "" {
			var k *registry.Kind
			if k, err = lookupKind(name); err == nil {
				fit = kindFit(k, fs)
			}
		}
	}
	if fs.Lookup("seed") == nil {
		fs.Uint64("seed", 1, "`seed` of the random draws")
	}
	if args != nil {
		if fit == nil {
			name = ""
		}
		defineOtherKindsFlags(fs, name)
	}
	seed := func() *rand.Rand {
		v, _ := strconv.ParseUint(fs.Lookup("seed").Value.String(), 10, 64)
		return rand.New(rand.NewPCG(v, 0))
	}
	return fit, seed, err
}
