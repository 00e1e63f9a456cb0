// Package fit fits gendisc's one-pass models with Apache Beam pipelines,
// on files spread over many machines: the shards of a data set, each a
// delimited text file with its header, a Parquet file or JSON lines,
// compressed or not (gzip, zstd, bzip2 or xz, told by the first bytes as
// dataio.Open tells them, whatever the name), matched by a glob on any
// filesystem of Beam's registry (local paths here; gs:// and s3:// come
// with the SDK's filesystems).
//
// A fit is two pipelines. The first infers each shard's schema and
// unions them (data.Schema.Union); when a column is numeric in one shard
// and categorical in another, it reads the numeric shards again with the
// column categorical, for their levels. The second reads each shard with
// that schema and adds its rows to an accumulator of the model
// (gendisc.Accumulator) in a Beam CombineFn: accumulators travel between
// workers as their MarshalBinary encoding, are merged, and the last one
// finishes the model, written as an ordinary model file (modelfile).
// The model is the one fitted on the concatenation of the shards.
//
// The one-pass kinds of sentences (SequenceKinds, such as hmm) are
// fitted by one pipeline, FitSequences: each shard is a file of
// sentences (seqio's formats), which a worker adds to an accumulator a
// batch at a time, merged as above (sequences.go).
package fit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/modelfile"
	"github.com/gendisc/gendisc/registry"

	// Beam's filesystems: local paths, gs:// and s3://.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

func init() {
	register.Combiner3[[]byte, fileio.ReadableFile, []byte](&SchemaFn{})
	register.Combiner3[[]byte, fileio.ReadableFile, []byte](&AccumulateFn{})
	register.Combiner3[[]byte, fileio.ReadableFile, []byte](&SentencesFn{})
	register.DoFn2x1[context.Context, []byte, error](&WriteFn{})
}

// Runner runs a pipeline and waits for it to end, as beamx.Run does.
type Runner func(context.Context, *beam.Pipeline) error

// Options says how to read the shards.
type Options struct {
	// Read says how the first pass reads each shard to infer its schema
	// (dataio.Read): the target, the forced column types, the weights.
	// NumericTarget is set for a regression.
	Read dataio.Options
	// Schema, when set, is the schema of the shards and no first pass
	// runs: the shards are read with it, extended with the classes and
	// levels it lacks (dataio.SchemaOptions.Extend).
	Schema *data.Schema
	// Temp is a path, on a filesystem that the workers and this process
	// share, where the first pass writes the schema; it is removed once
	// read (on filesystems that can remove).
	Temp string
}

// Fit fits the model of acc, an empty accumulator of a kind of Kinds (of
// the configuration to fit: registry.OnePassConfig.NewAccumulator), on
// the files that glob matches and writes the model file to out, on any
// Beam filesystem. It runs the schema pass (unless opt.Schema is set),
// then the fit, each a pipeline run by run, and returns the model.
func Fit(ctx context.Context, run Runner, glob string, acc gendisc.Accumulator, out string, opt Options) (gendisc.Model, error) {
	kind, err := decoderKind(acc)
	if err != nil {
		return nil, err
	}
	empty, err := acc.MarshalBinary()
	if err != nil {
		return nil, err
	}
	sj, extend, err := schemaFor(ctx, run, glob, opt)
	if err != nil {
		return nil, err
	}
	return combineFiles(ctx, run, glob, &AccumulateFn{Kind: kind, Empty: empty, Schema: sj, Weight: opt.Read.Weight, Comma: opt.Read.Comma, Extend: extend}, out)
}

// combineFiles runs the pipeline that combines the files that glob
// matches with fn, a CombineFn whose input is a file and whose output is
// a model file, writes that to out and returns its model.
func combineFiles(ctx context.Context, run Runner, glob string, fn any, out string) (gendisc.Model, error) {
	p, s := beam.NewPipelineWithRoot()
	model := beam.Combine(s, fn, readMatches(s, glob))
	beam.ParDo0(s, &WriteFn{Path: out}, model)
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	b, err := readFile(ctx, out)
	if err != nil {
		return nil, err
	}
	return registry.Read(bytes.NewReader(b), out)
}

// schemaFor returns the JSON of the schema the shards are read with:
// opt.Schema, to be extended with the classes and levels it lacks (extend
// set), or the one InferSchema infers.
func schemaFor(ctx context.Context, run Runner, glob string, opt Options) (sj []byte, extend bool, err error) {
	schema := opt.Schema
	if schema == nil {
		if schema, err = InferSchema(ctx, run, glob, opt.Read, opt.Temp); err != nil {
			return nil, false, err
		}
	}
	sj, err = json.Marshal(schema)
	return sj, opt.Schema != nil, err
}

// readMatches returns the files that glob matches, to be read whole; a
// glob that matches nothing fails the pipeline.
func readMatches(s beam.Scope, glob string) beam.PCollection {
	return fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow()), fileio.ReadDirectorySkip())
}

// InferSchema returns the schema of the rows of the files that glob
// matches, read with opt: the union of each file's (data.Schema.Union),
// with the levels of a column numeric in some files and categorical in
// others read again from the numeric ones. The pipelines, run by run,
// write the schema to temp.
func InferSchema(ctx context.Context, run Runner, glob string, opt dataio.Options, temp string) (*data.Schema, error) {
	u, err := inferPass(ctx, run, glob, opt, temp)
	if err != nil {
		return nil, err
	}
	if len(u.Promoted) == 0 {
		return u.Schema, nil
	}
	// Read again with every column categorical in the union forced so.
	opt.Categorical = slices.Clone(opt.Categorical)
	for _, c := range u.Schema.Features {
		if c.Kind == data.Categorical && !slices.Contains(opt.Categorical, c.Name) {
			opt.Categorical = append(opt.Categorical, c.Name)
		}
	}
	if u, err = inferPass(ctx, run, glob, opt, temp); err != nil {
		return nil, err
	}
	return u.Schema, nil
}

// inferPass runs one pipeline of InferSchema.
func inferPass(ctx context.Context, run Runner, glob string, opt dataio.Options, temp string) (*union, error) {
	oj, err := json.Marshal(opt)
	if err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	u := beam.Combine(s, &SchemaFn{Options: oj}, readMatches(s, glob))
	beam.ParDo0(s, &WriteFn{Path: temp}, u)
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	b, err := readFile(ctx, temp)
	if err != nil {
		return nil, err
	}
	removeFile(ctx, temp)
	var out union
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("fit: schema in %s: %w", temp, err)
	}
	if out.Schema == nil {
		return nil, fmt.Errorf("fit: no file matches %s", glob)
	}
	return &out, nil
}

// union is the accumulator of SchemaFn: the union of the schemas of the
// files read so far, and the names of the columns that were numeric in a
// file and are categorical in the union.
type union struct {
	Schema   *data.Schema `json:"schema"`
	Promoted []string     `json:"promoted,omitempty"`
	numeric  []bool       // per feature: numeric in some file
}

// unionJSON is union's encoding.
type unionJSON struct {
	Schema  *data.Schema `json:"schema"`
	Numeric []bool       `json:"numeric,omitempty"`
}

func decodeUnion(b []byte) (*union, error) {
	var j unionJSON
	if len(b) == 0 {
		return &union{}, nil
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("fit: schema accumulator: %w", err)
	}
	return &union{Schema: j.Schema, numeric: j.Numeric}, nil
}

func (u *union) encode() ([]byte, error) {
	return json.Marshal(unionJSON{Schema: u.Schema, Numeric: u.numeric})
}

// add unions the schema s of a file, or of other files whose features were
// numeric where numeric says, into u.
func (u *union) add(s *data.Schema, numeric []bool) error {
	if u.Schema == nil {
		u.Schema, u.numeric = s, numeric
		return nil
	}
	m, err := u.Schema.Union(s)
	if err != nil {
		return err
	}
	for j := range u.numeric {
		u.numeric[j] = u.numeric[j] || numeric[j]
	}
	u.Schema = m
	return nil
}

// SchemaFn is the CombineFn of the schema pass: its accumulator is the
// JSON of a union, its input a file, read whole with dataio.Read and the
// Options (the JSON of a dataio.Options), its output the JSON of the union,
// with the promoted columns named.
type SchemaFn struct {
	Options []byte

	options decoded[dataio.Options]
}

func (fn *SchemaFn) CreateAccumulator() []byte { return nil }

func (fn *SchemaFn) AddInput(acc []byte, f fileio.ReadableFile) ([]byte, error) {
	opt, err := fn.options.of(fn.Options)
	if err != nil {
		return nil, err
	}
	u, err := decodeUnion(acc)
	if err != nil {
		return nil, err
	}
	d, err := readShard(f, func(r io.Reader) (*data.Dataset, error) { return dataio.Read(r, f.Metadata.Path, *opt) })
	if err != nil {
		return nil, err
	}
	numeric := make([]bool, len(d.Schema.Features))
	for j, c := range d.Schema.Features {
		numeric[j] = c.Kind == data.Numeric
	}
	if err := u.add(d.Schema, numeric); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Metadata.Path, err)
	}
	return u.encode()
}

func (fn *SchemaFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	u, err := decodeUnion(a)
	if err != nil {
		return nil, err
	}
	v, err := decodeUnion(b)
	if err != nil {
		return nil, err
	}
	if v.Schema != nil {
		if err := u.add(v.Schema, v.numeric); err != nil {
			return nil, err
		}
	}
	return u.encode()
}

func (fn *SchemaFn) ExtractOutput(acc []byte) ([]byte, error) {
	u, err := decodeUnion(acc)
	if err != nil {
		return nil, err
	}
	if u.Schema != nil {
		for j, c := range u.Schema.Features {
			if u.numeric[j] && c.Kind == data.Categorical {
				u.Promoted = append(u.Promoted, c.Name)
			}
		}
	}
	return json.Marshal(u)
}

// AccumulateFn is the CombineFn of the fit: its accumulator is the
// MarshalBinary encoding of an accumulator of the Kind (Empty encodes the
// empty one, with the configuration), its input a file, read whole with
// dataio.ReadWithSchema and the Schema (JSON), the Weight column and the
// Comma (Extend admits classes and levels that the schema lacks), its
// output the model file of the finished model.
type AccumulateFn struct {
	Kind   string
	Empty  []byte
	Schema []byte
	Weight string
	Comma  rune
	Extend bool

	schema decoded[data.Schema]
}

func (fn *AccumulateFn) CreateAccumulator() []byte { return fn.Empty }

func (fn *AccumulateFn) AddInput(acc []byte, f fileio.ReadableFile) ([]byte, error) {
	s, err := fn.schema.of(fn.Schema)
	if err != nil {
		return nil, err
	}
	return addEncoded(fn.Kind, acc, func(a gendisc.Accumulator) error {
		d, err := readWithSchema(f, s, dataio.SchemaOptions{Weight: fn.Weight, Comma: fn.Comma, Extend: fn.Extend, RequireTarget: true})
		if err != nil {
			return err
		}
		return a.Add(d)
	})
}

// addEncoded returns the encoding of the accumulator of the kind that acc
// encodes, after add has added to it.
func addEncoded(kind string, acc []byte, add func(gendisc.Accumulator) error) ([]byte, error) {
	a, err := decode(kind, acc)
	if err != nil {
		return nil, err
	}
	if err := add(a); err != nil {
		return nil, err
	}
	return a.MarshalBinary()
}

func (fn *AccumulateFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	return mergeEncoded(fn.Kind, a, b)
}

func (fn *AccumulateFn) ExtractOutput(acc []byte) ([]byte, error) {
	return modelFileOf(fn.Kind, acc)
}

// mergeEncoded returns the encoding of the accumulators of the kind that
// a and b encode, merged.
func mergeEncoded(kind string, a, b []byte) ([]byte, error) {
	x, err := decode(kind, a)
	if err != nil {
		return nil, err
	}
	y, err := decode(kind, b)
	if err != nil {
		return nil, err
	}
	if err := x.Merge(y); err != nil {
		return nil, err
	}
	return x.MarshalBinary()
}

// modelFileOf returns the model file of the model that the accumulator
// of the kind that acc encodes finishes.
func modelFileOf(kind string, acc []byte) ([]byte, error) {
	a, err := decode(kind, acc)
	if err != nil {
		return nil, err
	}
	m, err := a.Model()
	if err != nil {
		return nil, err
	}
	p, ok := m.(modelfile.Persistent)
	if !ok {
		return nil, fmt.Errorf("fit: a model of kind %s has no model file", m.Kind())
	}
	var b bytes.Buffer
	if err := modelfile.Write(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// decoded is a value that a Beam fn holds as JSON in an exported field
// (the fn's configuration, which Beam encodes and sends to the workers)
// and uses decoded: decoded once per instance of the fn, at its first
// use, rather than once per element. A worker decodes an instance of a
// fn for a bundle (or keeps one across bundles), and calls it for each
// of the bundle's elements, here files; the instance's exported fields
// do not change in between. (A Setup method would do the same for
// CombineFns on portable runners; the first use also covers the calls
// that tests and lifted combines make without one.)
type decoded[T any] struct {
	once sync.Once
	v    *T
	err  error
}

// of returns the value that b, the JSON of the field, encodes, decoded at
// the first call.
func (d *decoded[T]) of(b []byte) (*T, error) {
	d.once.Do(func() {
		v := new(T)
		if d.err = json.Unmarshal(b, v); d.err == nil {
			d.v = v
		}
	})
	return d.v, d.err
}

// readShard opens the file f as it is stored and reads it with read, whose
// reader (data's) tells its compression and format by its first bytes
// (dataio.Open): gzip, zstd, bzip2 or xz, whatever the file's name; CSV,
// TSV, Parquet or JSON lines. A Parquet file is read in place when the
// filesystem's reader can seek (local files), into memory otherwise.
// (Beam's registered CombineFns take no context.)
func readShard(f fileio.ReadableFile, read func(io.Reader) (*data.Dataset, error)) (*data.Dataset, error) {
	return readPath(f.Metadata.Path, read)
}

// readPath is readShard of the file at path.
func readPath(path string, read func(io.Reader) (*data.Dataset, error)) (*data.Dataset, error) {
	var d *data.Dataset
	err := withFile(path, func(r io.Reader) error {
		var err error
		d, err = read(r)
		return err
	})
	return d, err
}

// withFile opens the file at path on a Beam filesystem, as it is stored,
// and calls use with it.
func withFile(path string, use func(io.Reader) error) error {
	ctx := context.Background()
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	return use(r)
}

// WriteFn writes its input to the file at Path, on any Beam filesystem.
type WriteFn struct {
	Path string
}

func (fn *WriteFn) ProcessElement(ctx context.Context, b []byte) error {
	return writeFile(ctx, fn.Path, b)
}

// writeFile writes b to the file at path on a Beam filesystem.
func writeFile(ctx context.Context, path string, b []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// readFile reads the file at path on a Beam filesystem.
func readFile(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// removeFile removes the file at path when its filesystem can.
func removeFile(ctx context.Context, path string) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return
	}
	defer fs.Close()
	if rm, ok := fs.(filesystem.Remover); ok {
		rm.Remove(ctx, path)
	}
}
