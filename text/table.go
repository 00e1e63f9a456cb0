package text

import (
	"hash/maphash"
	"slices"
)

// termTable maps terms to dense ids: an open-addressing hash table with
// linear probing whose slots hold a term's id and half its hash, the term
// itself being terms[id] in the owner's list (a Counter's or a
// Vocabulary's), so that a slot takes 8 bytes rather than the 24 of a
// string and an id and the table is a third of the size for a large
// vocabulary. It hashes the bytes of a token in place (no string is made
// to look one up) and replaces a map[string]int32 on the tokenizer's hot
// path.
type termTable struct {
	seed  maphash.Seed
	slots []termSlot // a power of two long, at most 3/4 full
	n     int
}

type termSlot struct {
	hash uint32 // the high half of the term's hash, checked before the term
	id   int32  // id + 1; 0 marks an empty slot
}

// clone returns a copy of t, with its seed.
func (t *termTable) clone() *termTable {
	return &termTable{seed: t.seed, slots: slices.Clone(t.slots), n: t.n}
}

func newTermTable(capacity int) *termTable {
	size := 16
	for size*3/4 < capacity {
		size *= 2
	}
	return &termTable{seed: maphash.MakeSeed(), slots: make([]termSlot, size)}
}

// hash returns the hash of key.
func (t *termTable) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) }

// get returns the id of key, whose hash is h, or −1; terms are the
// owner's terms by id.
func (t *termTable) get(key []byte, h uint64, terms []string) int32 {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.hash == uint32(h>>32) && terms[s.id-1] == string(key) {
			return s.id - 1
		}
	}
}

// put adds id, whose term (absent from t) has hash h; terms are the
// owner's terms by id, which a resize hashes again.
func (t *termTable) put(h uint64, id int32, terms []string) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.resize(terms)
	}
	t.n++
	t.place(termSlot{hash: uint32(h >> 32), id: id + 1}, h)
}

// place stores s, whose full hash is h, in its first free slot.
func (t *termTable) place(s termSlot, h uint64) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

// resize doubles the table.
func (t *termTable) resize(terms []string) {
	old := t.slots
	t.slots = make([]termSlot, 2*len(old))
	for _, s := range old {
		if s.id != 0 {
			t.place(s, maphash.String(t.seed, terms[s.id-1]))
		}
	}
}
