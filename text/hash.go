package text

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// murmur3 returns the 32-bit MurmurHash3 (x86_32) of b with seed 0, read as
// a signed integer: scikit-learn's murmurhash3_32(b, positive=False), the
// hash of HashingVectorizer.
func murmur3(b []byte) int32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(b)
	for ; len(b) >= 4; b = b[4:] {
		k := binary.LittleEndian.Uint32(b)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch len(b) {
	case 3:
		k ^= uint32(b[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(b[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(b[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return int32(h)
}

// hashColumn returns the column of term under the hashing trick with n
// columns and the sign of its occurrences, as scikit-learn's
// HashingVectorizer computes them from h = murmur3(term):
//
//	column = |h| mod n     (|−2³¹| = 2³¹)
//	sign   = −1 when alternate and h < 0, else +1.
func hashColumn(term []byte, n int, alternate bool) (int32, float64) {
	h := int64(murmur3(term))
	sign := 1.0
	if alternate && h < 0 {
		sign = -1
	}
	if h < 0 {
		h = -h
	}
	return int32(h % int64(n)), sign
}

// hashedTerm is the name of column i of a hashed vocabulary, which keeps
// no words: "#i".
func hashedTerm(i int) string { return "#" + strconv.Itoa(i) }
