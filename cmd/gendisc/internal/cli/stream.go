package cli

import (
	"errors"
	"flag"
	"io"
	"iter"
	"os"
	"runtime/debug"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/modelfile"
)

// streamChunk is about the number of bytes of rows that fit --stream reads
// and parses at a time; tests make it small.
var streamChunk = 8 << 20

// streamGCPercent is the garbage collector's target while fit --stream
// runs: each chunk's rows, tokens and counts become garbage once they are
// added, so with the default 100 the heap grows to twice what is live;
// at 50 the resident memory of a 2 GB text file's fit stays well under
// 200 MB for a little more collection.
const streamGCPercent = 50

// streamFit defines the flags of the kind on fs and returns its fit to a
// sequence of chunks of rows (fit --stream), or nil for a kind that
// cannot be fitted so. In order of preference, it adds the chunks with
// gendisc.AddChunks to the empty accumulator of the kind's accumulator
// function; or it is the kind's own streaming fit (stream); or, for a kind
// whose models keep their sufficient statistics (gendisc.Mergeable), it
// adds the chunks after the first to the accumulator of the model fitted
// to the first (streamAccumulate), which refuses a first chunk that the
// fit refuses, such as one of a single class.
func (k *kind) streamFit(fs *flag.FlagSet) streamFunc {
	switch {
	case k.accumulator != nil:
		newAcc := k.accumulator(fs)
		return func(chunks iter.Seq2[*data.Dataset, error]) (modelfile.Persistent, error) {
			acc := newAcc()
			if err := gendisc.AddChunks(acc, chunks); err != nil {
				return nil, err
			}
			m, err := acc.Model()
			if err != nil {
				return nil, err
			}
			return persistent(m), nil
		}
	case k.stream != nil:
		return k.stream(fs)
	case mergeableKind(k.name):
		return streamAccumulate(k.flags(fs))
	}
	return nil
}

// canStream reports whether fit --stream takes the kind: whether
// streamFit returns a fit.
func (k *kind) canStream() bool {
	return k.accumulator != nil || k.stream != nil || mergeableKind(k.name)
}

// streamableKinds returns the names of the kinds that fit --stream takes,
// in sorted order.
func streamableKinds() []string { return kindsWith((*kind).canStream) }

// streamAccumulate returns the streaming fit that fits the first chunk
// with fit and adds the others (gendisc.AddChunks) to the accumulator of
// that model, which must implement gendisc.Mergeable.
func streamAccumulate(fit fitFunc) streamFunc {
	return func(chunks iter.Seq2[*data.Dataset, error]) (modelfile.Persistent, error) {
		next, stop := iter.Pull2(chunks)
		defer stop()
		first, err, ok := next()
		if !ok {
			return nil, data.ErrNoRows
		}
		if err != nil {
			return nil, err
		}
		m, err := fit(first)
		if err != nil {
			return nil, err
		}
		acc := m.(gendisc.Mergeable).Accumulator()
		rest := func(yield func(*data.Dataset, error) bool) {
			for {
				d, err, ok := next()
				if !ok || !yield(d, err) {
					return
				}
			}
		}
		if err := gendisc.AddChunks(acc, rest); err != nil {
			return nil, err
		}
		finished, err := acc.Model()
		if err != nil {
			return nil, err
		}
		return persistent(finished), nil
	}
}

// fitChunks fits the model with the kind's streaming fit to the training
// data read in chunks with data.ReadChunks (fit --stream), and shows the
// progress on a terminal.
func (o *fitOptions) fitChunks(env *Env) (modelfile.Persistent, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
	r, source, err := env.openData(o.data)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	size := int64(-1)
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	in := &countingReader{r: r}
	bar := env.progress()
	var rows, chunks int
	var schema *data.Schema
	seq := func(yield func(*data.Dataset, error) bool) {
		for d, err := range data.ReadChunks(in, source, o.read.options(), streamChunk) {
			if err == nil {
				env.readWarnings(d)
				rows, chunks, schema = rows+d.N, chunks+1, d.Schema
				if size > 0 {
					bar("fit --stream: %d%% of %s read, %d rows", 100*in.n/size, source, rows)
				} else {
					bar("fit --stream: %d MB of %s read, %d rows", in.n>>20, source, rows)
				}
			}
			if !yield(d, err) {
				return
			}
		}
	}
	m, err := o.fitStream(seq)
	bar("")
	if err == nil {
		env.verbosef("%s: %d rows in %d chunks, %d features, %d classes", source, rows, chunks, len(schema.Features), len(schema.Classes()))
	}
	return m, err
}

// A countingReader counts the bytes read from r, for the progress bar. It
// seeks when r can, so that data.ReadChunks may read the first chunk again
// (n is then the offset).
type countingReader struct {
	r io.Reader
	n int64 // bytes read
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

func (c *countingReader) Seek(offset int64, whence int) (int64, error) {
	s, ok := c.r.(io.Seeker)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	off, err := s.Seek(offset, whence)
	if err == nil {
		c.n = off
	}
	return off, err
}
