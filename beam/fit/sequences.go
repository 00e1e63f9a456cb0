package fit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/seqio"
)

// Models of sentences (the kinds of SequenceKinds, such as hmm) are fitted
// by one pipeline: each file that the glob matches is a shard, whose
// sentences a worker reads one at a time (seqio.Feed: CoNLL-U, columns or
// JSON lines, compressed or not) and adds to an accumulator of the kind
// (gendisc.SequenceAccumulator) in batches; the accumulators travel as
// their MarshalBinary encoding and are merged (SentencesFn), and the last
// one finishes the model. A shard is a whole file: a worker reads a file
// in memory that does not grow with it (a batch of sentences and the
// counts), so a large corpus is best stored as several files for the
// workers to share. The model is the one fitted on the concatenation of
// the files: the counts are whole numbers, whose sums do not depend on
// the order of the merges, so the model file is gendisc fit's, byte for
// byte.

// FitSequences fits the model of acc, an empty accumulator of a kind of
// SequenceKinds (of the configuration to fit:
// registry.OnePassConfig.NewAccumulator), on the sentences of the files
// that glob matches, read with opt, and writes the model file to out, on
// any Beam filesystem. It runs the pipeline with run and returns the
// model.
func FitSequences(ctx context.Context, run Runner, glob string, acc gendisc.Accumulator, out string, opt seqio.Options) (gendisc.Model, error) {
	if _, ok := acc.(gendisc.SequenceAccumulator); !ok {
		return nil, fmt.Errorf("fit: a %T does not take sentences (kinds: %v)", acc, SequenceKinds())
	}
	kind, err := decoderKind(acc)
	if err != nil {
		return nil, err
	}
	empty, err := acc.MarshalBinary()
	if err != nil {
		return nil, err
	}
	oj, err := json.Marshal(opt)
	if err != nil {
		return nil, err
	}
	return combineFiles(ctx, run, glob, &SentencesFn{Kind: kind, Empty: empty, Options: oj}, out)
}

// SentencesFn is the CombineFn of FitSequences: its accumulator is the
// MarshalBinary encoding of an accumulator of the Kind, a
// gendisc.SequenceAccumulator (Empty encodes the empty one, with the
// configuration), its input a file, whose sentences are read one at a
// time with seqio.Feed and the Options (the JSON of a seqio.Options), its
// output the model file of the finished model.
type SentencesFn struct {
	Kind    string
	Empty   []byte
	Options []byte

	options decoded[seqio.Options]
}

func (fn *SentencesFn) CreateAccumulator() []byte { return fn.Empty }

func (fn *SentencesFn) AddInput(acc []byte, f fileio.ReadableFile) ([]byte, error) {
	opt, err := fn.options.of(fn.Options)
	if err != nil {
		return nil, err
	}
	return addEncoded(fn.Kind, acc, func(a gendisc.Accumulator) error {
		sa, ok := a.(gendisc.SequenceAccumulator)
		if !ok {
			return fmt.Errorf("fit: kind %s does not take sentences", fn.Kind)
		}
		path := f.Metadata.Path
		return withFile(path, func(r io.Reader) error {
			_, _, err := seqio.Feed(r, path, *opt, 0, sa.AddSentences)
			return err
		})
	})
}

func (fn *SentencesFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	return mergeEncoded(fn.Kind, a, b)
}

func (fn *SentencesFn) ExtractOutput(acc []byte) ([]byte, error) {
	return modelFileOf(fn.Kind, acc)
}

// CheckSentences finds, before any pipeline is built, the mistakes that
// would otherwise stop one on its workers: a glob that matches no file
// (on any Beam filesystem), and options that the first matched file
// refuses (a CoNLL-U tag field that does not exist, a tag column out of
// range), read up to its first sentence. It returns the paths matched.
func CheckSentences(ctx context.Context, glob string, opt seqio.Options) ([]string, error) {
	paths, err := CheckInput(ctx, glob, nil)
	if err != nil {
		return nil, err
	}
	err = withFile(paths[0], func(r io.Reader) error {
		for _, err := range seqio.Sentences(r, paths[0], opt) {
			return err
		}
		return nil
	})
	return paths, err
}
