package compress

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// TestBytes compresses a text with gzip, zstd and xz (and reads a bzip2
// file of the test data) and checks that Bytes gives the text back and
// names the compression, that a text not compressed comes back as it is,
// and that a truncated input is an error naming the source and the
// compression.
func TestBytes(t *testing.T) {
	text := []byte(strings.Repeat("a,b,class\n1,2,x\n", 100))
	packed := map[string][]byte{}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text)
	zw.Close()
	packed["gzip"] = gz.Bytes()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	packed["zstd"] = enc.EncodeAll(text, nil)
	var xb bytes.Buffer
	xw, err := xz.NewWriter(&xb)
	if err != nil {
		t.Fatal(err)
	}
	xw.Write(text)
	xw.Close()
	packed["xz"] = xb.Bytes()
	for name, b := range packed {
		got, method, err := Bytes(b, "f")
		if err != nil || method != name || !bytes.Equal(got, text) {
			t.Errorf("%s: %d bytes, %q, %v; want the text, %q", name, len(got), method, err, name)
		}
		if _, _, err := Bytes(b[:len(b)/2], "f"); err == nil || !strings.HasPrefix(err.Error(), "f: "+name+": ") {
			t.Errorf("%s truncated: %v", name, err)
		}
	}
	bz, err := os.ReadFile("../testdata/iris.csv.bz2")
	if err != nil {
		t.Fatal(err)
	}
	if got, method, err := Bytes(bz, "iris"); err != nil || method != "bzip2" || !bytes.HasPrefix(got, []byte("sepal")) {
		t.Errorf("bzip2: %.20q, %q, %v", got, method, err)
	}
	if got, method, err := Bytes(text, "f"); err != nil || method != "" || !bytes.Equal(got, text) {
		t.Errorf("plain: %d bytes, %q, %v", len(got), method, err)
	}
}
