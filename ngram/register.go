package ngram

import (
	"bytes"

	"github.com/gendisc/gendisc/data"
	"github.com/gendisc/gendisc/registry"
)

// init registers the kinds ngram and arpa with package registry, and the
// ARPA format as the files of kind arpa.
func init() {
	registry.Register(registry.Kind{
		Name:  Kind,
		Short: "word n-gram language model of a text column or a .txt file (one per class with a target): Kneser–Ney, Witten–Bell, Lidstone or MLE; sample generates text",
		Input: registry.Text,
		Flags: flags,
	}, UnmarshalModel)
	registry.Register(registry.Kind{
		Name:  KindARPA,
		Short: "back-off n-gram language model read from an ARPA file (SRILM, KenLM), not fitted",
		Input: registry.Text,
	}, func(_ *data.Schema, file []byte) (*ARPA, error) { return ReadARPA(bytes.NewReader(file)) })
	registry.RegisterFormat(KindARPA, IsARPA)
}

// IsARPA reports whether head, the first bytes of a file, are those of an
// ARPA file: a line \data\, after any text (the format lets a file begin
// with text, which readers skip), before a line that begins with \.
func IsARPA(head []byte) bool {
	for line := range bytes.Lines(head) {
		switch s := bytes.TrimSpace(line); {
		case string(s) == `\data\`:
			return true
		case bytes.HasPrefix(s, []byte(`\`)):
			return false
		}
	}
	return false
}
