package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gendisc/gendisc"
	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/registry"
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

// streamableKinds returns the names of the kinds that fit --stream takes,
// the one-pass kinds, in sorted order.
func streamableKinds() []string { return kindsWith((*registry.Kind).OnePass) }

// streamable reports whether fit --stream can read the data: the kind can
// stream, and the data is not plain text, which a kind with its own
// reader reads whole.
func (o *fitOptions) streamable() bool {
	return o.kind.OnePass() && (o.kind.Input != registry.Text || !plainText(o.data))
}

// fitChunks fits the model to the training data read in chunks with
// dataio.ReadChunks (fit --stream): it adds them one at a time
// (gendisc.AddChunks) to an empty accumulator of the kind, and shows the
// progress on a terminal.
func (o *fitOptions) fitChunks(env *Env) (gendisc.Model, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(streamGCPercent))
	if !o.streamable() {
		// The kind reads plain text its own way, whole (readTraining).
		return nil, fmt.Errorf("%s: plain text is read whole: fit it without --stream, and update a model with text in a table", o.data)
	}
	acc, err := o.newAcc()
	if err != nil {
		return nil, err
	}
	r, source, err := env.openData(o.data)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in, size := counted(r)
	bar, start := env.progress(), time.Now()
	var rows, chunks, dropped int
	var last *data.Dataset // the latest chunk, for kindHint
	opt := o.readOptions()
	opt.Limits = env.limits
	seq := func(yield func(*data.Dataset, error) bool) {
		for d, err := range dataio.ReadChunks(in, source, opt, streamChunk) {
			if err == nil {
				env.readWarnings(d)
				var n int
				d, n = o.dropUnlabelled(d)
				dropped += n
				rows, chunks, last = rows+d.N, chunks+1, d
				bar("%s", streamStatus(source, in.n.Load(), size, time.Since(start), count(rows, "row", "rows")))
			}
			if !yield(d, err) {
				return
			}
		}
	}
	err = gendisc.AddChunks(acc, seq)
	bar("")
	if err != nil {
		if last != nil {
			err = kindHint(err, last)
		}
		return nil, o.targetHint(err, opt)
	}
	o.noteUnlabelled(env, last, dropped)
	m, err := acc.Model()
	if err != nil {
		return nil, err
	}
	if o.numericTarget {
		env.verbosef("%s: %d rows in %d chunks, %d features, numeric target", source, rows, chunks, len(last.Schema.Features))
	} else {
		env.verbosef("%s: %d rows in %d chunks, %d features, %d classes", source, rows, chunks, len(last.Schema.Features), len(last.Schema.Classes()))
	}
	return m, nil
}

// counted returns the countingReader of r, the input of fit --stream,
// and the size of r when it is a regular file (else −1), for the
// progress line.
func counted(r io.Reader) (*countingReader, int64) {
	size := int64(-1)
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
	}
	return &countingReader{r: r}, size
}

// streamStatus is fit --stream's progress line after read bytes of source
// in elapsed time, having added counted ("1234 rows"): the bytes read of
// the size (−1 when not known), the rate read/elapsed and, with the size,
// the time left at that rate, (size − read)/rate.
func streamStatus(source string, read, size int64, elapsed time.Duration, counted string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fit --stream: %s: ", source)
	if size > 0 {
		fmt.Fprintf(&b, "%d%% (%s of %s)", 100*read/size, byteSize(read), byteSize(size))
	} else {
		fmt.Fprintf(&b, "%s read", byteSize(read))
	}
	if s := elapsed.Seconds(); s > 0 && read > 0 {
		rate := float64(read) / s
		fmt.Fprintf(&b, ", %s/s", byteSize(int64(rate)))
		if size > 0 {
			left := time.Duration(float64(max(size-read, 0)) / rate * float64(time.Second))
			fmt.Fprintf(&b, ", %s left", left.Round(time.Second))
		}
	}
	b.WriteString(", " + counted)
	return b.String()
}

// byteSize writes n bytes in decimal units: 512 B, 1.5 kB, 42.0 MB, 1.2 GB.
func byteSize(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/1e3, "kB"
	for _, u := range []string{"MB", "GB", "TB"} {
		if v < 1000 {
			break
		}
		v, unit = v/1e3, u
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}

// A countingReader counts the bytes read from r, for the progress bar. It
// seeks when r can, so that dataio.ReadChunks may read the first chunk again
// (n is then the offset). n is atomic: a reader of sentences reads ahead
// on a goroutine of its own while the progress line reads n.
type countingReader struct {
	r io.Reader
	n atomic.Int64 // bytes read
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

func (c *countingReader) Seek(offset int64, whence int) (int64, error) {
	s, ok := c.r.(io.Seeker)
	if !ok {
		return 0, errors.ErrUnsupported
	}
	off, err := s.Seek(offset, whence)
	if err == nil {
		c.n.Store(off)
	}
	return off, err
}
