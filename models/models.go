// Package models loads model files of every kind that gendisc fits.
// Importing it imports every model family (naivebayes, gda, logistic,
// linear, mixture, ngram, crf), which register their kinds with package registry, so
// that one call reads any model file:
//
//	m, err := models.Load("iris.json")
//	if err != nil { ... }
//	c, ok := m.(gendisc.Classifier) // as the kind's models are
//
// The model is a value of its family's type (*gda.LDA, *naivebayes.Model,
// ...), which implements gendisc.Model and the other root interfaces its
// kind does. A program that needs only some families imports them and
// calls package registry instead.
//
// Importing models also makes the registry read model files of foreign
// formats (ARPA) compressed with gzip, zstd, bzip2 or xz, as data files
// are read (registry.SetDecompressor with compress.Bytes): the registry
// and the families do not import the decompressors themselves.
package models

import (
	"io"

	"github.com/gendisc/gendisc"
	_ "github.com/gendisc/gendisc/crf"
	"github.com/gendisc/gendisc/dataio/compress"
	_ "github.com/gendisc/gendisc/gda"
	_ "github.com/gendisc/gendisc/linear"
	_ "github.com/gendisc/gendisc/logistic"
	_ "github.com/gendisc/gendisc/mixture"
	"github.com/gendisc/gendisc/modelfile"
	_ "github.com/gendisc/gendisc/naivebayes"
	_ "github.com/gendisc/gendisc/ngram"
	"github.com/gendisc/gendisc/registry"
)

func init() { registry.SetDecompressor(compress.Bytes) }

// Load reads the model file at path ("-" for standard input) and returns
// its model (registry.Load).
func Load(path string) (gendisc.Model, error) { return registry.Load(path) }

// Read reads a model file from r, name naming it in errors, and returns its
// model (registry.Read).
func Read(r io.Reader, name string) (gendisc.Model, error) { return registry.Read(r, name) }

// LoadFile reads the model file at path ("-" for standard input): a
// gendisc model file, or a file of another format a family reads (an ARPA
// language model, plain or compressed), and returns the envelope that
// describes it and its model (registry.LoadFile).
func LoadFile(path string) (*modelfile.Envelope, gendisc.Model, error) {
	return registry.LoadFile(path)
}

// ReadFile reads a model file from r as LoadFile does, name naming it in
// errors (registry.ReadFile).
func ReadFile(r io.Reader, name string) (*modelfile.Envelope, gendisc.Model, error) {
	return registry.ReadFile(r, name)
}

// Decode returns the model of the model file e, read by modelfile.Load or
// modelfile.Read (registry.Decode).
func Decode(e *modelfile.Envelope) (gendisc.Model, error) { return registry.Decode(e) }

// Kinds returns the names of the kinds of model files that Load reads:
// every kind of every family, sorted.
func Kinds() []string { return registry.Kinds() }
