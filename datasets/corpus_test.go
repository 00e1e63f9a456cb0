package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"testing"
)

// TestCorpora checks every bundled corpus against its size and sha256.
func TestCorpora(t *testing.T) {
	for _, c := range append(Corpora(), Treebanks()...) {
		r, err := OpenCorpus(c.Name)
		if _, ok := TreebankInfo(c.Name); ok {
			r, err = OpenTreebank(c.Name)
		}
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		n, err := io.Copy(h, r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != c.SHA256 || int(n) != c.Bytes {
			t.Errorf("%s: %d bytes, sha256 %s; want %d, %s", c.Name, n, got, c.Bytes, c.SHA256)
		}
	}
	if _, err := OpenTreebank("tinyshakespeare"); err == nil {
		t.Error("OpenTreebank of a corpus: no error")
	}
	if _, err := OpenCorpus("nope"); err == nil {
		t.Error("OpenCorpus of an unknown name: no error")
	}
}
