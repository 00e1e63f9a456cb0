package ngram

import (
	"math"
	"unsafe"

	"github.com/gendisc/gendisc/internal/hugepage"
)

// gramTable maps the n-grams of one order (n word ids each) to dense entry
// numbers and a count per entry: an open-addressing hash table with linear
// probing whose slots hold an entry's number and half its hash, the n-gram
// itself being keys[e*n : (e+1)*n], so that a slot takes 8 bytes and an
// n-gram 4n bytes for its ids and 8 for its count, whatever its words. The
// entries keep the order in which the n-grams were first added, which makes
// the encoding of a table deterministic. The keys and counts have room
// for the capacity the table was made with, and once full for as many
// entries as the slots take before they double, so that growing copies
// each entry once per doubling.
type gramTable struct {
	n      int
	keys   []int32    // the n-grams, n ids each, by entry
	counts []int64    // the count of each entry
	slots  []gramSlot // a power of two long, at most 3/4 full
}

type gramSlot struct {
	hash uint32 // the high half of the n-gram's hash, checked before the ids
	id   int32  // entry + 1; 0 marks an empty slot
}

// newGramTable returns an empty table of n-grams of n ids with room for
// capacity entries before it grows.
func newGramTable(n, capacity int) *gramTable {
	size := 16
	for size*3/4 < capacity {
		size *= 2
	}
	t := &gramTable{n: n, slots: hugepage.Make[gramSlot](size, size)}
	if capacity > 0 { // an empty table keeps nil keys and counts, which encode as null
		t.keys, t.counts = hugepage.Make[int32](0, capacity*n), hugepage.Make[int64](0, capacity)
	}
	return t
}

// reserve makes room in keys and counts for the entries the slots take
// before they double: 3/4 of them.
func (t *gramTable) reserve() {
	c := len(t.slots) * 3 / 4
	t.keys, t.counts = hugepage.Clone(t.keys, c*t.n), hugepage.Clone(t.counts, c)
}

// trim gives back the room reserved beyond the entries, when it is more
// than a quarter of them: copies of keys and counts of their length.
func (t *gramTable) trim() {
	if cap(t.counts) > len(t.counts)+len(t.counts)/4 {
		t.keys, t.counts = hugepage.Clone(t.keys, len(t.keys)), hugepage.Clone(t.counts, len(t.counts))
	}
}

// hashGram returns the hash of the ids g: a multiply-xorshift mix of each
// id in turn, fixed (no seed) so that a table is the same in every process.
func hashGram(g []int32) uint64 {
	h := uint64(0x9e3779b97f4a7c15) ^ uint64(len(g))
	for _, id := range g {
		h ^= uint64(uint32(id))
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	h *= 0x94d049bb133111eb
	return h ^ h>>29
}

// len returns the number of distinct n-grams.
func (t *gramTable) len() int { return len(t.counts) }

// gram returns the ids of entry e, a view into the table.
func (t *gramTable) gram(e int) []int32 { return t.keys[e*t.n : (e+1)*t.n : (e+1)*t.n] }

// find returns the entry of g (len n), or −1.
func (t *gramTable) find(g []int32) int {
	h := hashGram(g)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.hash == uint32(h>>32) && equalIDs(t.gram(int(s.id-1)), g) {
			return int(s.id - 1)
		}
	}
}

// count returns the count of g, 0 when absent.
func (t *gramTable) count(g []int32) int64 {
	if e := t.find(g); e >= 0 {
		return t.counts[e]
	}
	return 0
}

// add adds c to the count of g (len n), adding g as a new entry when it is
// absent, and returns its entry.
func (t *gramTable) add(g []int32, c int64) int { return t.addHashed(g, hashGram(g), c) }

// addHashed is add of g whose hash h = hashGram(g) the caller computed.
func (t *gramTable) addHashed(g []int32, h uint64, c int64) int {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; t.slots[i].id != 0; i = (i + 1) & mask {
		s := t.slots[i]
		if s.hash == uint32(h>>32) && equalIDs(t.gram(int(s.id-1)), g) {
			t.counts[s.id-1] += c
			return int(s.id - 1)
		}
	}
	e := len(t.counts)
	if (e+1)*4 > len(t.slots)*3 {
		t.resize()
		mask = uint64(len(t.slots) - 1)
		for i = h & mask; t.slots[i].id != 0; i = (i + 1) & mask {
		}
	}
	if e == cap(t.counts) {
		t.reserve()
	}
	//lint:ignore S1011 a few ids one by one, without the call of memmove that appending g makes
	for _, id := range g {
		t.keys = append(t.keys, id)
	}
	t.counts = append(t.counts, c)
	t.slots[i] = gramSlot{hash: uint32(h >> 32), id: int32(e + 1)}
	return e
}

// Distances, in n-grams, at which addAt prefetches the slot of an n-gram
// to come and then, the slot being in the cache, the ids and count of the
// entry it holds: far enough for the memory to answer meanwhile, near
// enough for the lines to stay in the cache.
const (
	slotAhead  = 32
	entryAhead = 16
)

// addAt adds, for i = 0, 1, … in turn, cs[i] (c when cs is nil) to the
// count of the n-gram keys[at[i] : at[i]+n], exactly as add does, and
// sets entries[i] to its entry when entries is not nil. hs is room for
// len(at) hashes. It prefetches the memory of the n-grams to come, which
// add reads at random, so that several misses of the cache are under way
// at once instead of one after another.
func (t *gramTable) addAt(keys []int32, at []int, cs []int64, c int64, hs []uint64, entries []int32) {
	n := t.n
	hs = hs[:len(at)]
	for i, p := range at {
		hs[i] = hashGram(keys[p : p+n])
	}
	for i, p := range at {
		if j := i + slotAhead; j < len(hs) {
			prefetch(unsafe.Pointer(&t.slots[hs[j]&uint64(len(t.slots)-1)]))
		}
		if j := i + entryAhead; j < len(hs) {
			if s := t.slots[hs[j]&uint64(len(t.slots)-1)]; s.id != 0 {
				if n > 0 {
					prefetch(unsafe.Pointer(&t.keys[int(s.id-1)*n]))
				}
				prefetch(unsafe.Pointer(&t.counts[s.id-1]))
			}
		}
		if cs != nil {
			c = cs[i]
		}
		e := t.addHashed(keys[p:p+n], hs[i], c)
		if entries != nil {
			entries[i] = int32(e)
		}
	}
}

// addGrams adds to t, for every entry e of u in turn, cs[e] (c when cs is
// nil) to the count of u.gram(e)[off : off+t.n], as addAt does, a few
// thousand at a time, and sets entries[e] to the entry it went to when
// entries (len u.len()) is not nil.
func (t *gramTable) addGrams(u *gramTable, off int, cs []int64, c int64, entries []int32) {
	const chunk = 4096
	at, hs := make([]int, 0, chunk), make([]uint64, chunk)
	for lo := 0; lo < u.len(); lo += chunk {
		hi := min(lo+chunk, u.len())
		at = at[:0]
		for e := lo; e < hi; e++ {
			at = append(at, e*u.n+off)
		}
		var part []int64
		if cs != nil {
			part = cs[lo:hi]
		}
		var out []int32
		if entries != nil {
			out = entries[lo:hi]
		}
		t.addAt(u.keys, at, part, c, hs, out)
	}
}

// distinct returns a bound, at about four standard deviations, on the
// number of distinct n-grams u.gram(e)[off : off+n] over the entries e of
// u, from a sample of them: those whose hash has its top b bits 0, a
// share 1/s = 2^−b of the hashes, s the largest power of two with
// 2^14·s ≤ u.len() (1 in a table of fewer than 2^15 entries). Each
// distinct n-gram is in the sample with probability 1/s, so that the D
// distinct ones sampled have mean and, about, variance distinct/s: the
// bound is s·(D + 4√D). It reads every entry once, and adds the sample,
// about u.len()/s < 2^15 n-grams, to a small table.
func (u *gramTable) distinct(off, n int) int {
	b := 0
	for u.len() >= 1<<(b+15) {
		b++
	}
	seen := newGramTable(n, u.len()>>b) // the sample's n-grams, at most
	for e := range u.len() {
		g := u.keys[e*u.n+off : e*u.n+off+n]
		if h := hashGram(g); h>>(64-b) == 0 {
			seen.addHashed(g, h, 0)
		}
	}
	d := float64(seen.len())
	return int(math.Ldexp(d+4*math.Sqrt(d), b))
}

// resize doubles the table and places every entry again.
func (t *gramTable) resize() {
	t.slots = hugepage.Make[gramSlot](2*len(t.slots), 2*len(t.slots))
	mask := uint64(len(t.slots) - 1)
	for e := range t.counts {
		h := hashGram(t.gram(e))
		i := h & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = gramSlot{hash: uint32(h >> 32), id: int32(e + 1)}
	}
}

// bytes returns the memory the table holds, in bytes.
func (t *gramTable) bytes() int { return 4*cap(t.keys) + 8*cap(t.counts) + 8*len(t.slots) }

func equalIDs(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
