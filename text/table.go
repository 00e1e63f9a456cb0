package text

import "hash/maphash"

// termTable maps terms to dense ids: an open-addressing hash table with
// linear probing whose slots hold the key itself, so that a lookup
// usually touches one slot and the key's bytes, and which hashes the
// bytes of a token in place (no string is made to look one up). It
// replaces a map[string]int32 on the tokenizer's hot path.
type termTable struct {
	seed  maphash.Seed
	slots []termSlot // a power of two long, at most 3/4 full
	n     int
}

type termSlot struct {
	key  string
	hash uint32 // the high half of the key's hash, checked before the key
	id   int32  // id + 1; 0 marks an empty slot
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

// get returns the id of key, whose hash is h, or −1.
func (t *termTable) get(key []byte, h uint64) int32 {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id == 0 {
			return -1
		}
		if s.hash == uint32(h>>32) && s.key == string(key) {
			return s.id - 1
		}
	}
}

// put adds key, absent from t, with hash h and id.
func (t *termTable) put(key string, h uint64, id int32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.resize()
	}
	t.n++
	t.place(termSlot{key: key, hash: uint32(h >> 32), id: id + 1}, h)
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
func (t *termTable) resize() {
	old := t.slots
	t.slots = make([]termSlot, 2*len(old))
	for _, s := range old {
		if s.id != 0 {
			t.place(s, maphash.String(t.seed, s.key))
		}
	}
}
