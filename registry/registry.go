// Package registry holds the model kinds of gendisc, in the manner of
// database/sql's drivers and image's formats: each model family declares
// each of its kinds once, in its own register.go, and everything else
// derives from that declaration (Kind): the model files the kind reads
// (Decode, Load, Read), the kinds and flags of gendisc fit and its help,
// fit --stream and gendisc-beam (the one-pass kinds, whose Config is a
// OnePassConfig), compare's classifiers (Target), how the command line
// reads the training data (Input), and, from the type of the kind's
// models (Kind.Type), what they can do: the capabilities of the root
// package (gendisc.Classifier, gendisc.Regressor, gendisc.Density,
// gendisc.Sampler, gendisc.Mergeable, ...).
//
// A kind is known once the package of its family is imported. Package
// models imports every family of gendisc, so that
//
//	m, err := models.Load("iris.json")
//
// loads any model file that gendisc writes.
//
// # What a new kind implements
//
// A new kind is one package and one registration (docs/kinds.md has the
// list, with an example):
//
//   - a model type M that implements gendisc.Model (Kind, Schema) and
//     modelfile.Persistent (MarshalJSON, the parameters of its model file),
//     and the capabilities it has: gendisc.Classifier (LogProba) for
//     Target Classes, gendisc.Regressor for Number, gendisc.Density
//     (score), gendisc.Sampler, gendisc.Mergeable (merge, update), ...;
//   - a decoder func(*data.Schema, []byte) (M, error) that rebuilds M from
//     a model file's schema and parameters and refuses invalid ones with
//     an error, never a panic;
//   - a constant with the kind's name, the one place the string is
//     written;
//   - Flags: the kind's hyperparameter flags, defined with the values of
//     package modelflags, and the Config they give (FitConfig, or
//     OnePass when the kind has an accumulator, gendisc.Accumulator; for
//     a kind of Input Sequences, a SequenceConfig, whose FitSequences
//     takes sentences: SequenceFit, SequenceOnePass with an accumulator
//     of sentences, or SequenceWarmFit for a fit that can start from
//     another model (WarmSequenceConfig), and models that are
//     gendisc.Tagger);
//   - an init function that calls Register with the Kind and the decoder.
package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/seq"
)

// Kind is the one declaration of a model kind: everything the rest of
// gendisc (the command line, the server, compare, Beam) needs to know of
// it. A family declares each of its kinds once, in its register.go, and
// registers it with Register.
type Kind struct {
	// Name is the kind's name: the "kind" of its model files, the Kind
	// of its models and the value of gendisc fit --model. The family
	// exports it as a constant (naivebayes.KindGaussian, gda.KindLDA),
	// the one place the string is written.
	Name string
	// Short is the kind's description in one line, as gendisc fit
	// --help lists the kinds.
	Short string
	// Input is what the kind's models read: a table (the zero value),
	// documents of plain text, or sequences.
	Input Input
	// Target is what the kind makes of the target column: classes (the
	// zero value), a number (a regression), or nothing (a density of
	// the features, such as a Gaussian mixture).
	Target Target
	// Flags defines the kind's hyperparameter flags on fs and returns
	// the function that gives the configuration they hold once fs is
	// parsed, or the error of an invalid one. The returned function may
	// run on several goroutines at once. Nil for a kind that is read,
	// not fitted (the ARPA files of language models).
	Flags func(fs *flag.FlagSet) func() (Config, error)
	// Type is the dynamic type of the models of the kind, such as
	// *gda.LDA, which Register takes from the decoder: Type.Implements
	// tells which root interfaces (capabilities) they implement before
	// any model is read.
	Type reflect.Type

	decode func(s *data.Schema, params []byte) (gendisc.Model, error)
}

// Input is what the models of a kind read.
type Input int

const (
	// Table: rows of numeric, categorical and text columns (CSV, JSON
	// lines, Parquet, a bundled data set).
	Table Input = iota
	// Text: documents of plain text, one a line of a .txt file, or a
	// text column of a table.
	Text
	// Sequences: sequences of observations, such as the tokens of a
	// sentence with their tags (hidden Markov models, CRFs), read by
	// package seqio; the kind's Config is a SequenceConfig.
	Sequences
)

// Target is what a kind makes of the target column.
type Target int

const (
	// Classes: the target is a class; the models classify
	// (gendisc.Classifier). A kind whose fit also takes data without a
	// target (a language model of one text) is one too.
	Classes Target = iota
	// Number: the target is a number; the models are gendisc.Regressor.
	Number
	// None: the target is left out; the models are of the features
	// alone (a Gaussian mixture, gendisc.Density).
	None
)

// Config is the configuration of a kind's fit, as its flags set it.
type Config interface {
	// Fit fits a model of the kind to d.
	Fit(d *data.Dataset) (gendisc.Model, error)
}

// OnePassConfig is the Config of a one-pass kind, whose models keep their
// sufficient statistics: NewAccumulator returns an empty accumulator of
// the configuration, to which chunks of rows (gendisc fit --stream) or
// shards (Beam) are added and merged.
type OnePassConfig interface {
	Config
	NewAccumulator() (gendisc.Accumulator, error)
}

// SequenceConfig is the Config of a kind of Input Sequences, fitted on
// sentences rather than the rows of a table: FitSequences fits a model to
// the sentences of c, calling trace (when not nil) with one line on each
// step of an iterative fit (the log-likelihood of each iteration of
// Baum–Welch), which gendisc fit --verbose prints; how the fit ended (an
// iteration limit reached) is said by the model's Warnings
// (gendisc.Warner). Its Fit, of a table, returns ErrNotTable. A one-pass
// sequence kind's Config is a OnePassConfig too, whose accumulators are
// gendisc.SequenceAccumulator.
type SequenceConfig interface {
	Config
	FitSequences(c *seq.Corpus, trace func(line string)) (gendisc.Model, error)
}

// ErrNotTable is the error of the Fit of a SequenceConfig: a sequence
// kind is fitted on sentences, not on the rows of a table.
var ErrNotTable = errors.New("a sequence model is fitted on sentences, not on the rows of a table")

// SequenceFit returns the SequenceConfig whose FitSequences is fit.
func SequenceFit[M gendisc.Model](fit func(c *seq.Corpus, trace func(line string)) (M, error)) SequenceConfig {
	return sequenceConfig[M]{fit}
}

// SequenceOnePass returns the SequenceConfig whose FitSequences is fit and
// which is a OnePassConfig whose NewAccumulator is newAccumulator.
func SequenceOnePass[M gendisc.Model, A gendisc.SequenceAccumulator](fit func(c *seq.Corpus, trace func(line string)) (M, error), newAccumulator func() (A, error)) SequenceConfig {
	return sequenceOnePass[M, A]{sequenceConfig[M]{fit}, newAccumulator}
}

type sequenceConfig[M gendisc.Model] struct {
	fit func(c *seq.Corpus, trace func(line string)) (M, error)
}

func (c sequenceConfig[M]) Fit(*data.Dataset) (gendisc.Model, error) { return nil, ErrNotTable }

func (c sequenceConfig[M]) FitSequences(corpus *seq.Corpus, trace func(line string)) (gendisc.Model, error) {
	m, err := c.fit(corpus, trace)
	if err != nil {
		return nil, err
	}
	return m, nil
}

type sequenceOnePass[M gendisc.Model, A gendisc.SequenceAccumulator] struct {
	sequenceConfig[M]
	newAccumulator func() (A, error)
}

func (c sequenceOnePass[M, A]) NewAccumulator() (gendisc.Accumulator, error) {
	a, err := c.newAccumulator()
	if err != nil {
		return nil, err
	}
	return a, nil
}

// FitConfig returns the Config whose Fit is fit: the family's own
// configuration's Fit, whose model is of the family's type.
func FitConfig[M gendisc.Model](fit func(d *data.Dataset) (M, error)) Config {
	return fitConfig[M](fit)
}

type fitConfig[M gendisc.Model] func(d *data.Dataset) (M, error)

func (f fitConfig[M]) Fit(d *data.Dataset) (gendisc.Model, error) { return modelOf(f(d)) }

// OnePass returns the OnePassConfig whose Fit is fit and whose
// NewAccumulator is newAccumulator.
func OnePass[M gendisc.Model, A gendisc.Accumulator](fit func(d *data.Dataset) (M, error), newAccumulator func() (A, error)) OnePassConfig {
	return onePass[M, A]{fit: fit, newAccumulator: newAccumulator}
}

// OnePassSettings is OnePass for a Config that also keeps settings, the
// family's own configuration value (such as a naivebayes.GaussianConfig),
// for Settings to return: the fast paths that know a family's
// configuration (leave-one-out by downdating, package cv) read it.
func OnePassSettings[M gendisc.Model, A gendisc.Accumulator](settings any, fit func(d *data.Dataset) (M, error), newAccumulator func() (A, error)) OnePassConfig {
	return onePass[M, A]{fit: fit, newAccumulator: newAccumulator, settings: settings}
}

// SharedStatisticsConfig is the OnePassConfig of a kind some of whose
// settings only change how a model is made of the statistics (naive
// Bayes's α, variance smoothing and tying and class prior; LDA's and
// QDA's fixed shrinkage and prior; linear regression's ridge penalty),
// so that one accumulator serves every setting that differs only in
// them: a search of those settings (package cv) adds the rows once.
type SharedStatisticsConfig interface {
	OnePassConfig
	// SameStatistics reports whether the accumulators of other gather
	// the statistics that c's do, so that ModelFrom takes them.
	SameStatistics(other Config) bool
	// ModelFrom returns the model of c made of the statistics of a, an
	// accumulator of a Config with the same statistics (another is an
	// error); a is not changed.
	ModelFrom(a gendisc.Accumulator) (gendisc.Model, error)
}

// OnePassShared is OnePassSettings for a configuration S of which some
// settings are applied only when a model is made of the statistics: its
// Config is a SharedStatisticsConfig whose SameStatistics holds for
// another Config that keeps settings o of type S with sameStatistics(o),
// and whose ModelFrom is modelFrom for an accumulator of type A.
func OnePassShared[S any, M gendisc.Model, A gendisc.Accumulator](settings S, fit func(d *data.Dataset) (M, error), newAccumulator func() (A, error),
	sameStatistics func(other S) bool, modelFrom func(a A) (M, error)) SharedStatisticsConfig {
	return onePassShared[S, M, A]{onePass[M, A]{fit: fit, newAccumulator: newAccumulator, settings: settings}, sameStatistics, modelFrom}
}

type onePassShared[S any, M gendisc.Model, A gendisc.Accumulator] struct {
	onePass[M, A]
	same      func(other S) bool
	modelFrom func(a A) (M, error)
}

func (c onePassShared[S, M, A]) SameStatistics(other Config) bool {
	o, ok := Settings(other).(S)
	return ok && c.same(o)
}

func (c onePassShared[S, M, A]) ModelFrom(a gendisc.Accumulator) (gendisc.Model, error) {
	acc, ok := a.(A)
	if !ok {
		return nil, fmt.Errorf("statistics of a %T, not of this kind's %T", a, acc)
	}
	return modelOf(c.modelFrom(acc))
}

// Settings returns the family's configuration value that c keeps
// (OnePassSettings), or nil when it keeps none.
func Settings(c Config) any {
	if s, ok := c.(interface{ settingsValue() any }); ok {
		return s.settingsValue()
	}
	return nil
}

type onePass[M gendisc.Model, A gendisc.Accumulator] struct {
	fit            func(d *data.Dataset) (M, error)
	newAccumulator func() (A, error)
	settings       any
}

func (c onePass[M, A]) settingsValue() any { return c.settings }

func (c onePass[M, A]) Fit(d *data.Dataset) (gendisc.Model, error) { return modelOf(c.fit(d)) }

func (c onePass[M, A]) NewAccumulator() (gendisc.Accumulator, error) {
	a, err := c.newAccumulator()
	if err != nil {
		return nil, err // not a typed nil A in an interface
	}
	return a, nil
}

// modelOf returns m as a gendisc.Model, nil with an error (not a typed nil
// M in an interface).
func modelOf[M gendisc.Model](m M, err error) (gendisc.Model, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Decode rebuilds a fitted model of the kind from a model file's schema
// and parameters, with the checks of the kind's decoder.
func (k *Kind) Decode(s *data.Schema, params []byte) (gendisc.Model, error) {
	return k.decode(s, params)
}

// Mergeable reports whether the models of the kind keep their sufficient
// statistics: they implement gendisc.Mergeable, so that they can be
// updated with new rows and merged with models of other rows.
func (k *Kind) Mergeable() bool {
	return k.Type.Implements(reflect.TypeFor[gendisc.Mergeable]())
}

// Generative reports whether the models of the kind model the joint
// p(x, y): they implement gendisc.Generative, the generative side of
// compare's pairs.
func (k *Kind) Generative() bool {
	return k.Type.Implements(reflect.TypeFor[gendisc.Generative]())
}

// Fitted reports whether the kind can be fitted: it has Flags.
func (k *Kind) Fitted() bool { return k.Flags != nil }

// DefaultConfig returns the configuration of the kind's flags left at
// their defaults.
func (k *Kind) DefaultConfig() (Config, error) {
	if k.Flags == nil {
		return nil, fmt.Errorf("model kind %s is read, not fitted", k.Name)
	}
	fs := flag.NewFlagSet(k.Name, flag.ContinueOnError)
	return k.Flags(fs)()
}

// OnePass reports whether the kind is fitted in one pass: its Config
// (with the flags' defaults) is a OnePassConfig.
func (k *Kind) OnePass() bool {
	c, err := k.DefaultConfig()
	_, ok := c.(OnePassConfig)
	return err == nil && ok
}

var (
	mu    sync.RWMutex
	kinds = map[string]*Kind{}
)

// Register makes the kind k known, with decode, which rebuilds a fitted
// model of the kind from a model file's schema and parameters (and checks
// them), as its decoder. A panic in decode is recovered and returned as a
// *PanicError (see there). M, the type of the models decode returns,
// becomes the kind's Type. A family registers its kinds from an init
// function in its register.go:
//
//	func init() {
//		registry.Register(registry.Kind{Name: KindLDA, Short: "linear discriminant analysis: ...", Flags: ldaFlags}, UnmarshalLDA)
//	}
//
// Register panics when k has no name, decode is nil or a kind of the name
// is registered already: two packages claiming one kind is a programming
// mistake.
func Register[M gendisc.Model](k Kind, decode func(s *data.Schema, params []byte) (M, error)) {
	name := k.Name
	if name == "" || decode == nil {
		panic("registry: Register of a kind without a name or a decoder")
	}
	k.Type = reflect.TypeFor[M]()
	k.decode = func(s *data.Schema, params []byte) (model gendisc.Model, err error) {
		defer func() {
			if v := recover(); v != nil {
				model, err = nil, &PanicError{Kind: name, Value: v, Stack: debug.Stack()}
			}
		}()
		return modelOf(decode(s, params))
	}
	mu.Lock()
	defer mu.Unlock()
	if kinds[name] != nil {
		panic("registry: model kind " + name + " registered twice")
	}
	kinds[name] = &k
}

// Unregister forgets the kind named name, for a test that registers a
// kind of its own for a while: the kind stays out of the lists of the
// other tests (the help texts of a command, say).
func Unregister(name string) {
	mu.Lock()
	defer mu.Unlock()
	delete(kinds, name)
}

// PanicError is the error of a decoder that panicked, which Kind.Decode
// (and so Decode, Load and Read) returns instead of letting the panic take
// the program down: a net under the decoders' checks, so that no model
// file can stop a command or a server that loads it. A decoder is meant to
// refuse every invalid file with an error of its own, so a PanicError is a
// bug of its kind's decoder, to be reported with Stack. The fuzz tests of
// the families fail on it rather than take it for a refusal.
type PanicError struct {
	Kind  string // the kind whose decoder panicked
	Value any    // the value passed to panic
	Stack []byte // the stack of the panicking goroutine
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("the decoder of %s model files failed: %v (a bug in gendisc: please report it)", e.Kind, e.Value)
}

// Kinds returns the names of the registered kinds in sorted order.
func Kinds() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(kinds))
	for name := range kinds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the kind named name, or an *UnknownKindError.
func Lookup(name string) (*Kind, error) {
	mu.RLock()
	k := kinds[name]
	mu.RUnlock()
	if k == nil {
		return nil, &UnknownKindError{Kind: name, Known: Kinds()}
	}
	return k, nil
}

// UnknownKindError is the error for a kind that no imported package
// registered: a model file of a kind that this program does not know
// (written by a newer gendisc, or by a family the program does not import).
type UnknownKindError struct {
	Source string   // the model file, "" when not about a file
	Kind   string   // the unknown kind
	Known  []string // the registered kinds, sorted
}

func (e *UnknownKindError) Error() string {
	msg := fmt.Sprintf("unknown model kind %q (known kinds: %s)", e.Kind, strings.Join(e.Known, ", "))
	if len(e.Known) == 0 {
		msg = fmt.Sprintf("unknown model kind %q (no kind is registered: import the model families, or package models for all of them)", e.Kind)
	}
	if e.Source != "" {
		return e.Source + ": " + msg
	}
	return msg
}

// Decode rebuilds the model that the model file e holds, with the decoder
// of its kind. The errors name e.Source: an *UnknownKindError for a kind
// that is not registered, the decoder's error for parameters that do not
// read, and an error for a decoder that returns a model of another kind.
func Decode(e *modelfile.Envelope) (gendisc.Model, error) {
	k, err := Lookup(e.Kind)
	if err != nil {
		err.(*UnknownKindError).Source = e.Source
		return nil, err
	}
	m, err := k.Decode(e.Schema, e.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Source, err)
	}
	if m.Kind() != e.Kind {
		return nil, fmt.Errorf("%s: the parameters of the model file are those of a %s model, not of its kind %s", e.Source, m.Kind(), e.Kind)
	}
	return m, nil
}

// format is a file format other than gendisc's model files that a kind
// reads (see RegisterFormat).
type format struct {
	kind  string
	sniff func(head []byte) bool
}

var formats []format // guarded by mu

// decompress removes a compression from a file of a registered format
// (see SetDecompressor); nil reads such files only uncompressed.
var decompress func(b []byte, source string) ([]byte, string, error) // guarded by mu

// SetDecompressor makes ReadFile remove a compression from a file of a
// format that RegisterFormat made known: f returns b decompressed and the
// compression's name, or b itself and "" when b is not compressed. The
// registry reads no compression itself, so that the model families, which
// import it, do not depend on the decompressors; package models sets
// compress.Bytes (package dataio/compress: gzip, zstd, bzip2 and xz).
func SetDecompressor(f func(b []byte, source string) ([]byte, string, error)) {
	mu.Lock()
	defer mu.Unlock()
	decompress = f
}

// RegisterFormat makes the files that sniff recognises, from their first
// bytes (up to sniffLen, decompressed as SetDecompressor says), models of the kind named kind: a
// format that another tool writes, such as the ARPA files of language
// models. The kind's decoder (Register) then gets the whole file as its
// parameters and a nil schema. A family registers it from an init
// function, after the kind:
//
//	func init() {
//		registry.Register(registry.Kind{Name: KindARPA, Short: "..."}, decodeARPA)
//		registry.RegisterFormat(KindARPA, IsARPA)
//	}
//
// It panics when kind or sniff is missing.
func RegisterFormat(kind string, sniff func(head []byte) bool) {
	if kind == "" || sniff == nil {
		panic("registry: RegisterFormat without a kind or a recogniser")
	}
	mu.Lock()
	defer mu.Unlock()
	formats = append(formats, format{kind, sniff})
}

// sniffLen is how many of a file's first bytes RegisterFormat's
// recognisers see.
const sniffLen = 4096

// ReadFile reads a model from r, source naming it in errors: a gendisc
// model file (modelfile.Read, then Decode), or a file of a format that
// RegisterFormat made known, plain or compressed (as the decompressor
// that SetDecompressor set removes it: package models sets gzip, zstd,
// bzip2 and xz). It returns the model and the envelope
// that describes the file; for a file of another format the envelope has
// the kind, the model's schema, the SHA-256 of the file's bytes as its
// checksum (the version under which the server serves it) and no
// parameters.
func ReadFile(r io.Reader, source string) (*modelfile.Envelope, gendisc.Model, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	if kind, body, ok := foreignFormat(raw, source); ok {
		k, err := Lookup(kind)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", source, err)
		}
		m, err := k.Decode(nil, body)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", source, err)
		}
		sum := sha256.Sum256(raw)
		e := &modelfile.Envelope{Format: kind, Kind: kind, Schema: m.Schema(), Checksum: "sha256:" + hex.EncodeToString(sum[:]), Source: source}
		return e, m, nil
	}
	e, err := modelfile.Read(bytes.NewReader(raw), source)
	if err != nil {
		return nil, nil, err
	}
	m, err := Decode(e)
	if err != nil {
		return nil, nil, err
	}
	return e, m, nil
}

// foreignFormat returns the kind of the registered format whose
// recogniser takes the file raw (decompressed when it is compressed), and
// the file's decompressed bytes; ok is false for a gendisc model file or
// anything else, which modelfile.Read then reads or refuses.
func foreignFormat(raw []byte, source string) (kind string, body []byte, ok bool) {
	mu.RLock()
	fs, unpack := slices.Clone(formats), decompress
	mu.RUnlock()
	if len(fs) == 0 {
		return "", nil, false
	}
	body = raw
	if unpack != nil {
		var err error
		if body, _, err = unpack(raw, source); err != nil {
			return "", nil, false
		}
	}
	head := body[:min(len(body), sniffLen)]
	for _, f := range fs {
		if f.sniff(head) {
			return f.kind, body, true
		}
	}
	return "", nil, false
}

// LoadFile reads the model file at path ("-" for standard input) with
// ReadFile.
func LoadFile(path string) (*modelfile.Envelope, gendisc.Model, error) {
	if path == "-" {
		return ReadFile(os.Stdin, "<stdin>")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadFile(f, path)
}

// Load reads the model file at path ("-" for standard input), of any
// format LoadFile reads, and returns its model.
func Load(path string) (gendisc.Model, error) {
	_, m, err := LoadFile(path)
	return m, err
}

// Read reads a model file from r, name naming it in errors, with
// ReadFile, and returns its model.
func Read(r io.Reader, name string) (gendisc.Model, error) {
	_, m, err := ReadFile(r, name)
	return m, err
}
