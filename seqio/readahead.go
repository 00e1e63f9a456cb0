package seqio

import (
	"io"
	"unicode/utf8"
)

// readAhead reads its source in a goroutine of its own, blocks of
// readAheadBlock bytes, up to readAheadBlocks ahead of its reader: the
// decompression of a file runs on another core while its lines are
// parsed, and so does the check of its UTF-8. Close stops the goroutine.
type readAhead struct {
	blocks chan aheadBlock
	free   chan []byte
	done   chan struct{}
	cur    aheadBlock
	buf    []byte // cur's buffer, to give back
	// invalid is set once Read has taken a block that is not valid
	// UTF-8: until then every byte read is part of valid UTF-8, and so
	// is every line of them.
	invalid bool
}

// aheadBlock is a block read, with the error that ended the read, and
// whether the bytes read so far, up to the block's end, are valid UTF-8
// (a letter cut by the end of the block is checked with the next one).
type aheadBlock struct {
	data  []byte
	err   error
	valid bool
}

const (
	readAheadBlock  = 256 << 10
	readAheadBlocks = 4
)

// newReadAhead starts reading src.
func newReadAhead(src io.Reader) *readAhead {
	r := &readAhead{blocks: make(chan aheadBlock, readAheadBlocks), free: make(chan []byte, readAheadBlocks+1), done: make(chan struct{})}
	go r.fill(src)
	return r
}

// fill reads src into free buffers until an error, or Close. It makes
// the buffers as it needs them, the first small (a small file costs
// little), each twice the previous up to readAheadBlock, at most
// readAheadBlocks+1 of them.
func (r *readAhead) fill(src io.Reader) {
	made, size := 0, 16<<10
	valid, cut := true, cutLetter{}
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		default:
			if made <= readAheadBlocks {
				buf = make([]byte, size)
				made, size = made+1, min(2*size, readAheadBlock)
				break
			}
			select {
			case buf = <-r.free:
			case <-r.done:
				return
			}
		}
		n, err := 0, error(nil)
		for n < len(buf) && err == nil {
			var k int
			k, err = src.Read(buf[n:])
			n += k
		}
		valid = valid && cut.check(buf[:n], err != nil)
		select {
		case r.blocks <- aheadBlock{buf[:n], err, valid}:
		case <-r.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read reads from the blocks in order, then returns the source's error.
func (r *readAhead) Read(p []byte) (int, error) {
	for len(r.cur.data) == 0 {
		if r.cur.err != nil {
			return 0, r.cur.err
		}
		if r.buf != nil {
			r.free <- r.buf
		}
		r.cur = <-r.blocks
		r.buf = r.cur.data[:cap(r.cur.data)]
		r.invalid = r.invalid || !r.cur.valid
	}
	n := copy(p, r.cur.data)
	r.cur.data = r.cur.data[n:]
	return n, nil
}

// cutLetter is the start of a letter that the end of a block cut, kept
// to be checked with the next block.
type cutLetter struct {
	b [utf8.UTFMax]byte
	n int
}

// check reports whether the block d, after the cut letter, is valid
// UTF-8 but for a letter that its end cuts, which it keeps; at the end
// of the data (last) a cut letter is invalid.
func (c *cutLetter) check(d []byte, last bool) bool {
	if c.n > 0 { // complete the letter with the first bytes of d
		k := copy(c.b[c.n:], d)
		full := utf8.FullRune(c.b[:c.n+k])
		if !full && !last && k == len(d) { // d is too short to complete it
			c.n += k
			return true
		}
		size := 1
		if full {
			_, size = utf8.DecodeRune(c.b[:c.n+k])
		}
		if !full || size <= c.n || !utf8.Valid(c.b[:size]) {
			return false
		}
		d, c.n = d[size-c.n:], 0
	}
	end := len(d)
	for i := len(d) - 1; i >= 0 && i >= len(d)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(d[i]) {
			if !utf8.FullRune(d[i:]) {
				end = i
			}
			break
		}
	}
	if end < len(d) {
		if last {
			return false
		}
		c.n = copy(c.b[:], d[end:])
	}
	return utf8.Valid(d[:end])
}

// Close stops the reading goroutine; Read must not be called after.
func (r *readAhead) Close() { close(r.done) }
