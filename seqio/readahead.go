package seqio

import "io"

// readAhead reads its source in a goroutine of its own, blocks of
// readAheadBlock bytes, up to readAheadBlocks ahead of its reader: the
// decompression of a file runs on another core while its lines are
// parsed. Close stops the goroutine.
type readAhead struct {
	blocks chan aheadBlock
	free   chan []byte
	done   chan struct{}
	cur    aheadBlock
	buf    []byte // cur's buffer, to give back
}

// aheadBlock is a block read, with the error that ended the read.
type aheadBlock struct {
	data []byte
	err  error
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
		select {
		case r.blocks <- aheadBlock{buf[:n], err}:
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
	}
	n := copy(p, r.cur.data)
	r.cur.data = r.cur.data[n:]
	return n, nil
}

// Close stops the reading goroutine; Read must not be called after.
func (r *readAhead) Close() { close(r.done) }
