package fit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/models"
	"github.com/gendisc/gendisc/naivebayes"
	"github.com/gendisc/gendisc/ngram"
	"github.com/gendisc/gendisc/registry"
)

func init() {
	register.Function1x1(shardPath)
	register.DoFn2x0[[]string, func(string, string)](&NameFn{})
	register.Emitter2[string, string]()
	register.DoFn3x2[context.Context, string, string, string, error](&ApplyFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&CommitFn{})
	register.Iter1[string]()
}

// Output is what Apply writes for each row.
type Output int

const (
	// Predictions are the columns of gendisc predict
	// (models.Predictions.WriteCSV).
	Predictions Output = iota
	// Scores are the columns of gendisc score (models.WriteScores).
	Scores
)

// Apply applies the model in the model file at model (on any Beam
// filesystem that the workers reach) to the rows of the files that glob
// matches, in a pipeline run by run, and writes for the i-th file of n
// (in the order of their paths) the file
//
//	PREFIX-0000i-of-0000n.csv
//
// with the predictions or the scores of its rows, in their order, as
// gendisc predict and gendisc score write them, each file with its
// header: the files in order, the headers after the first left out, are
// byte for byte what gendisc predict (or score) writes for the
// concatenation of the files. Each file is read with the model's schema as
// predict reads one (dataio.ReadWithSchema, a class the model lacks read as
// missing): CSV, TSV, Parquet or JSON lines, compressed or not. The files
// are written under temporary names (the name and ".tmp") and renamed
// once every file is done, so that a failed pipeline leaves no output
// file; Apply removes the temporary files of a failed one. (Outputs of
// an earlier Apply to the same prefix with another number of files are
// left as they are.)
func Apply(ctx context.Context, run Runner, glob, model, prefix string, what Output) error {
	m, err := loadModel(ctx, model)
	if err != nil {
		return err
	}
	if err := canApply(m, what); err != nil {
		return fmt.Errorf("%s: %w", model, err)
	}
	p, s := beam.NewPipelineWithRoot()
	paths := beam.ParDo(s, shardPath, readMatches(s, glob))
	named := beam.ParDo(s, &NameFn{Prefix: prefix}, beam.Combine(s, &sortFn{}, paths))
	written := beam.ParDo(s, &ApplyFn{Model: model, Scores: what == Scores}, beam.Reshuffle(s, named))
	beam.ParDo0(s, &CommitFn{}, beam.GroupByKey(s, beam.AddFixedKey(s, written)))
	if err := run(ctx, p); err != nil {
		removeTemp(ctx, prefix)
		return err
	}
	return nil
}

// loadModel reads the model file at path, on a Beam filesystem.
func loadModel(ctx context.Context, path string) (gendisc.Model, error) {
	b, err := readFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return registry.Read(bytes.NewReader(b), path)
}

// canApply reports whether Apply can write what for the model m.
func canApply(m gendisc.Model, what Output) error {
	if _, ok := m.(*ngram.Model); ok && what == Scores {
		return errors.New("the scores of a language model (ngram) are not computed by the pipelines")
	}
	if what == Scores {
		if _, ok := models.Density(m); !ok {
			return fmt.Errorf("a model of kind %s is not generative: it has no density p(x) to score", m.Kind())
		}
		return nil
	}
	switch m.(type) {
	case gendisc.Classifier, interface {
		Predict([]float64, *data.Dataset) []float64
	}:
		return nil
	}
	return fmt.Errorf("a model of kind %s: %w", m.Kind(), models.ErrNoPredictions)
}

// shardPath is the path of a matched file.
func shardPath(f fileio.ReadableFile) string { return f.Metadata.Path }

// sortFn gathers the paths of the files, sorted.
type sortFn struct{}

func (fn *sortFn) CreateAccumulator() []string { return nil }

func (fn *sortFn) AddInput(acc []string, path string) []string { return append(acc, path) }

func (fn *sortFn) MergeAccumulators(a, b []string) []string { return append(a, b...) }

func (fn *sortFn) ExtractOutput(acc []string) []string {
	slices.Sort(acc)
	return acc
}

func init() {
	register.Combiner2[[]string, string](&sortFn{})
}

// NameFn pairs each of the sorted paths of the files with the name of its
// output, Prefix-0000i-of-0000n.csv.
type NameFn struct {
	Prefix string
}

func (fn *NameFn) ProcessElement(paths []string, emit func(string, string)) {
	for i, p := range paths {
		emit(p, outputName(fn.Prefix, i, len(paths)))
	}
}

// outputName is the name of the output of the i-th file of n.
func outputName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.csv", prefix, i, n)
}

// tempSuffix ends the name of an output until the pipeline succeeds.
const tempSuffix = ".tmp"

// ApplyFn reads the file at a path with the schema of the model in the
// model file at Model, and writes its predictions (its scores when
// Scores) to the temporary name of its output; it returns the output's
// name.
type ApplyFn struct {
	Model  string
	Scores bool

	m gendisc.Model
}

// Setup loads the model.
func (fn *ApplyFn) Setup(ctx context.Context) error {
	var err error
	fn.m, err = loadModel(ctx, fn.Model)
	return err
}

func (fn *ApplyFn) ProcessElement(ctx context.Context, path, out string) (string, error) {
	d, err := readPath(path, func(r io.Reader) (*data.Dataset, error) {
		return dataio.ReadWithSchema(r, path, fn.m.Schema(), dataio.SchemaOptions{UnseenClassMissing: true})
	})
	if err != nil {
		return "", err
	}
	write, err := fn.apply(d)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return out, writeWith(ctx, out+tempSuffix, write)
}

// apply returns the function that writes the output of the rows d, as
// gendisc predict or score does.
func (fn *ApplyFn) apply(d *data.Dataset) (func(io.Writer) error, error) {
	nb, isNB := fn.m.(*naivebayes.Model)
	if isNB {
		if err := nb.CheckCounts(d); err != nil {
			return nil, err
		}
	}
	if fn.Scores {
		density, _ := models.Density(fn.m)
		scores := density(d)
		return func(w io.Writer) error { return models.WriteScores(w, scores) }, nil
	}
	if isNB {
		if err := nb.Impossible(d); err != nil {
			return nil, err
		}
	}
	p, err := models.Predict(fn.m, d)
	if err != nil {
		return nil, err
	}
	return p.WriteCSV, nil
}

// CommitFn renames the outputs from their temporary names once every one
// is written.
type CommitFn struct{}

func (fn *CommitFn) ProcessElement(ctx context.Context, _ int, outs func(*string) bool) error {
	var out string
	for outs(&out) {
		if err := rename(ctx, out+tempSuffix, out); err != nil {
			return err
		}
	}
	return nil
}

// rename renames the file at from to to, on a Beam filesystem.
func rename(ctx context.Context, from, to string) error {
	fs, err := filesystem.New(ctx, from)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Rename(ctx, fs, from, to)
}

// writeWith writes the file at path, on any Beam filesystem, with write.
func writeWith(ctx context.Context, path string, write func(io.Writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if err := write(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// removeTemp removes the temporary outputs of a failed Apply with the
// prefix, where the filesystem can.
func removeTemp(ctx context.Context, prefix string) {
	fs, err := filesystem.New(ctx, prefix)
	if err != nil {
		return
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return
	}
	names, err := fs.List(ctx, prefix+"-?????-of-?????.csv"+tempSuffix)
	if err != nil {
		return
	}
	for _, n := range names {
		rm.Remove(ctx, n)
	}
}
